package credit

import (
	"cmp"
	"slices"
	"time"
)

// The worklist (issue 27): every account of the team that needs
// something, and why.

// WorkReason is why an account is on the worklist; its value is the
// reason filter's in the page's query.
type WorkReason string

// The reasons, in the order the page lists them.
const (
	ReasonOverLimit     WorkReason = "over-limit"
	ReasonLimitAtRisk   WorkReason = "limit-at-risk"
	ReasonReviewOverdue WorkReason = "review-overdue"
	ReasonReviewDue     WorkReason = "review-due"
	ReasonHold          WorkReason = "hold-advised"
	ReasonDecision      WorkReason = "decision-waiting"
	// ReasonERPLimit: the newest ledger's ERP limit is not the limit in
	// force (issue 43): a difference to settle, never adopted silently.
	ReasonERPLimit WorkReason = "erp-limit-differs"
)

// WorkReasons are every reason, in the page's order.
var WorkReasons = []WorkReason{ReasonOverLimit, ReasonLimitAtRisk, ReasonReviewOverdue, ReasonReviewDue, ReasonHold, ReasonDecision, ReasonERPLimit}

// WorkItem is an account on the worklist. Its figures are the team's
// kept ones, shared, never changed; its reasons are kept as a set of bits
// and worded only for the lines a page shows: a team's worklist can hold
// every one of its 50,000 accounts.
type WorkItem struct {
	*Figures
	reasons uint8
	// Next is the next review date, Why its reason.
	Next time.Time
	Why  string
	// Over90 is the share of the balance over 90 days past due; Waiting
	// the requests waiting for the reader's decision.
	Over90  float64
	Waiting int
	// Held is the review that concluded to hold the account, nil when
	// the latest review did not.
	Held *LastReview
}

// bit is the reason's place in WorkItem's set.
func (r WorkReason) bit() uint8 {
	return uint8(1) << slices.Index(WorkReasons, r)
}

// Has reports whether the item is listed for r.
func (w *WorkItem) Has(r WorkReason) bool { return w.reasons&r.bit() != 0 }

// ReviewDueWithin is how far ahead a review counts as due: the week
// /reviews shows as "due this week".
const ReviewDueWithin = 7

// WorkInputs are what an account's review schedule and the reader's
// decisions add to its figures.
type WorkInputs struct {
	// LastReview is the account's latest review, nil when never reviewed.
	LastReview *LastReview
	// StatementYear is the newest statement year known of its business (0
	// none).
	StatementYear int
	// Waiting is how many of its pending requests the reader may decide.
	Waiting int
}

// NewWorkItem works out what an account needs as of today (the same
// figures as /accounts, the same schedule as /reviews); ok is false when
// it needs nothing. f is kept in the item, not copied.
func NewWorkItem(f *Figures, in WorkInputs, today time.Time) (WorkItem, bool) {
	w := WorkItem{Figures: f, Waiting: in.Waiting}
	if f.Balance > 0 {
		w.Over90 = f.DaysOver90 / f.Balance
	}
	w.Next, w.Why = NextReview(in.LastReview, w.Band, w.Over90, in.StatementYear, today)
	u := today.UTC()
	day := time.Date(u.Year(), u.Month(), u.Day(), 0, 0, 0, 0, time.UTC)
	if w.OverLimit() {
		w.reasons |= ReasonOverLimit.bit()
	}
	if f.Account.Limit != nil && w.ImpliedOK && *f.Account.Limit > w.Implied {
		w.reasons |= ReasonLimitAtRisk.bit()
	}
	switch {
	case w.Next.Before(day):
		w.reasons |= ReasonReviewOverdue.bit()
	case w.Next.Before(day.AddDate(0, 0, ReviewDueWithin)):
		w.reasons |= ReasonReviewDue.bit()
	}
	if in.LastReview.Holds() {
		w.Held = in.LastReview
	}
	if w.Band == 1 || w.Band == 2 || w.Over90 > OverdueShare || w.Held != nil || f.InDefault() {
		w.reasons |= ReasonHold.bit()
	}
	if in.Waiting > 0 {
		w.reasons |= ReasonDecision.bit()
	}
	if f.Account.ERPDiffers() {
		w.reasons |= ReasonERPLimit.bit()
	}
	return w, w.reasons != 0
}

// WorkOrder is the worklist's order of figs, as indexes: by expected
// loss, largest first; accounts without a Risk band (no expected loss)
// after them by balance; then by account number. It depends on nothing
// but the figures, so it is worked out once per team version.
func WorkOrder(figs []Figures) []int32 {
	order := make([]int32, len(figs))
	for i := range order {
		order[i] = int32(i)
	}
	slices.SortFunc(order, func(i, j int32) int {
		a, b := &figs[i], &figs[j]
		if a.ELOK != b.ELOK {
			if a.ELOK {
				return -1
			}
			return 1
		}
		if c := cmp.Compare(b.EL, a.EL); a.ELOK && c != 0 {
			return c
		}
		if c := cmp.Compare(b.Balance, a.Balance); c != 0 {
			return c
		}
		return cmp.Compare(a.Account.Account, b.Account.Account)
	})
	return order
}
