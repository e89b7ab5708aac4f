package alerts

import (
	"context"
	"errors"
	"testing"

	"creditdash/internal/credit"
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
	fired := EvaluateDivergence(rules, 7, "Seven", "", monthly, sic, nil)
	if len(fired) != 1 || fired[0].RuleID != 1 || fired[0].New != 17 || *fired[0].Old != 3 || fired[0].Year != 2026 || fired[0].Month != 10 {
		t.Fatalf("fired = %+v; want rule 1 in Oct 2026, 3 -> 17", fired)
	}
	fired = EvaluateDivergence(rules, 7, "Seven", "3674", monthly, sic, nil)
	if len(fired) != 2 || fired[1].RuleID != 4 {
		t.Errorf("with own category 3674: fired %+v; want rules 1 and 4", fired)
	}
}

func TestEvaluateKeepsOldAndNew(t *testing.T) {
	prev := 3.0
	rules := []store.Rule{{ID: 7, RuleSpec: store.RuleSpec{Scope: store.ScopeBusiness, BusinessID: 1001, Score: store.ScoreRisk, Condition: store.Below, Threshold: 3}}}
	series := []credit.ScoreSeries{
		{BusinessID: 1001, BusinessName: "Westbridge", Score: store.ScoreRisk, Latest: credit.Latest{Year: 2026, Month: 10, Value: 2, Prev: &prev}},
		{BusinessID: 1002, Score: store.ScoreRisk, Latest: credit.Latest{Year: 2026, Month: 10, Value: 1}},
	}
	got := Evaluate(rules, series, nil, false)
	if len(got) != 1 || got[0].RuleID != 7 || got[0].BusinessID != 1001 || got[0].Old == nil || *got[0].Old != 3 || got[0].New != 2 || got[0].Month != 10 {
		t.Fatalf("Evaluate = %+v", got)
	}
}

// One function says which business a rule is about, for scores and for
// divergences alike.
func TestApplies(t *testing.T) {
	folders := map[int32][]int{1001: {101, 104}, 1002: {102}}
	cases := []struct {
		name          string
		rule          store.RuleSpec
		id            int32
		fromPortfolio bool
		want          bool
	}{
		{"business itself", store.RuleSpec{Scope: store.ScopeBusiness, BusinessID: 1001}, 1001, false, true},
		{"another business", store.RuleSpec{Scope: store.ScopeBusiness, BusinessID: 1001}, 1002, false, false},
		{"folder holding it", store.RuleSpec{Scope: store.ScopeFolder, FolderID: 104}, 1001, false, true},
		{"folder not holding it", store.RuleSpec{Scope: store.ScopeFolder, FolderID: 104}, 1002, false, false},
		{"portfolio, in a folder", store.RuleSpec{Scope: store.ScopePortfolio}, 1002, false, true},
		{"portfolio, in no folder", store.RuleSpec{Scope: store.ScopePortfolio}, 1003, false, false},
		{"portfolio's own history", store.RuleSpec{Scope: store.ScopePortfolio}, 1003, true, true},
		{"unknown scope", store.RuleSpec{Scope: "galaxy"}, 1001, true, false},
	}
	for _, c := range cases {
		if got := Applies(c.rule, c.id, folders, c.fromPortfolio); got != c.want {
			t.Errorf("%s: Applies = %v, want %v", c.name, got, c.want)
		}
	}
}

// fakeStore keeps rules and counts what is recorded.
type fakeStore struct {
	rules    []store.Rule
	recorded []store.Triggered
	fail     error
}

func (f *fakeStore) Rules(context.Context, store.Analyst) ([]store.Rule, error) {
	return f.rules, f.fail
}
func (f *fakeStore) RecordAlerts(_ context.Context, _ store.Analyst, fired []store.Triggered) (int, error) {
	f.recorded = append(f.recorded, fired...)
	return len(fired), nil
}

// Scores asks for the memberships only when a rule needs them, says a
// check without them is incomplete, and passes store failures on.
func TestScoresRecordsAndAsksMembersOnlyWhenNeeded(t *testing.T) {
	series := []credit.ScoreSeries{{BusinessID: 1001, Score: store.ScoreRisk, Latest: credit.Latest{Year: 2026, Month: 10, Value: 1}}}
	asked := 0
	none := func() (map[int32][]int, bool) { asked++; return nil, false }
	ctx, a := context.Background(), store.Analyst{Service: "s", User: "u"}

	res, err := Scores(ctx, &fakeStore{}, a, series, false, none)
	if err != nil || !res.NoRules || !res.Complete || asked != 0 {
		t.Fatalf("no rules: %+v, %v, asked %d", res, err, asked)
	}
	st := &fakeStore{rules: []store.Rule{{ID: 1, RuleSpec: store.RuleSpec{Scope: store.ScopeBusiness, BusinessID: 1001, Score: store.ScoreRisk, Condition: store.Below, Threshold: 3}}}}
	res, err = Scores(ctx, st, a, series, false, none)
	if err != nil || res.Recorded != 1 || !res.Complete || asked != 0 {
		t.Fatalf("business rule: %+v, %v, asked %d", res, err, asked)
	}
	st.rules = append(st.rules, store.Rule{ID: 2, RuleSpec: store.RuleSpec{Scope: store.ScopeFolder, FolderID: 9, Score: store.ScoreRisk, Condition: store.Below, Threshold: 3}})
	res, err = Scores(ctx, st, a, series, false, none)
	if err != nil || res.Complete || asked != 1 {
		t.Fatalf("folder rule without memberships: %+v, %v, asked %d", res, err, asked)
	}
	if _, err := Scores(ctx, &fakeStore{fail: errors.New("down")}, a, series, false, none); err == nil {
		t.Error("a failing store: no error")
	}
}
