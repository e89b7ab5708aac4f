package views

import (
	"testing"

	"creditdash/internal/store"
	"creditdash/internal/upstream"
)

// payRow is one month's payment summary row with its DBT.
func payRow(code, month string, dbt int) upstream.PaymentSummaryRow {
	return upstream.PaymentSummaryRow{CategoryCode: code, CategoryName: "Cat " + code, MonthReported: month, DBTIndex: &dbt}
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
	if !ok || ch.From != monthIndexOf(2026, 7) || ch.To != monthIndexOf(2026, 10) || ch.Rise != 14 || ch.OverallMove != 2 {
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

// Rules fire by scope and category: the own category stands in for a rule
// without one, and waits when not set.
func TestEvaluateDivergence(t *testing.T) {
	monthly, sic := divergenceRows()
	rules := []store.Rule{
		{ID: 1, RuleSpec: store.RuleSpec{Scope: store.ScopeBusiness, BusinessID: 7, Condition: store.Divergence, Threshold: 10, Steady: 3, Category: "36"}},
		{ID: 2, RuleSpec: store.RuleSpec{Scope: store.ScopeBusiness, BusinessID: 7, Condition: store.Divergence, Threshold: 10, Steady: 3, Category: "50"}},
		{ID: 3, RuleSpec: store.RuleSpec{Scope: store.ScopeBusiness, BusinessID: 8, Condition: store.Divergence, Threshold: 10, Steady: 3, Category: "36"}},
		{ID: 4, RuleSpec: store.RuleSpec{Scope: store.ScopeBusiness, BusinessID: 7, Condition: store.Divergence, Threshold: 10, Steady: 3}},
		{ID: 5, RuleSpec: store.RuleSpec{Scope: store.ScopeBusiness, BusinessID: 7, Score: store.ScoreDBT, Condition: store.Above, Threshold: 1}},
	}
	applies := func(r store.RuleSpec, id int32) bool { return r.BusinessID == id }
	fired := EvaluateDivergence(rules, 7, "Seven", "", monthly, sic, applies)
	if len(fired) != 1 || fired[0].RuleID != 1 || fired[0].New != 17 || *fired[0].Old != 3 || fired[0].Year != 2026 || fired[0].Month != 10 {
		t.Fatalf("fired = %+v; want rule 1 in Oct 2026, 3 -> 17", fired)
	}
	fired = EvaluateDivergence(rules, 7, "Seven", "3674", monthly, sic, applies)
	if len(fired) != 2 || fired[1].RuleID != 4 {
		t.Errorf("with own category 3674: fired %+v; want rules 1 and 4", fired)
	}
}
