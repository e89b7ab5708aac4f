package views

import (
	"strconv"
	"strings"
	"time"

	"creditdash/internal/upstream"
)

// OfficerRow is one officer as the officers table shows them.
type OfficerRow struct {
	Name  string
	Title string
	// Age is "58", or a dash when the service did not say.
	Age string
	// TitleSince and HiredOn are dates for people ("Mar 4, 2024").
	TitleSince string
	HiredOn    string
	// Tenure is how long since the hire date ("12 years"), "" when unknown.
	Tenure string
}

// OfficerRows formats the officers in the order the service sent them;
// now is the page's clock, for tenures.
func OfficerRows(officers []upstream.Officer, now time.Time) []OfficerRow {
	out := make([]OfficerRow, 0, len(officers))
	for _, o := range officers {
		r := OfficerRow{
			Name:       PersonName(o.FirstName, o.MiddleInitial, o.LastName),
			Title:      o.Title,
			Age:        Dash,
			TitleSince: Date(o.DateOfTitle.Time),
			HiredOn:    Date(o.DateOfHire.Time),
			Tenure:     Years(o.DateOfHire.Time, now),
		}
		if r.Title == "" {
			r.Title = Dash
		}
		if o.Age.OK && o.Age.V > 0 {
			r.Age = strconv.Itoa(o.Age.V)
		}
		out = append(out, r)
	}
	return out
}

// PersonName joins a first name, middle initial and last name: "Ana M. Ruiz".
// The initial gets its full stop unless it already has one.
func PersonName(first, middle, last string) string {
	parts := make([]string, 0, 3)
	if f := strings.TrimSpace(first); f != "" {
		parts = append(parts, f)
	}
	if m := strings.TrimSpace(middle); m != "" {
		if !strings.HasSuffix(m, ".") && len([]rune(m)) == 1 {
			m += "."
		}
		parts = append(parts, m)
	}
	if l := strings.TrimSpace(last); l != "" {
		parts = append(parts, l)
	}
	if len(parts) == 0 {
		return "(no name given)"
	}
	return strings.Join(parts, " ")
}
