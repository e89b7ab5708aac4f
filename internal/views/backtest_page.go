package views

import (
	"net/url"
	"strconv"

	"creditdash/internal/store"
)

// BacktestFiringsShown bounds the firings listed on the page; a loose rule
// over a large portfolio can fire thousands of times.
const BacktestFiringsShown = 200

// BacktestPage is /alerts/backtest: the rule form with a window, and the
// replay once the form is complete.
type BacktestPage struct {
	Base
	Form BacktestForm
	// Problem is why the histories could not be read (nil otherwise).
	Problem *Problem
	// Result is set once a valid rule was replayed.
	Result *BacktestView
}

// BacktestForm is the rule form's fields and the window, as typed.
type BacktestForm struct {
	RuleForm
	Months string
}

// AccountsScope says the form asked for a rule on the team's accounts,
// which the page explains it does not back-test and points elsewhere.
func (f BacktestForm) AccountsScope() bool { return f.Scope == string(store.ScopeAccounts) }

// CSVURL is the CSV of alerts per month for the same query.
func (f BacktestForm) CSVURL() string { return "/alerts/backtest.csv?" + f.query().Encode() }

func (f BacktestForm) query() url.Values {
	q := url.Values{"scope": {f.Scope}, "score": {f.Score}, "condition": {f.Condition}, "threshold": {f.Threshold}, "months": {f.Months}}
	if f.Scope == string(store.ScopeFolder) {
		q.Set("folder", f.Folder)
	}
	return q
}

// BacktestView is a replay as the page shows it.
type BacktestView struct {
	Rule string
	// Window is "Apr 2024 – Mar 2026 (24 months)".
	Window     string
	PerMonth   string
	MedianLead string
	// NoDeterioration is the share of the firings with an outcome
	// (deterioration or none) that no worse score followed, "—" when none
	// has one yet.
	NoDeterioration string
	// Deteriorated counts the firings a worse score followed.
	Deteriorated int
	Total        int
	Businesses   int
	Fired        int
	// StillTrue counts the firings no worse score followed whose condition
	// still held at the window's end; Recent those without a later month.
	StillTrue int
	Recent    int
	// Today is how many alerts turning the rule on raises now: the
	// businesses in scope whose latest scores the live check fires on.
	Today   int
	Chart   ChartPanel
	Firings []FiringRow
	// MoreFirings counts the firings not listed.
	MoreFirings int
	// Capped says the history held more businesses than were read.
	Capped bool
}

// FiringRow is one firing in the table.
type FiringRow struct {
	Business, URL, Month, Value, Prev, Worst, Lead, Outcome string
	Deteriorated                                            bool
}

// NewBacktestView formats a replay of rule.
func NewBacktestView(rule store.RuleSpec, r Replay) (BacktestView, error) {
	v := BacktestView{Rule: RuleText(rule), Total: len(r.Firings), Businesses: r.Businesses, Fired: r.Fired,
		PerMonth: Decimal(r.PerMonth(), 1), MedianLead: Dash, NoDeterioration: Dash}
	if n := len(r.Months); n > 0 {
		v.Window = r.Months[0].String() + " – " + r.Months[n-1].String() + " (" + Plural(n, "month") + ")"
	}
	if m, ok := r.MedianLead(); ok {
		v.MedianLead = leadText(m)
	}
	det, none, still, recent := r.Outcomes()
	v.Deteriorated, v.StillTrue, v.Recent = det, still, recent
	if det+none > 0 {
		v.NoDeterioration = Percent(float64(none)/float64(det+none)*100) + " (" + Int(int64(none)) + " of " + Int(int64(det+none)) + ")"
	}
	for i, f := range r.Firings {
		if i == BacktestFiringsShown {
			v.MoreFirings = len(r.Firings) - i
			break
		}
		v.Firings = append(v.Firings, firingRow(rule.Score, f))
	}
	c, err := backtestChart(r)
	v.Chart = c
	return v, err
}

func firingRow(score store.Score, f Firing) FiringRow {
	row := FiringRow{Business: businessLabel(f.BusinessName, f.BusinessID), URL: reportURL(f.BusinessID), Month: f.Month.String(),
		Value: formatScore(score, f.Value), Prev: "none", Worst: Dash, Lead: Dash}
	if f.Prev != nil {
		row.Prev = formatScore(score, *f.Prev)
	}
	switch f.Outcome {
	case Deterioration:
		row.Outcome, row.Deteriorated = "followed by deterioration", true
	case NoDeterioration:
		row.Outcome = "no deterioration"
	case StillTrue:
		row.Outcome = "still true at the window's end"
	default:
		row.Outcome = "too recent to tell"
		return row
	}
	row.Worst = formatScore(score, f.Worst) + " in " + (f.Month + monthIndex(f.Lead)).String()
	row.Lead = leadText(float64(f.Lead))
	return row
}

// leadText is "3 months", "2.5 months", "0 months".
func leadText(m float64) string {
	if m == float64(int(m)) {
		return Plural(int(m), "month")
	}
	return strconv.FormatFloat(m, 'f', 1, 64) + " months"
}

// backtestChart draws the alerts of each month as bars, with the table.
func backtestChart(r Replay) (ChartPanel, error) {
	p := ChartPanel{Title: "Alerts per month", Note: "How many businesses the rule would have alerted on each month, had it been on"}
	if len(r.Months) == 0 {
		p.Empty = "The portfolio's history holds no month with this score."
		return p, nil
	}
	p.Table = DataTable{Caption: "Alerts per month", Head: []string{"Month", "Alerts"}}
	data := make([]ecItem, len(r.Months))
	labels := make([]string, len(r.Months))
	for i, m := range r.Months {
		labels[i] = m.param()
		data[i] = ecItem{Name: labels[i], Value: r.Alerts[i]}
		p.Table.Rows = append(p.Table.Rows, DataRow{Cells: []DataCell{{Text: m.String()}, numCell(Int(int64(r.Alerts[i])))}})
	}
	bar := &ecOption{
		Title:   &ecTitle{Text: "Alerts per month", Left: "left", TextStyle: &ecTextStyle{FontSize: 14}},
		Tooltip: &ecTooltip{Show: true, Trigger: "axis"},
		Grid:    []ecGrid{{Top: "48", Bottom: "32", Left: "40", Right: "16", ContainLabel: true}},
		XAxis:   []ecAxis{{Type: "category", Data: labels}},
		YAxis:   []ecAxis{{Name: "alerts", Type: "value", Min: 0, MinInterval: 1}},
		Series:  []ecSeries{{Name: "Alerts", Type: "bar", Data: data, ItemStyle: &ecItemStyle{Color: "#1f5fbf"}}},
	}
	c, err := newChart("chart-backtest", "Alerts the rule would have raised each month; the table lists every value", bar)
	p.Chart = c
	return p, err
}

// BacktestCSV is the CSV's rows after its header "month,alerts": each
// month of the window, oldest first, as YYYY-MM.
func BacktestCSV(r Replay) [][2]string {
	out := make([][2]string, len(r.Months))
	for i, m := range r.Months {
		out[i] = [2]string{m.param(), strconv.Itoa(r.Alerts[i])}
	}
	return out
}
