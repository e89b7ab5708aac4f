package credit

import (
	"testing"

	"creditdash/internal/store"
	"creditdash/internal/upstream"
)

// payRow is one month's payment summary row with its DBT.
func payRow(code, month string, dbt int) upstream.PaymentSummaryRow {
	return upstream.PaymentSummaryRow{CategoryCode: code, CategoryName: "Cat " + code, MonthReported: month, DBTIndex: upstream.Some(dbt)}
}

// divergenceRows: overall 9, 9, 10, 10, 11 (Jun..Oct); SIC 36 2, 3, 8,
// 13, 17 (a rise of 14 from Jul to Oct); SIC 50 steady at 6.
func divergenceRows() (monthly, sic []upstream.PaymentSummaryRow) {
	months := []string{"2026-06", "2026-07", "2026-08", "2026-09", "2026-10"}
	all, s36, s50 := []int{9, 9, 10, 10, 11}, []int{2, 3, 8, 13, 17}, []int{6, 6, 6, 6, 6}
	for i, m := range months {
		monthly = append(monthly, payRow("", m, all[i]))
		sic = append(sic, payRow("36", m, s36[i]), payRow("50", m, s50[i]))
	}
	return monthly, sic
}

func TestDivergenceChange(t *testing.T) {
	monthly, sic := divergenceRows()
	ch, ok := NewDivergence(monthly, sic, "36").Change()
	if !ok || ch.From != MonthOf(2026, 7) || ch.To != MonthOf(2026, 10) || ch.Rise != 14 || ch.OverallMove != 2 {
		t.Fatalf("Change = %+v, %v; want Jul -> Oct, rise 14, overall +2", ch, ok)
	}
	for _, tc := range []struct {
		rise, steady float64
		want         bool
	}{{10, 3, true}, {14, 3, true}, {15, 3, false}, {10, 2, false}} {
		r := store.RuleSpec{Condition: store.Divergence, Threshold: tc.rise, Steady: tc.steady}
		if got := Diverges(r, ch); got != tc.want {
			t.Errorf("Diverges(rise %v, steady %v) = %v, want %v", tc.rise, tc.steady, got, tc.want)
		}
	}
	if _, ok := NewDivergence(monthly[:3], sic, "36").Change(); ok {
		t.Error("three months with both lines make a change")
	}
	if d := NewDivergence(monthly, sic, "36"); d.Name != "Cat 36" || len(d.Category) != 5 {
		t.Errorf("name %q and %d months, want \"Cat 36\" and 5", d.Name, len(d.Category))
	}
	if d := NewDivergence(monthly, sic, "99"); d.Name != "" || len(d.Category) != 0 {
		t.Errorf("a category without rows: name %q, %d months", d.Name, len(d.Category))
	}
	if got := SteepestCategory(monthly, sic); got != "36" {
		t.Errorf("SteepestCategory = %q, want 36", got)
	}
}

func TestMatchCategory(t *testing.T) {
	_, sic := divergenceRows()
	for code, want := range map[string]string{"36": "36", "3674": "36", "5065": "50", "73": "", "": ""} {
		if got := MatchCategory(sic, code); got != want {
			t.Errorf("MatchCategory(%q) = %q, want %q", code, got, want)
		}
	}
}
