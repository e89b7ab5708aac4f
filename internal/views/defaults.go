package views

import (
	"strconv"

	"creditdash/internal/store"
)

// DefaultsPath is the team's defaults page.
const DefaultsPath = "/accounts/defaults"

// DefaultLine is a default in one line, as the worklist's hold names it:
// "in default: Chapter 11 filing reported Sep 14, 2026 (learned from
// Folder “Review” news by demo on Nov 2, 2026)".
func DefaultLine(d *store.Default) string {
	return "in default: " + d.Kind + " reported " + Date(d.Published) + " (learned from " + d.Source + " by " + d.LearnedBy + " on " + Date(d.LearnedAt) + ")"
}

// DefaultBanner is the report's banner for a business in default, on
// every tab, whichever page learned it.
type DefaultBanner struct {
	Headline string
	// Title and URL are the story's (URL "" when it has none).
	Title, URL string
	// Learned says which page learned it, by whom and when.
	Learned string
	// Loss says what the default does to the expected loss.
	Loss string
}

// NewDefaultBanner words a default in force; nil for none.
func NewDefaultBanner(d *store.Default) *DefaultBanner {
	if !d.InForce() {
		return nil
	}
	return &DefaultBanner{
		Headline: "In default: " + d.Kind + " reported " + Date(d.Published),
		Title:    d.Title, URL: SafeLink(d.URL),
		Learned: "Learned from " + d.Source + " by " + d.LearnedBy + " on " + Date(d.LearnedAt) + ".",
		Loss: "The team's accounts with this business count a probability of default of 100 % and an expected loss of the balance × " +
			LGDText(d.LGD) + " (the team's loss given default), until a manager clears the default.",
	}
}

// LGDText writes a loss given default: "100 %".
func LGDText(lgd float64) string {
	return strconv.FormatFloat(lgd*100, 'f', -1, 64) + " %"
}

// DefaultRow is one filing on the defaults page.
type DefaultRow struct {
	ID                 int64
	Business           string
	BusinessURL        string
	Kind, Published    string
	Title, URL         string
	Source, SourceURL  string
	LearnedBy, Learned string
	// Cleared says who cleared it, when and why ("" in force).
	Cleared string
	// ClearAction is the form's action.
	ClearAction string
}

// NewDefaultRow is a filing as the page lists it.
func NewDefaultRow(d store.Default) DefaultRow {
	id := strconv.Itoa(int(d.BusinessID))
	r := DefaultRow{ID: d.ID, Business: "Business " + id, BusinessURL: "/businesses/" + id, Kind: d.Kind, Published: Date(d.Published),
		Title: d.Title, URL: SafeLink(d.URL), Source: d.Source, SourceURL: d.SourceURL, LearnedBy: d.LearnedBy, Learned: Date(d.LearnedAt),
		ClearAction: DefaultsPath + "/" + strconv.FormatInt(d.ID, 10) + "/clear"}
	if c := d.Cleared; c != nil {
		r.Cleared = "cleared by " + c.By + " on " + Date(c.At) + ": " + Clip(c.Note, 300)
	}
	return r
}

// DefaultsPage lists the team's filings and its loss given default.
type DefaultsPage struct {
	Base
	InForce, Cleared []DefaultRow
	// LGD is the loss given default in force; LGDValue what was typed,
	// LGDError why it was refused.
	LGD, LGDValue, LGDError string
	// Manager shows the forms (clearing and the loss given default are a
	// manager's).
	Manager bool
	// ClearID, ClearNote and ClearError bring back a refused clearing.
	ClearID               int64
	ClearNote, ClearError string
}

// NoteFor is the note a refused clearing of filing id brings back.
func (p DefaultsPage) NoteFor(id int64) string {
	if p.ClearID == id {
		return p.ClearNote
	}
	return ""
}
