package views

import (
	"math"
	"net/url"

	"creditdash/internal/upstream"
)

// Units is how the statements show amounts, as ?units= spells it: whole
// dollars (the default), thousands or millions.
type Units string

// The units of the statements table.
const (
	UnitsDollars   Units = ""
	UnitsThousands Units = "k"
	UnitsMillions  Units = "m"
)

// ReadUnits reads ?units=; anything else is whole dollars.
func ReadUnits(raw string) Units {
	switch Units(raw) {
	case UnitsThousands, UnitsMillions:
		return Units(raw)
	}
	return UnitsDollars
}

// Caption says what the amounts are in.
func (u Units) Caption() string {
	switch u {
	case UnitsThousands:
		return "amounts in thousands of dollars"
	case UnitsMillions:
		return "amounts in millions of dollars"
	}
	return "amounts in dollars"
}

// amount shows a standard statement amount in the units.
func (u Units) amount(v float64) string {
	switch u {
	case UnitsThousands:
		return sign(v) + "$" + Int(int64(math.Round(math.Abs(v)/1e3))) + "k"
	case UnitsMillions:
		return sign(v) + "$" + Decimal(math.Abs(v)/1e6, 1) + "M"
	}
	return Money(int64(math.Round(v)))
}

func sign(v float64) string {
	if v < 0 {
		return "-"
	}
	return ""
}

// UnitLink is one choice of units, linking to the page with it.
type UnitLink struct {
	Label, URL string
	Current    bool
}

// UnitLinks are the units toggle of the statements at page (path and
// query), keeping the page's other controls.
func UnitLinks(page *url.URL, current Units) []UnitLink {
	out := make([]UnitLink, 0, 3)
	for _, c := range []struct {
		u     Units
		label string
	}{{UnitsDollars, "Dollars"}, {UnitsThousands, "Thousands"}, {UnitsMillions, "Millions"}} {
		q := page.Query()
		q.Del("units")
		if c.u != UnitsDollars {
			q.Set("units", string(c.u))
		}
		u := page.Path
		if e := q.Encode(); e != "" {
			u += "?" + e
		}
		out = append(out, UnitLink{Label: c.label, URL: u + "#statements", Current: c.u == current})
	}
	return out
}

// previousYears is, for each statement, the index of the one whose period
// ended last before its own, or -1. Worked out once per grid: each amount's
// change had parsed every statement's period end again, 450 date parses
// for a page of five years.
func previousYears(stmts []upstream.AnnualFinancials) []int {
	ends := make([]monthIndex, len(stmts))
	dated := make([]bool, len(stmts))
	for i, s := range stmts {
		ends[i], dated[i] = periodEnd(s)
	}
	prev := make([]int, len(stmts))
	for i := range stmts {
		prev[i] = -1
		if !dated[i] {
			continue
		}
		for j := range stmts {
			if dated[j] && ends[j] < ends[i] && (prev[i] < 0 || ends[j] > ends[prev[i]]) {
				prev[i] = j
			}
		}
	}
	return prev
}

// yearOnYear is the change of a standard amount from the fiscal year
// before (the statement prev, -1 for none), "" when that year lacks it or
// it was zero.
func yearOnYear(stmts []upstream.AnnualFinancials, prev int, key string, v float64) string {
	if prev < 0 {
		return ""
	}
	dp, ok := stmts[prev].Values[key]
	if !ok || !dp.Value.OK || dp.Value.V == 0 || math.IsNaN(dp.Value.V) || math.IsInf(dp.Value.V, 0) {
		return ""
	}
	return Signed((v-dp.Value.V)/math.Abs(dp.Value.V)*100, 1) + " %"
}

// NewStatementGridIn is NewStatementGrid with amounts in units and each
// standard amount's change from the fiscal year before.
func NewStatementGridIn(stmts []upstream.AnnualFinancials, units Units) StatementGrid {
	g := NewStatementGrid(stmts)
	g.Units = units
	prev := previousYears(stmts)
	for r := range g.Rows {
		key := g.Rows[r].key
		if !isStandardAmount(key) {
			continue
		}
		g.Rows[r].Changes = make([]string, len(g.Rows[r].Cells))
		for i := range g.Rows[r].Cells {
			dp, ok := stmts[i].Values[key]
			if !ok || !dp.Value.OK || math.IsNaN(dp.Value.V) || math.IsInf(dp.Value.V, 0) {
				continue
			}
			g.Rows[r].Cells[i].Text = units.amount(dp.Value.V)
			g.Rows[r].Changes[i] = yearOnYear(stmts, prev[i], key, dp.Value.V)
		}
	}
	return g
}

func isStandardAmount(key string) bool {
	for _, sk := range standardStatementKeys {
		if sk.key == key {
			return key != keyPeriodEndDate && key != keyFiscalYear
		}
	}
	return false
}

// ChangeAt is the i-th cell's change on the year, or "".
func (r StatementRow) ChangeAt(i int) string {
	if i < len(r.Changes) {
		return r.Changes[i]
	}
	return ""
}
