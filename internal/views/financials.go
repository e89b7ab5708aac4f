package views

import (
	"cmp"
	"math"
	"slices"
	"strconv"
	"time"

	"creditdash/internal/upstream"
)

// Statement keys the service always sends, which label the columns.
const (
	keyFiscalYear    = "FiscalYear"
	keyPeriodEndDate = "PeriodEndDate"
)

// standardStatementKeys are the data points a Full Access account receives
// (shared/DEMO-DATA.md), in the order analysts read them. A key of this list
// that is absent from every year was withheld by the access model, or the
// service has none for the business: the dashboard does not know which.
var standardStatementKeys = [...]struct{ key, label string }{
	{keyPeriodEndDate, "Period end date"},
	{"Sales", "Sales"},
	{"CostOfSales", "Cost of sales"},
	{"GrossProfit", "Gross profit"},
	{"EBIT", "EBIT"},
	{"NetIncome", "Net income"},
	{"TotalAssets", "Total assets"},
	{"CurrentAssets", "Current assets"},
	{"CashAndEquivalents", "Cash and equivalents"},
	{"CurrentLiabilities", "Current liabilities"},
	{"TotalLiabilities", "Total liabilities"},
	{"WorkingCapital", "Working capital"},
	{"RetainedEarnings", "Retained earnings"},
	{"ShareholdersEquity", "Shareholders' equity"},
}

// Texts of withheld data points.
const (
	WithheldText       = "not reported"
	WithheldAccessText = "not reported for any year (an API-Only account gets only a few values)"
)

// StatementGrid is the annual statements table: data points down, fiscal
// years across, in the order the service sent the years.
type StatementGrid struct {
	Years []string
	Rows  []StatementRow
	// Limited is true when standard data points are absent from every year
	// (an API-Only account's, or a business without them).
	Limited bool
	// Units are the amounts' units (NewStatementGridIn).
	Units Units
}

// StatementRow is one data point across the years.
type StatementRow struct {
	Label string
	// key is the data point's name.
	key string
	// Changes are, beside Cells, each amount's change from the fiscal
	// year before ("+5.2 %"); empty without them.
	Changes []string
	// Withheld, when not "", replaces every cell: the point is withheld in
	// every year.
	Withheld string
	Cells    []StatementCell
}

// StatementCell is one value; Class is "num", "withheld" or "missing".
type StatementCell struct {
	Text  string
	Class string
}

// InOrder puts statements newest first, or oldest first, by the end of
// their period (statements without one keep their place after the dated
// ones). The service's order is not relied on: copies saved before the
// dashboard always asked newest first hold the oldest years first.
func InOrder(stmts []upstream.AnnualFinancials, oldestFirst bool) []upstream.AnnualFinancials {
	out := slices.Clone(stmts)
	slices.SortStableFunc(out, func(a, b upstream.AnnualFinancials) int {
		ea, okA := periodEnd(a)
		eb, okB := periodEnd(b)
		switch {
		case !okA || !okB:
			return cmp.Compare(boolRank(!okA), boolRank(!okB))
		case oldestFirst:
			return cmp.Compare(ea, eb)
		default:
			return cmp.Compare(eb, ea)
		}
	})
	return out
}

// NewStatementGrid lays out the statements. A data point absent in a year
// while other years have it is "not reported"; a standard point absent from
// every year says so once for the row. Neither is ever shown as 0.
func NewStatementGrid(stmts []upstream.AnnualFinancials) StatementGrid {
	var g StatementGrid
	if len(stmts) == 0 {
		return g
	}
	for i, s := range stmts {
		g.Years = append(g.Years, fiscalYearLabel(s, i))
	}
	standard := map[string]bool{keyFiscalYear: true}
	for _, sk := range standardStatementKeys {
		standard[sk.key] = true
		g.Rows = append(g.Rows, statementRow(stmts, sk.key, sk.label, &g.Limited))
	}
	var extra []string
	for _, s := range stmts {
		for k := range s.Values {
			if !standard[k] && !slices.Contains(extra, k) {
				extra = append(extra, k)
			}
		}
	}
	slices.Sort(extra)
	for _, k := range extra {
		g.Rows = append(g.Rows, statementRow(stmts, k, k, &g.Limited))
	}
	return g
}

func statementRow(stmts []upstream.AnnualFinancials, key, fallback string, limited *bool) StatementRow {
	row := StatementRow{Label: fallback, key: key}
	present := 0
	for _, s := range stmts {
		if dp, ok := s.Values[key]; ok {
			present++
			if dp.Label != "" && row.Label == fallback {
				row.Label = dp.Label
			}
		}
	}
	if present == 0 {
		*limited = true
		row.Withheld = WithheldAccessText
		return row
	}
	for _, s := range stmts {
		dp, ok := s.Values[key]
		if !ok {
			row.Cells = append(row.Cells, StatementCell{Text: WithheldText, Class: "withheld"})
			continue
		}
		row.Cells = append(row.Cells, statementCell(key, dp))
	}
	return row
}

func statementCell(key string, dp upstream.DataPoint) StatementCell {
	switch {
	case dp.Value.OK && !math.IsNaN(dp.Value.V) && !math.IsInf(dp.Value.V, 0):
		return StatementCell{Text: statementValue(key, dp.Value.V), Class: "num"}
	case dp.Text != "" && key == keyPeriodEndDate:
		if t, err := time.Parse("2006-01-02T15:04:05", dp.Text); err == nil {
			return StatementCell{Text: Date(t)}
		}
		return StatementCell{Text: dp.Text}
	case dp.Text != "":
		return StatementCell{Text: dp.Text}
	default:
		return StatementCell{Text: "not reported", Class: "missing"}
	}
}

// statementValue shows amounts of the standard list as money and anything
// else (ratios a service may add) as a plain number.
func statementValue(key string, v float64) string {
	for _, sk := range standardStatementKeys {
		if sk.key == key {
			return Money(int64(math.Round(v)))
		}
	}
	if v == math.Trunc(v) {
		return Decimal(v, 0)
	}
	return Decimal(v, 2)
}

// fiscalYearLabel is "FY 2025", from the FiscalYear point (value or text).
func fiscalYearLabel(s upstream.AnnualFinancials, i int) string {
	dp, ok := s.Values[keyFiscalYear]
	switch {
	case ok && dp.Value.OK && dp.Value.V == math.Trunc(dp.Value.V) && math.Abs(dp.Value.V) < 1e5:
		return "FY " + strconv.Itoa(int(dp.Value.V))
	case ok && dp.Text != "":
		return "FY " + dp.Text
	default:
		return "Year " + strconv.Itoa(i+1)
	}
}
