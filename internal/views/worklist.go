package views

import (
	"cmp"
	"fmt"
	"net/url"
	"slices"
	"strconv"
	"time"

	"creditdash/internal/credit"
)

// The worklist (issue 27): every account of the team that needs
// something, with why, largest expected loss first.

// NavWorklist is the worklist's navigation area.
const NavWorklist Nav = "worklist"

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
)

// WorkReasons are every reason, in the page's order.
var WorkReasons = []WorkReason{ReasonOverLimit, ReasonLimitAtRisk, ReasonReviewOverdue, ReasonReviewDue, ReasonHold, ReasonDecision}

// Label is the reason as the page names it.
func (r WorkReason) Label() string {
	switch r {
	case ReasonOverLimit:
		return "Over limit"
	case ReasonLimitAtRisk:
		return "Limit at risk"
	case ReasonReviewOverdue:
		return "Review overdue"
	case ReasonReviewDue:
		return "Review due"
	case ReasonHold:
		return "Hold advised"
	case ReasonDecision:
		return "Decision waiting for me"
	}
	return string(r)
}

// WorkNeed is one reason an account is listed, with its detail.
type WorkNeed struct {
	Reason WorkReason
	Detail string
}

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
	LastReview *credit.LastReview
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
	w.Next, w.Why = credit.NextReview(in.LastReview, w.Band, w.Over90, in.StatementYear, today)
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
	if w.Band == 1 || w.Band == 2 || w.Over90 > credit.OverdueShare {
		w.reasons |= ReasonHold.bit()
	}
	if in.Waiting > 0 {
		w.reasons |= ReasonDecision.bit()
	}
	return w, w.reasons != 0
}

// Needs words the item's reasons, in the page's order.
func (w *WorkItem) Needs() []WorkNeed {
	var out []WorkNeed
	add := func(r WorkReason, detail string) { out = append(out, WorkNeed{Reason: r, Detail: detail}) }
	if w.Has(ReasonOverLimit) {
		add(ReasonOverLimit, fmt.Sprintf("balance %s over the limit of %s", Amount(w.Balance), Amount(*w.Account.Limit)))
	}
	if w.Has(ReasonLimitAtRisk) {
		add(ReasonLimitAtRisk, fmt.Sprintf("limit %s above the implied %s", Amount(*w.Account.Limit), Amount(w.Implied)))
	}
	for _, r := range []WorkReason{ReasonReviewOverdue, ReasonReviewDue} {
		if w.Has(r) {
			add(r, fmt.Sprintf("due %s (%s)", Date(w.Next), w.Why))
		}
	}
	if w.Has(ReasonHold) {
		if w.Band == 1 || w.Band == 2 {
			add(ReasonHold, fmt.Sprintf("Risk band %d", w.Band))
		} else {
			add(ReasonHold, Fraction(w.Over90)+" of the balance over 90 days past due")
		}
	}
	if w.Has(ReasonDecision) {
		add(ReasonDecision, Plural(w.Waiting, "request")+" waiting for your decision")
	}
	return out
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

// WorklistFilter is the page's filters as its query carries them.
type WorklistFilter struct {
	// Owner is "" (anyone), "me" or "unassigned".
	Owner string
	// Reason is "" (any) or one of WorkReasons.
	Reason WorkReason
}

// Keep reports whether the filter keeps w for user.
func (f WorklistFilter) Keep(w *WorkItem, user string) bool {
	switch {
	case f.Owner == "me" && w.Owner != user:
		return false
	case f.Owner == "unassigned" && w.Owner != "":
		return false
	case f.Reason != "" && !w.Has(f.Reason):
		return false
	}
	return true
}

// Query is the filter as a query string, with page when above 1.
func (f WorklistFilter) Query(page int) string {
	v := url.Values{}
	if f.Owner != "" {
		v.Set("owner", f.Owner)
	}
	if f.Reason != "" {
		v.Set("reason", string(f.Reason))
	}
	if page > 1 {
		v.Set("page", strconv.Itoa(page))
	}
	if len(v) == 0 {
		return ""
	}
	return "?" + v.Encode()
}

// WorkCount is how many listed accounts have one reason (or match one
// owner filter), with the link that filters to them.
type WorkCount struct {
	Label   string
	N       int
	URL     string
	Current bool
}

// WorkRow is a line of the worklist.
type WorkRow struct {
	Account, Name string
	// URL is what Enter opens: the business report when linked, else the
	// account's review form.
	URL, ReviewURL, DecisionsURL string
	Balance, Limit, Band, EL     string
	Owner                        string
	Needs                        []WorkNeed
}

// NewWorkRow formats one item.
func NewWorkRow(w *WorkItem, reviewURL string) WorkRow {
	r := WorkRow{Account: w.Account.Account, Name: w.Name, URL: reviewURL, ReviewURL: reviewURL, Balance: Amount(w.Balance),
		Limit: Dash, Band: Dash, EL: Dash, Owner: w.Owner, Needs: w.Needs()}
	if r.Name == "" {
		r.Name = "Account " + r.Account
	}
	if w.Linked() {
		r.URL = reportURL(w.BusinessID)
	}
	if w.Account.Limit != nil {
		r.Limit = Amount(*w.Account.Limit)
	}
	if w.Band > 0 {
		r.Band = strconv.Itoa(w.Band)
	}
	if w.ELOK {
		r.EL = Amount(w.EL)
	}
	if w.Has(ReasonDecision) {
		r.DecisionsURL = "/decisions"
	}
	return r
}

// WorklistPage is /worklist.
type WorklistPage struct {
	Base
	Filter WorklistFilter
	// Reasons and Owners are the filter links with their counts; All the
	// link to everything.
	Reasons, Owners []WorkCount
	All             WorkCount
	Rows            []WorkRow
	Pager           Pager
	// Matching is how many lines the filters keep.
	Matching int
	// AsOf is the newest ledger's date; "" when the team has none.
	AsOf   string
	PDNote string
	// CanAssign offers the owner forms (not to auditors); OwnerValue and
	// OwnerError are what was typed and what was wrong with it.
	CanAssign              bool
	OwnerValue, OwnerError string
	// Checked are the accounts checked when the assignment came back.
	Checked map[string]bool
	// Return is the page's own address, where an assignment comes back to.
	Return string
	// MaxAssign is how many accounts one assignment names at most.
	MaxAssign int
}

// WorklistSummary is the home page's worklist box.
type WorklistSummary struct {
	Total, Mine, Unassigned int
	Reasons                 []WorkCount
}
