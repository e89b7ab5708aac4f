package views

import (
	"strconv"
	"strings"

	"creditdash/internal/upstream"
)

// BusinessOverviewPage is the report's first tab: summary, score cards,
// score history charts and the risk history chart.
type BusinessOverviewPage struct {
	Base
	Header         BusinessHeader
	Summary        SummaryView
	SummaryProblem *Problem
	Window         TimeWindow
	Cards          []ScoreCard
	ScoreCharts    []ChartPanel
	ScoresProblem  *Problem
	RiskHistory    ChartPanel
	RiskProblem    *Problem
	// RiskCoverage is the risk history's coverage badge; a zero value
	// (no Score) shows none.
	RiskCoverage CoverageBadge
	// Account is the team's account of the business, nil when none.
	Account *AccountPanel
}

// SummaryView is the business description and when it was filed.
type SummaryView struct {
	Text  string
	Filed string
}

// NewSummaryView formats the summary; an empty text reads as such.
func NewSummaryView(s upstream.BusinessSummary) SummaryView {
	return SummaryView{Text: s.Text, Filed: Date(s.DateFiled.Time)}
}

// TimeWindow is the from/to form of the score charts.
type TimeWindow struct {
	// From and To are YYYY-MM, as month inputs send and show them.
	From, To string
	// Label is "Nov 2024 – Oct 2026", the frame the charts show.
	Label string
	// Error tells why the user's values were refused (defaults shown).
	Error string
	// Action is the form's target: the overview's own path.
	Action string
	// ResetURL shows the default frame again.
	ResetURL string
}

// FillFromHistory sets empty From/To and the label from the months the
// service returned, so the form shows the frame actually drawn.
func (w *TimeWindow) FillFromHistory(rows []upstream.CreditScoreHistoryRow) {
	h := newScoreHistory(rows)
	if len(h.months) == 0 {
		return
	}
	first, last := h.months[0], h.months[len(h.months)-1]
	if w.From == "" {
		w.From = first.param()
	}
	if w.To == "" {
		w.To = last.param()
	}
	w.Label = first.String() + " – " + last.String()
}

// BusinessPaymentsPage is the payments tab: monthly aging and the SIC split.
type BusinessPaymentsPage struct {
	Base
	Header         BusinessHeader
	Monthly        []AgingRow
	AgingChart     ChartPanel
	MonthlyProblem *Problem
	// SICMonth is the month of SICRows ("Oct 2026").
	SICMonth   string
	SICRows    []AgingRow
	SICChart   ChartPanel
	SICProblem *Problem
	// DBTExplain works out the newest month's DBT from its buckets.
	DBTExplain DBTExplanation
	// SICHeat is the supplier categories' DBT by month, worst first.
	SICHeat SICHeatMap
}

// BusinessFinancialsPage is the financials tab: statements and comments.
type BusinessFinancialsPage struct {
	Base
	Header            BusinessHeader
	Controls          StatementControls
	Statements        StatementGrid
	StatementsProblem *Problem
	Comments          string
	CommentsProblem   *Problem
	// PeerControls narrows the peers; Peers and PeersProblem are the section.
	PeerControls PeerControls
	Peers        PeerSection
	PeersProblem *Problem
	// ZExplain works out each year's Z″ from the statements, beside the
	// service's; ZExplainProblem is its own score-history section's.
	ZExplain        ZExplanation
	ZExplainProblem *Problem
}

// PeerControls is the form that chooses the period and the peers.
type PeerControls struct {
	// Year is a year or "" (the latest with statements); Quarter "1" to "4".
	Year, Quarter string
	// Primary matches peers by their main SIC code only; SameRisk keeps
	// peers of the business's own Risk score.
	Primary, SameRisk bool
	// Count, StatementYear and Sort carry the statements form along.
	Count, StatementYear, Sort string
	// Error tells why the user's values were refused (defaults shown).
	Error  string
	Action string
}

// Label says in words which peers the controls chose, for a dated copy
// that shows no form: "Q4 of the latest year with statements, any SIC
// code, every risk level".
func (p PeerControls) Label() string {
	year := "the latest year with statements"
	if p.Year != "" {
		year = p.Year
	}
	sic, risk := "any SIC code", "every risk level"
	if p.Primary {
		sic = "primary SIC code only"
	}
	if p.SameRisk {
		risk = "the same risk level"
	}
	return "Q" + p.Quarter + " of " + year + ", " + sic + ", " + risk
}

// StatementControls is the form that narrows the statements table.
type StatementControls struct {
	// Count is the number of years ("5"); Year one fiscal year or "";
	// Sort "D" (newest first) or "A".
	Count, Year, Sort string
	// Error tells why the user's values were refused (defaults shown).
	Error  string
	Action string
}

// Label says in words which statements the controls chose, for a dated
// copy that shows no form: "5 fiscal years, newest first".
func (s StatementControls) Label() string {
	order := "newest first"
	if s.Sort == "A" {
		order = "oldest first"
	}
	if s.Year != "" {
		return "fiscal year " + s.Year
	}
	n, err := strconv.Atoi(s.Count)
	if err != nil {
		return "every fiscal year on file, " + order
	}
	return Plural(n, "fiscal year") + ", " + order
}

// BusinessOfficersPage is the officers tab, with the industry codes.
type BusinessOfficersPage struct {
	Base
	Header          BusinessHeader
	Officers        []OfficerRow
	OfficersProblem *Problem
}

// WindowFault is why the score charts' from/to form was refused.
type WindowFault int

// The from/to form's faults.
const (
	WindowOK       WindowFault = iota
	WindowBadFrom              // From is not a month
	WindowBadTo                // To is not a month
	WindowReversed             // From after To
	WindowTooLong              // more than ten years
	WindowFuture               // starts or ends after this month
)

// Message says what to correct, and what is shown meanwhile.
func (f WindowFault) Message() string {
	const instead = " Showing the last 24 months instead."
	switch f {
	case WindowBadFrom, WindowBadTo:
		field := "From"
		if f == WindowBadTo {
			field = "To"
		}
		return field + " must be a month written YYYY-MM between 1900 and 2100, such as 2025-10." + instead
	case WindowReversed:
		return "From must not be after To." + instead
	case WindowTooLong:
		return "Choose at most 10 years (120 months)." + instead
	case WindowFuture:
		return "The frame cannot start or end after this month: scores are monthly, up to the latest." + instead
	}
	return ""
}

// StatementsFault is one refused control of the statements form.
type StatementsFault int

// The statements form's faults.
const (
	StatementsBadCount StatementsFault = iota + 1
	StatementsBadYear
	StatementsBadSort
)

// StatementsFaults are the refused controls of one request.
type StatementsFaults []StatementsFault

// Message says what was refused and what is shown instead.
func (fs StatementsFaults) Message() string {
	var parts []string
	for _, f := range fs {
		switch f {
		case StatementsBadCount:
			parts = append(parts, "Years must be a whole number from 1 to 10; showing 5.")
		case StatementsBadYear:
			parts = append(parts, "Fiscal year must be a year such as 2024; showing every year.")
		case StatementsBadSort:
			parts = append(parts, "Order must be A (oldest first) or D (newest first); showing newest first.")
		}
	}
	return strings.Join(parts, " ")
}

// PeerFault is one refused control of the peers form.
type PeerFault int

// The peers form's faults.
const (
	PeerBadYear PeerFault = iota + 1
	PeerBadQuarter
	PeerBadPrimary
	PeerBadRisk
	PeerFutureYear
)

// PeerFaults are the refused controls of one request.
type PeerFaults []PeerFault

// Message says what was refused and what is shown instead.
func (fs PeerFaults) Message() string {
	var parts []string
	for _, f := range fs {
		switch f {
		case PeerBadYear:
			parts = append(parts, "Peer year must be a year such as 2024; showing the latest year with statements.")
		case PeerBadQuarter:
			parts = append(parts, "Quarter must be 1, 2, 3 or 4; showing the fourth quarter.")
		case PeerBadPrimary:
			parts = append(parts, "“Primary SIC only” must be on or off; showing peers by any SIC code.")
		case PeerBadRisk:
			parts = append(parts, "“Same risk level” must be on or off; showing peers of every risk level.")
		case PeerFutureYear:
			parts = append(parts, "No statements are filed for a year still to come; showing the latest year with statements.")
		}
	}
	return strings.Join(parts, " ")
}
