package views

import (
	"testing"

	"creditdash/internal/upstream"
)

// Each year's change is against the year whose period ended last before
// its own, whatever order the statements come in; a year without a date, or
// with none before it, or whose year before lacks the amount or had zero,
// has no change.
func TestYearOnYearFromTheYearBefore(t *testing.T) {
	stmt := func(end string, sales float64, ok bool) upstream.AnnualFinancials {
		v := map[string]upstream.DataPoint{"Sales": {Value: upstream.Num[float64]{V: sales, OK: ok}}}
		if end != "" {
			v[keyPeriodEndDate] = upstream.DataPoint{Text: end}
		}
		return upstream.AnnualFinancials{Values: v}
	}
	stmts := []upstream.AnnualFinancials{
		stmt("2024-12-31", 150, true),        // 0: against 2023's 120
		stmt("2022-12-31T00:00:00", 0, true), // 1: the oldest: none before
		stmt("2025-12-31", 300, true),        // 2: against 2024's 150
		stmt("", 999, true),                  // 3: no date
		stmt("2023-12-31", 120, true),        // 4: against 2022's zero
		stmt("2026-06-30", 330, true),        // 5: against 2025's 300
		stmt("2023-12-31", 60, true),         // 6: ties with 4: the first of them is the year before
		stmt("2027-12-31", 10, true),         // 7: against 2026, which has no Sales
		stmt("2026-12-31", 0, false),         // 8: no Sales of its own
	}
	g := NewStatementGridIn(stmts, UnitsDollars)
	var row StatementRow
	for _, r := range g.Rows {
		if r.key == "Sales" {
			row = r
		}
	}
	want := []string{"+25.0 %", "", "+100.0 %", "", "", "+10.0 %", "", "", ""}
	for i, w := range want {
		if got := row.ChangeAt(i); got != w {
			t.Errorf("statement %d: change %q, want %q", i, got, w)
		}
	}
}
