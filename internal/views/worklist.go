package views

import (
	"fmt"
	"net/url"
	"strconv"

	"creditdash/internal/credit"
)

// The worklist (issue 27): every account of the team that needs
// something, with why, largest expected loss first.

// NavWorklist is the worklist's navigation area.
const NavWorklist Nav = "worklist"

// ReasonLabel is the reason as the page names it.
func ReasonLabel(r credit.WorkReason) string {
	switch r {
	case credit.ReasonOverLimit:
		return "Over limit"
	case credit.ReasonLimitAtRisk:
		return "Limit at risk"
	case credit.ReasonReviewOverdue:
		return "Review overdue"
	case credit.ReasonReviewDue:
		return "Review due"
	case credit.ReasonHold:
		return "Hold advised"
	case credit.ReasonDecision:
		return "Decision waiting for me"
	case credit.ReasonERPLimit:
		return "ERP limit differs"
	}
	return string(r)
}

// WorkNeed is one reason an account is listed, with its label and
// detail.
type WorkNeed struct {
	Reason        credit.WorkReason
	Label, Detail string
}

// WorkNeeds words the item's reasons, in the page's order.
func WorkNeeds(w *credit.WorkItem) []WorkNeed {
	var out []WorkNeed
	add := func(r credit.WorkReason, detail string) {
		out = append(out, WorkNeed{Reason: r, Label: ReasonLabel(r), Detail: detail})
	}
	if w.Has(credit.ReasonOverLimit) {
		add(credit.ReasonOverLimit, fmt.Sprintf("balance %s over the limit of %s", Amount(w.Balance), Amount(*w.Account.Limit)))
	}
	if w.Has(credit.ReasonLimitAtRisk) {
		add(credit.ReasonLimitAtRisk, fmt.Sprintf("limit %s above the implied %s", Amount(*w.Account.Limit), Amount(w.Implied)))
	}
	for _, r := range []credit.WorkReason{credit.ReasonReviewOverdue, credit.ReasonReviewDue} {
		if w.Has(r) {
			add(r, fmt.Sprintf("due %s (%s)", Date(w.Next), w.Why))
		}
	}
	if w.Has(credit.ReasonHold) {
		if d := w.Account.Default; d.InForce() {
			add(credit.ReasonHold, DefaultLine(d))
		}
		if r := w.Held; r != nil {
			add(credit.ReasonHold, fmt.Sprintf("held at review by %s on %s: %s", r.By, Date(r.At), Clip(r.Note, 200)))
		}
		if w.Band == 1 || w.Band == 2 {
			add(credit.ReasonHold, fmt.Sprintf("Risk band %d", w.Band))
		} else if w.Over90 > credit.OverdueShare {
			add(credit.ReasonHold, Fraction(w.Over90)+" of the balance over 90 days past due")
		}
	}
	if w.Has(credit.ReasonDecision) {
		add(credit.ReasonDecision, Plural(w.Waiting, "request")+" waiting for your decision")
	}
	if w.Has(credit.ReasonERPLimit) {
		inForce := "none"
		if w.Account.Limit != nil {
			inForce = Amount(*w.Account.Limit)
		}
		add(credit.ReasonERPLimit, fmt.Sprintf("the ledger's ERP limit %s, the limit in force %s", Amount(*w.ERPLimit), inForce))
	}
	return out
}

// WorklistFilter is the page's filters as its query carries them.
type WorklistFilter struct {
	// Owner is "" (anyone), "me" or "unassigned".
	Owner string
	// Reason is "" (any) or one of credit.WorkReasons.
	Reason credit.WorkReason
}

// Keep reports whether the filter keeps w for user.
func (f WorklistFilter) Keep(w *credit.WorkItem, user string) bool {
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
func NewWorkRow(w *credit.WorkItem, reviewURL string) WorkRow {
	r := WorkRow{Account: w.Account.Account, Name: w.Name, URL: reviewURL, ReviewURL: reviewURL, Balance: Amount(w.Balance),
		Limit: Dash, Band: Dash, EL: Dash, Owner: w.Owner, Needs: WorkNeeds(w)}
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
	if w.Has(credit.ReasonDecision) {
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
