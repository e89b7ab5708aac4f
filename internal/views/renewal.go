package views

import "time"

// RenewalText is when the hourly limit renews, in the analyst's time zone
// and in UTC: "14:05 CET (13:05 UTC)"; without a zone, "13:05 UTC".
func RenewalText(at time.Time, loc *time.Location) string {
	utc := at.UTC().Format("15:04 MST")
	if loc == nil {
		return utc
	}
	local := at.In(loc)
	if _, off := local.Zone(); off == 0 && local.Location().String() == "UTC" {
		return utc
	}
	return local.Format("15:04 MST") + " (" + utc + ")"
}

// BudgetNotice is the one notice of a page whose sections wait for the
// hourly limit to renew: said once at the top, instead of in every box.
type BudgetNotice struct {
	// Sections counts the sections not loaded.
	Sections int
	RenewsAt time.Time
	// Renews is RenewalText of RenewsAt.
	Renews string
	Now    time.Time
}

// Text is the notice's sentence.
func (n BudgetNotice) Text() string {
	s := "Your account has no requests left this hour, so " + Plural(n.Sections, "section") + " of this page " +
		map[bool]string{true: "is", false: "are"}[n.Sections == 1] + " not loaded."
	if !n.RenewsAt.IsZero() {
		s += " The limit renews at " + n.Renews + ", in " + Until(n.RenewsAt, n.Now) + "; reload the page then."
	}
	return s
}
