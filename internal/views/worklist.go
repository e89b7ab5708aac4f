package views

import (
	"cmp"
	"fmt"
	"net/url"
	"slices"
	"strconv"
	"time"

	"creditdash/internal/credit"
	"creditdash/internal/store"
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

// WorkItem is an account on the worklist.
type WorkItem struct {
	Figures
	Needs []WorkNeed
	// Next is the next review date, Why its reason.
	Next time.Time
	Why  string
}

// Has reports whether the item is listed for r.
func (w WorkItem) Has(r WorkReason) bool {
	return slices.ContainsFunc(w.Needs, func(n WorkNeed) bool { return n.Reason == r })
}

// ReviewDueWithin is how far ahead a review counts as due: the week
// /reviews shows as "due this week".
const ReviewDueWithin = 7

// NewWorkItem works out what a candidate account needs as of today
// (the same figures as /accounts, the same schedule as /reviews); ok is
// false when it needs nothing.
func NewWorkItem(c store.WorkCandidate, today time.Time) (WorkItem, bool) {
	acct := store.Account{LedgerLine: store.LedgerLine{Account: c.Account, Name: c.Name, BusinessID: c.BusinessID, Owner: c.Owner,
		Balance: c.Balance, DaysOver90: c.DaysOver90, Limit: c.Limit}, Inputs: c.Inputs}
	known := map[store.Score]store.KnownScore{}
	if c.Risk != nil {
		known[store.ScoreRisk] = store.KnownScore{Value: *c.Risk}
	}
	if c.Z != nil {
		known[store.ScoreZ] = store.KnownScore{Value: *c.Z}
	}
	w := WorkItem{Figures: NewFigures(acct, known)}
	over90 := 0.0
	if c.Balance > 0 {
		over90 = c.DaysOver90 / c.Balance
	}
	var last *credit.LastReview
	if r := c.LastReview; r != nil {
		last = &credit.LastReview{At: r.At, Band: r.Band, Over90: r.Over90, StatementYear: r.StatementYear}
	}
	w.Next, w.Why = credit.NextReview(last, w.Band, over90, c.StatementYear, today)
	day := time.Date(today.Year(), today.Month(), today.Day(), 0, 0, 0, 0, time.UTC)
	add := func(r WorkReason, format string, args ...any) {
		w.Needs = append(w.Needs, WorkNeed{Reason: r, Detail: fmt.Sprintf(format, args...)})
	}
	if w.OverLimit() {
		add(ReasonOverLimit, "balance %s over the limit of %s", Amount(c.Balance), Amount(*c.Limit))
	}
	if c.Limit != nil && w.ImpliedOK && *c.Limit > w.Implied {
		add(ReasonLimitAtRisk, "limit %s above the implied %s", Amount(*c.Limit), Amount(w.Implied))
	}
	switch {
	case w.Next.Before(day):
		add(ReasonReviewOverdue, "due %s (%s)", Date(w.Next), w.Why)
	case w.Next.Before(day.AddDate(0, 0, ReviewDueWithin)):
		add(ReasonReviewDue, "due %s (%s)", Date(w.Next), w.Why)
	}
	switch {
	case w.Band == 1 || w.Band == 2:
		add(ReasonHold, "Risk band %d", w.Band)
	case over90 > credit.OverdueShare:
		add(ReasonHold, "%s of the balance over 90 days past due", Fraction(over90))
	}
	if c.Waiting > 0 {
		add(ReasonDecision, "%s waiting for your decision", Plural(c.Waiting, "request"))
	}
	return w, len(w.Needs) > 0
}

// SortWork orders the worklist by expected loss, largest first; accounts
// without a Risk band (no expected loss) after them by balance; then by
// account number.
func SortWork(items []WorkItem) {
	slices.SortStableFunc(items, func(a, b WorkItem) int {
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
}

// WorklistFilter is the page's filters as its query carries them.
type WorklistFilter struct {
	// Owner is "" (anyone), "me" or "unassigned".
	Owner string
	// Reason is "" (any) or one of WorkReasons.
	Reason WorkReason
}

// Keep reports whether the filter keeps w for user.
func (f WorklistFilter) Keep(w WorkItem, user string) bool {
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
func NewWorkRow(w WorkItem, reviewURL string) WorkRow {
	r := WorkRow{Account: w.Account.Account, Name: w.Name, URL: reviewURL, ReviewURL: reviewURL, Balance: Amount(w.Balance),
		Limit: Dash, Band: Dash, EL: Dash, Owner: w.Owner, Needs: w.Needs}
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
