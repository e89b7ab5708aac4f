package views

import (
	"math"
	"strconv"

	"creditdash/internal/credit"
	"creditdash/internal/store"
)

// ExposurePage is the team's exposure and expected loss: breakdowns, the
// concentration, the expected-loss bridge between two ledger dates and
// limit drift.
type ExposurePage struct {
	Base
	AsOf    string
	Summary ExposureSummary
	// Breakdowns are by Risk band, Z″ zone, industry and folder.
	Breakdowns []BreakdownView
	BandChart  ChartPanel
	// FoldersNote says how folders were assigned, or why they are unknown.
	FoldersNote string
	Dates       []string
	From, To    string
	Bridge      *BridgeView
	// BridgeNote says why there is no bridge.
	BridgeNote string
	Drift      []DriftRow
	Headroom   []DriftRow
	PDNote     string
	// Coverage is the share of exposure with scores fetched in the last
	// seven days (the refresh plan's).
	Coverage CoverageView
}

// ExposureSummary is the page's headline figures.
type ExposureSummary struct {
	Accounts, Exposure, EL, Unscored, UnscoredAccounts, Top10Share, Herfindahl string
	// Credit explains why exposure and the balances' sum differ, "" when
	// they do not: accounts in credit count as nothing owed.
	Credit string
}

// BreakdownView is one breakdown as a table.
type BreakdownView struct {
	Dimension, Title string
	Rows             []GroupRow
}

// GroupRow is one group of a breakdown.
type GroupRow struct {
	Name, Accounts, Exposure, EL, Share string
}

// dimensionTitles name the breakdowns.
var dimensionTitles = map[string]string{"risk_band": "By Risk band", "z_zone": "By Z″ zone", "industry": "By industry (NAICS of the linked business)", "folder": "By folder of your portfolio"}

// NewExposureSummary formats the figures.
func NewExposureSummary(s credit.Summary) (ExposureSummary, []BreakdownView) {
	sum := ExposureSummary{Accounts: Int(int64(s.Accounts)), Exposure: Amount(s.Exposure), EL: ELText(s.ExpectedLoss, s.ELKnown()),
		Unscored: Amount(s.Unscored), UnscoredAccounts: Int(int64(s.UnscoredAccounts)), Top10Share: Fraction(s.Top10Share),
		Herfindahl: strconv.FormatFloat(s.Herfindahl, 'f', 4, 64), Credit: CreditNote(s.Balance, s.Exposure)}
	var out []BreakdownView
	for _, b := range s.Breakdowns {
		v := BreakdownView{Dimension: b.Dimension, Title: dimensionTitles[b.Dimension]}
		for _, g := range b.Groups {
			el := ELText(g.ExpectedLoss, g.Scored > 0)
			v.Rows = append(v.Rows, GroupRow{Name: g.Name, Accounts: Int(int64(g.Accounts)), Exposure: Amount(g.Exposure), EL: el, Share: Fraction(g.Share)})
		}
		out = append(out, v)
	}
	return sum, out
}

// UnknownEL is the expected loss of accounts none of which has a known
// Risk score: unknown, never "$0".
const UnknownEL = "unknown"

// ELText is an expected loss as pages show it: the amount when known
// (some account has a score), else UnknownEL.
func ELText(el float64, known bool) string {
	if !known {
		return UnknownEL
	}
	return Amount(el)
}

// CreditNote explains why exposure exceeds the sum of the balances, or
// "" when they are the same: an account in credit (the team owes the
// customer) counts as nothing owed, never as a negative exposure.
func CreditNote(balance, exposure float64) string {
	if credit.Cents(exposure) == credit.Cents(balance) {
		return ""
	}
	return "The balances add up to " + Amount(balance) + ", " + Amount(exposure-balance) +
		" less than the exposure: accounts in credit (money the team owes the customer) count as nothing owed, not as a negative exposure."
}

// ExposureCSVHeader is the header of exposure.csv, exactly as documented.
var ExposureCSVHeader = []string{"dimension", "group", "accounts", "exposure", "expected_loss", "share"}

// ExposureCSV is the breakdowns as rows of exposure.csv.
func ExposureCSV(s credit.Summary) [][]string {
	var out [][]string
	for _, b := range s.Breakdowns {
		for _, g := range b.Groups {
			el := strconv.FormatFloat(float64(credit.Cents(g.ExpectedLoss))/100, 'f', 2, 64)
			if g.Scored == 0 {
				el = "" // unknown, not zero
			}
			out = append(out, []string{b.Dimension, store.CSVCell(g.Name), strconv.Itoa(g.Accounts),
				PlainDecimal(g.Exposure, 2), el, strconv.FormatFloat(g.Share, 'f', 6, 64)})
		}
	}
	return out
}

// ExposureBandChart draws exposure and expected loss by Risk band.
func ExposureBandChart(s credit.Summary) (ChartPanel, error) {
	p := ChartPanel{Title: "Exposure and expected loss by Risk band", Note: "balances owed by band (worst first), and their expected loss at the band's midpoint PD; accounts without a score have no expected loss"}
	if len(s.Breakdowns) == 0 || len(s.Breakdowns[0].Groups) == 0 {
		p.Empty = "No accounts."
		return p, nil
	}
	var names []string
	var exp, el []ecItem
	p.Table = DataTable{Caption: "Exposure and expected loss by Risk band", Head: []string{"Band", "Exposure", "Expected loss"}}
	for _, g := range s.Breakdowns[0].Groups {
		names = append(names, g.Name)
		exp = append(exp, ecItem{Name: g.Name, Value: math.Round(g.Exposure)})
		el = append(el, ecItem{Name: g.Name, Value: math.Round(g.ExpectedLoss)})
		p.Table.Rows = append(p.Table.Rows, DataRow{Cells: []DataCell{{Text: g.Name}, {Text: Amount(g.Exposure), Class: "num"}, {Text: ELText(g.ExpectedLoss, g.Scored > 0), Class: "num"}}})
	}
	bar := &ecOption{
		Title:   &ecTitle{Text: "By Risk band", TextStyle: &ecTextStyle{FontSize: 14}},
		Legend:  &ecLegend{Show: true, Top: "24"},
		Tooltip: &ecTooltip{Show: true, Trigger: "axis"},
		Grid:    []ecGrid{legendGrid},
		XAxis:   []ecAxis{{Type: "category", Data: names}},
		YAxis:   []ecAxis{{Name: "$", Type: "value", Min: 0}},
		Aria:    &ecAria{Enabled: true, Label: &ecAriaLabel{Enabled: false}, Decal: &ecShow{Show: true}},
		Series: []ecSeries{
			{Name: "Exposure", Type: "bar", Data: exp},
			{Name: "Expected loss", Type: "bar", Data: el},
		},
	}
	c, err := newChart("chart-exposure-band", "Exposure and expected loss by Risk band; the table below lists every value", bar)
	p.Chart = c
	return p, err
}

// BridgeView is the expected-loss bridge as the page shows it.
type BridgeView struct {
	From, To                                        string
	Old, New, Change                                string
	Migration, Exposure, NewClosed, Coverage, Check string
	Movers                                          []MoverRow
}

// MoverRow is one of the accounts that moved expected loss most.
type MoverRow struct{ Account, Name, Change, Cause string }

// NewBridgeView formats a bridge; Check restates the sum of the parts.
func NewBridgeView(from, to string, b credit.Bridge, names map[string]string) *BridgeView {
	cents := func(v int64) string { return Signed(float64(v)/100, 2) }
	v := &BridgeView{From: from, To: to, Old: Decimal(float64(b.Old)/100, 2), New: Decimal(float64(b.New)/100, 2), Change: cents(b.Change()),
		Migration: cents(b.Migration), Exposure: cents(b.Exposure), NewClosed: cents(b.NewClosed), Coverage: cents(b.Coverage),
		Check: cents(b.Migration + b.Exposure + b.NewClosed + b.Coverage)}
	for _, m := range b.Movers {
		v.Movers = append(v.Movers, MoverRow{Account: m.Account, Name: names[m.Account], Change: cents(m.Change), Cause: m.Cause})
	}
	return v
}

// DriftRow is one account whose limit and implied limit part.
type DriftRow struct {
	Account, Name, URL, Limit, Implied, Gap, Since string
}

// DriftRows formats the accounts of credit.NewDrift; since names, per
// business, the month its Risk last fell ("" unknown; nil: not asked).
func DriftRows(ds []credit.Drift, since func(business int32) string) []DriftRow {
	out := make([]DriftRow, 0, len(ds))
	for _, d := range ds {
		r := DriftRow{Account: d.Account, Name: d.Name, Limit: Amount(d.Limit), Implied: Amount(d.Implied), Gap: Amount(d.Gap)}
		if d.BusinessID != 0 {
			r.URL = reportURL(d.BusinessID)
			if since != nil {
				r.Since = since(d.BusinessID)
			}
		}
		out = append(out, r)
	}
	return out
}

// RiskFellIn is the month (YYYY-MM) of the latest fall of Risk in the
// months, oldest first; "" when it never fell.
func RiskFellIn(months []store.ScoreMonth) string {
	for i := len(months) - 1; i > 0; i-- {
		if months[i].Value < months[i-1].Value {
			return KnownMonth(months[i].Month)
		}
	}
	return ""
}
