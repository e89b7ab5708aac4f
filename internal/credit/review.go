package credit

import (
	"fmt"
	"time"
)

// Review intervals (issue 27): the worse the Risk band, the sooner the
// next review; an account without a score is reviewed quarterly.
const (
	// OverdueShare is the share of the balance over 90 days past due
	// above which an account is reviewed at once.
	OverdueShare = 0.10
)

// LastReview is what the schedule needs of an account's last review.
type LastReview struct {
	At time.Time
	// Band and Over90 are the Risk band (0 none) and the 91+ share when
	// reviewed, so only a change since then moves the date.
	Band   int
	Over90 float64
	// StatementYear is the newest statement year known when reviewed (0
	// none), so a year filed since brings the review forward.
	StatementYear int
	// Outcome is what the review concluded (keep, reduce, hold,
	// increase), By who reviewed and Note why: a hold stands on the
	// worklist with its note until a later review lifts it.
	Outcome, By, Note string
}

// Holds reports a review that concluded the account is to be held.
func (r *LastReview) Holds() bool { return r != nil && r.Outcome == "hold" }

// ReviewInterval is the days between reviews for a Risk band (0: none).
func ReviewInterval(band int) int {
	switch {
	case band >= 1 && band <= 3:
		return 30
	case band >= 7 && band <= 10:
		return 365
	}
	return 91 // bands 4–6 and no score
}

// MinReviewInterval is the shortest interval between reviews (bands 1–3):
// an account reviewed more recently than that ago cannot be due on its
// schedule alone.
const MinReviewInterval = 30

// NextReview is the account's next review date (a day, UTC) and why: from
// its last review by its band's interval; never reviewed, due today; a
// band drop since the last review, a statement year newer than the one
// known then (statementYear, 0 none) or the 91+ share passing 10 % since
// then moves it to today.
func NextReview(last *LastReview, band int, over90 float64, statementYear int, today time.Time) (time.Time, string) {
	today = day(today)
	if last == nil {
		return today, "never reviewed"
	}
	switch {
	case last.Band > 0 && band > 0 && band < last.Band:
		return today, fmt.Sprintf("Risk band dropped from %d to %d since the last review", last.Band, band)
	case statementYear > last.StatementYear:
		return today, fmt.Sprintf("new statement year: %d known since the last review", statementYear)
	case over90 > OverdueShare && last.Over90 <= OverdueShare:
		return today, fmt.Sprintf("the 91+ days share passed 10 %% (%.1f %%) since the last review", over90*100)
	}
	next := day(last.At).AddDate(0, 0, ReviewInterval(band))
	if band == 0 {
		return next, "no Risk score: every 91 days"
	}
	return next, fmt.Sprintf("Risk band %d: every %d days", band, ReviewInterval(band))
}

// day is t's date at midnight UTC.
func day(t time.Time) time.Time {
	y, m, d := t.UTC().Date()
	return time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
}
