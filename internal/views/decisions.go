package views

import (
	"strconv"
	"strings"
	"time"

	"creditdash/internal/store"
)

// RequestForm is the limit request form as typed, with why each field is
// refused ("" when it is not): on the calculator, the account panel and,
// after a refusal, a page of its own.
type RequestForm struct {
	// Action is where the form posts: /businesses/{id}/limit-requests.
	Action string
	// Accounts are the team's accounts of the business.
	Accounts []Choice
	Account  string
	Amount   string
	Reason   string
	// The calculator's inputs when the request comes from it.
	MonthlySales, MonthsAllowed, LossBudget string
	AmountError, ReasonError, AccountError  string
	// Error is a refusal that concerns no one field.
	Error string
}

// LimitRequestPage is the request form on a page of its own, shown again
// with what was typed when it is refused.
type LimitRequestPage struct {
	Base
	Name string
	Form RequestForm
	// ReportURL and CalcURL lead back to where the request was made.
	ReportURL, CalcURL string
}

// DecisionStep is one step of a request: who did what and when.
type DecisionStep struct {
	What, Who, When, WhenISO, Note string
}

// EvidenceLink is a dated copy a request keeps.
type EvidenceLink struct {
	URL, Label, AsOf, AsOfISO string
}

// DecisionPage is /decisions/{id}: the request, its evidence, its steps
// and, for who may act, the forms to act.
type DecisionPage struct {
	Base
	ID, Account, AccountURL, BusinessURL, Status string
	// MemoURL is the request's credit memo.
	MemoURL                  string
	Amount, OldLimit, Reason string
	Calculator               []string
	Evidence                 []EvidenceLink
	Steps                    []DecisionStep
	// The forms the viewer may use; Decide is approve and decline.
	Decide, Withdraw bool
	// WhyNot says why the viewer cannot decide a pending request.
	WhyNot string
	// Note and NoteError are the approve or decline form as typed;
	// NoteFor names which ("approved", "declined").
	Note, NoteError, NoteFor string
	// ApproveAmount and AmountError are the approve form's amount as
	// typed (the amount asked until then) and what is wrong with it.
	ApproveAmount, AmountError string
	// Approved is the amount approved, the limit it set; "" unless approved.
	Approved string
	// Notice tells a decider who was too late what happened.
	Notice string
	// Waits says why a pending request waits (above its requester's
	// authority) and who may decide it; "" once decided.
	Waits string
	// Policy is what the credit policy in force said of the request when
	// it was asked ("" none in force).
	Policy string
}

// StatusLabel is a request's status in words.
func StatusLabel(s string) string {
	switch s {
	case store.StatusPending:
		return "Waiting for approval"
	case store.StatusApproved:
		return "Approved"
	case store.StatusDeclined:
		return "Declined"
	case store.StatusWithdrawn:
		return "Withdrawn"
	}
	return s
}

// NewDecisionSteps are a request's steps, oldest first.
func NewDecisionSteps(r store.LimitRequest) []DecisionStep {
	steps := []DecisionStep{{What: "Requested " + Amount(r.Amount), Who: r.RequestedBy, When: DateTime(r.RequestedAt),
		WhenISO: r.RequestedAt.UTC().Format(time.RFC3339), Note: r.Reason}}
	if r.Status != store.StatusPending {
		what := StatusLabel(r.Status)
		if r.Approved != nil && *r.Approved < r.Amount {
			what += " " + ApprovedText(r)
		}
		steps = append(steps, DecisionStep{What: what, Who: r.DecidedBy, When: DateTime(r.DecidedAt),
			WhenISO: r.DecidedAt.UTC().Format(time.RFC3339), Note: r.Note})
	}
	return steps
}

// ApprovedText is an approval's amount in words: "$30,000 of $50,000
// asked" when less than asked, the amount alone otherwise; "" unless
// approved.
func ApprovedText(r store.LimitRequest) string {
	switch {
	case r.Approved == nil:
		return ""
	case *r.Approved < r.Amount:
		return Amount(*r.Approved) + " of " + Amount(r.Amount) + " asked"
	}
	return Amount(*r.Approved)
}

// AccountLabel names an account as the forms list it: "A-1 · Westbridge",
// or "A-1" when the ledger gave it no name.
func AccountLabel(account, name string) string {
	if name == "" {
		return account
	}
	return account + " · " + name
}

// DecisionPath is a request's page.
func DecisionPath(id int64) string { return "/decisions/" + strconv.FormatInt(id, 10) }

// CalcRequestForm is the request form under the calculator's result: for
// the account chosen, the recommended limit as the amount, and the inputs
// so the request keeps the calculator's rationale.
func CalcRequestForm(v LimitPage) RequestForm {
	f := RequestForm{Action: v.RequestAction, Accounts: v.Accounts, Account: v.Account,
		MonthlySales: v.MonthlySales, MonthsAllowed: v.MonthsAllowed, LossBudget: v.LossBudget}
	if v.Result != nil && v.Result.Available {
		f.Amount = strings.TrimPrefix(v.Result.Recommended, "$")
	}
	if v.Policy != nil && v.Policy.Saved == "" && strings.HasPrefix(v.Policy.Limit, "$") {
		// The policy's limit, when the request is held against this one.
		f.Amount = strings.TrimPrefix(v.Policy.Limit, "$")
	}
	return f
}

// RequestForm is the request form in the account tile: for the tile's
// accounts, without calculator inputs.
func (p *AccountPanel) RequestForm() RequestForm {
	f := RequestForm{Action: strings.TrimSuffix(p.CalcURL, "/limit") + "/limit-requests"}
	for _, r := range p.Rows {
		name := r.Name
		if r.Unnamed {
			name = ""
		}
		f.Accounts = append(f.Accounts, Choice{Value: r.Account, Label: AccountLabel(r.Account, name)})
	}
	return f
}

// DecisionRow is a request in a list of /decisions.
type DecisionRow struct {
	URL, ID, Account, Amount, Status, By, When, WhenISO, DecidedBy string
}

// NewDecisionRows are the requests as list rows.
func NewDecisionRows(rs []store.LimitRequest) []DecisionRow {
	out := make([]DecisionRow, 0, len(rs))
	for _, r := range rs {
		out = append(out, DecisionRow{URL: DecisionPath(r.ID), ID: strconv.FormatInt(r.ID, 10), Account: r.Account,
			Amount: Amount(r.Amount), Status: StatusLabel(r.Status), By: r.RequestedBy, When: DateTime(r.RequestedAt),
			WhenISO: r.RequestedAt.UTC().Format(time.RFC3339), DecidedBy: r.DecidedBy})
	}
	return out
}

// DecisionsPage is /decisions.
type DecisionsPage struct {
	Base
	// Decider says the user decides others' requests, within Authority.
	Decider               bool
	Authority             string
	Waiting, Mine, Recent []DecisionRow
	// Max is how many rows a list shows at most.
	Max int
}

// ReviewRow is an account on /reviews.
type ReviewRow struct {
	Account, Name, Band, Next, NextISO, Why, Last, URL string
	// LimitChanged is when the limit last changed, "" when unknown.
	LimitChanged string
}

// ReviewsPage is /reviews.
type ReviewsPage struct {
	Base
	Overdue, Week, Upcoming, Unchanged ReviewSection
}

// ReviewSection is one list of /reviews: the rows of its page, and its
// pager (each list pages on its own, so 50,000 overdue accounts never make
// one page).
type ReviewSection struct {
	Rows  []ReviewRow
	Pager Pager
}

// ReviewPage is one account's review form.
type ReviewPage struct {
	Base
	Row                     ReviewRow
	Action, Outcome, Note   string
	OutcomeError, NoteError string
	Outcomes                []string
	// Owner is the account's owner form (nil: owners are not kept here).
	Owner *OwnerForm
}

// OwnerForm assigns an account's owner: who it is now, what was typed and
// what was wrong with it.
type OwnerForm struct {
	Action, Current, Value, Error string
}

// OutcomeRow is one of the requester's requests another decided, as their
// home page tells it.
type OutcomeRow struct {
	URL, Account, What, Who, When, WhenISO, Note string
	Declined                                     bool
}

// Outcomes are the requester's requests decided since they last marked
// them seen: newest first, More left out, UpTo the newest decision's time
// (Unix microseconds) for the form that marks them seen.
type Outcomes struct {
	Rows []OutcomeRow
	More int
	UpTo string
}

// NewOutcomes words the decided requests rs of total; nil when none.
func NewOutcomes(rs []store.LimitRequest, total int) *Outcomes {
	if len(rs) == 0 {
		return nil
	}
	o := &Outcomes{More: total - len(rs), UpTo: strconv.FormatInt(rs[0].DecidedAt.UnixMicro(), 10)}
	for _, r := range rs {
		row := OutcomeRow{URL: DecisionPath(r.ID), Account: r.Account, Who: r.DecidedBy, When: DateTime(r.DecidedAt),
			WhenISO: r.DecidedAt.UTC().Format(time.RFC3339), Note: r.Note}
		if r.Status == store.StatusDeclined {
			row.What, row.Declined = "Declined: "+Amount(r.Amount)+" asked", true
		} else {
			row.What = "Approved " + ApprovedText(r)
		}
		o.Rows = append(o.Rows, row)
	}
	return o
}

// List is the outcomes' rows; none for nil.
func (o *Outcomes) List() []OutcomeRow {
	if o == nil {
		return nil
	}
	return o.Rows
}
