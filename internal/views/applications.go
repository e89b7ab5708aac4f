package views

import (
	"strconv"
	"time"

	"creditdash/internal/store"
)

// TradeReferences is how many trade references the form names.
const TradeReferences = 3

// ApplyPage is the public application form (/apply/{token}).
type ApplyPage struct {
	Base
	// Action is where the form posts (the link itself); Keep is the
	// application's own link to come back with, shown after the first
	// save of the team's public link ("" otherwise).
	Action, Keep string
	// FormToken is the form's own CSRF token; Started when it was issued.
	FormToken string
	// Values are the form's fields as typed, by name; Consent its box,
	// Chosen the terms chosen.
	Values    map[string]string
	Consent   bool
	Chosen    string
	Problems  map[string]string
	Documents []ApplyDocument
	// MoreDocuments tells whether another file may be added.
	MoreDocuments bool
	Terms         []string
	// Error is a problem of the whole form; Saved says the draft was kept.
	Error string
	Saved bool
	// Company is whom the invitation was for ("" from the public link).
	Company string
	Expires string
	// ConsentText is what signing agrees to.
	ConsentText string
}

// Value is a field's typed value.
func (p ApplyPage) Value(name string) string { return p.Values[name] }

// Problem is the refusal of a field, "" for none.
func (p ApplyPage) Problem(name string) string { return p.Problems[name] }

// TradeRows are the trade reference rows' numbers: "1", "2", "3".
func (p ApplyPage) TradeRows() []string {
	out := make([]string, TradeReferences)
	for i := range out {
		out[i] = strconv.Itoa(i + 1)
	}
	return out
}

// ApplyDocument is a file kept with an application, as listed.
type ApplyDocument struct {
	N                int
	Name, Type, Size string
	Hash             string
	// URL opens it (the team's pages only; "" on the public form).
	URL string
}

// ApplyNotice is a public page that only says something: received, a
// link that does not work, thanks.
type ApplyNotice struct {
	Base
	Heading, Message string
}

// ReferencePage is a reference's one-time form (/reference/{token}).
type ReferencePage struct {
	Base
	Action, FormToken string
	Applicant, Kind   string
	Years, HighCredit string
	DaysBeyond        string
	Again             string
	Problems          map[string]string
}

// ReferenceAnswer is a reference's answers as kept and shown.
type ReferenceAnswer struct {
	Years      string `json:"years"`
	HighCredit string `json:"high_credit"`
	DaysBeyond string `json:"days_beyond"`
	Again      string `json:"again"`
}

// ApplicationsPage is the team's inbox (/applications).
type ApplicationsPage struct {
	Base
	New, Waiting, Decided []ApplicationRow
	// Invite is the invitation form as typed; Invited the link of the
	// invitation just made (to copy) and whether it was mailed.
	Invite        InviteForm
	InvitedLink   string
	InvitedMailed bool
	// TeamLink is the team's public link when on.
	TeamLink, TeamLinkState string
	MayChange               bool
	Mails                   bool
}

// InviteForm is the invitation form.
type InviteForm struct {
	Company, Email, Amount string
	Problems               map[string]string
	Error                  string
}

// ApplicationRow is an application as the inbox lists it.
type ApplicationRow struct {
	Number, Company, Email, Status, Created, Requested, URL string
}

// ApplicationPage is one application for the team (/applications/{id}).
type ApplicationPage struct {
	Base
	ID, Number, Company, Email, Status, StatusNote  string
	Source, Created, Expires, Submitted, SignedFrom string
	SignedHash                                      string
	Answers                                         []AnswerRow
	Documents                                       []ApplyDocument
	References                                      []ReferenceRow
	// Link is the application's link while it takes answers.
	Link string
	// Match: the business matched, the candidates found, the search asked.
	BusinessID, MatchedBy, BusinessURL string
	Candidates                         []SearchRow
	MatchQuery, MatchProblem           string
	// Report: pulled (by, when) or its cost and what is left.
	ReportPulled, ReportCost string
	// Decision.
	Decision              string
	RequestURL            string
	Account, Amount, Note string
	DecideError           string
	// Policy is the credit policy's limit for the application, named
	// and traced, and PolicyNote what the form proposes from it.
	Policy, PolicyNote            string
	MayChange, MayDecide, Decided bool
	Undecided                     bool
}

// AnswerRow is one answer of an application, as text.
type AnswerRow struct{ Label, Value string }

// ReferenceRow is a reference and its answer.
type ReferenceRow struct {
	Kind, Name, Contact, Email, Status string
	Answer                             *ReferenceAnswer
}

// ApplicationsCSVHeader is the header of applications.csv.
var ApplicationsCSVHeader = []string{"number", "status", "source", "company", "email", "requested", "created", "submitted",
	"business_id", "account", "decided_by", "decided", "decided_amount", "decision_note", "applicant_told"}

// ApplicationCSVRecord is an application as a row of applications.csv,
// with status as the inbox words it: plain numbers, times in RFC 3339
// (UTC), empty where unknown; every text cell marked against spreadsheet
// formulas, for the company and e-mail are what a stranger typed.
func ApplicationCSVRecord(app store.Application, status string) []string {
	when := func(t time.Time) string {
		if t.IsZero() {
			return ""
		}
		return t.UTC().Format(time.RFC3339)
	}
	amount := func(v *float64) string {
		if v == nil {
			return ""
		}
		return strconv.FormatFloat(*v, 'f', -1, 64)
	}
	business := ""
	if app.BusinessID != 0 {
		business = strconv.Itoa(int(app.BusinessID))
	}
	return []string{strconv.FormatInt(app.Number, 10), store.CSVCell(status), store.CSVCell(app.Source), store.CSVCell(app.Company),
		store.CSVCell(app.Email), amount(app.Requested), when(app.CreatedAt), when(app.SubmittedAt), business, store.CSVCell(app.Account),
		store.CSVCell(app.DecidedBy), when(app.DecidedAt), amount(app.DecidedAmount), store.CSVCell(app.DecisionNote), when(app.NotifiedAt)}
}
