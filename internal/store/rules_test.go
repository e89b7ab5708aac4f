package store

import (
	"math"
	"testing"
)

// TestRuleThresholds: each score's threshold is held to its range; the
// fields a scope or condition does not use are cleared.
func TestRuleThresholds(t *testing.T) {
	business := func(score Score, c Condition, th float64) RuleSpec {
		return RuleSpec{Scope: ScopeBusiness, BusinessID: 1001, Score: score, Condition: c, Threshold: th}
	}
	ok := []RuleSpec{
		business(ScoreRisk, Below, 4), business(ScoreRisk, Below, 10), business(ScoreRisk, Above, 1),
		business(ScorePay, Below, 4), business(ScorePay, Fall, 9), business(ScoreDBT, Above, 60),
		business(ScoreDBT, Below, 120), business(ScoreDBT, Fall, 15), business(ScoreZ, Below, 1.1),
		business(ScoreZ, Above, -3.5), business(ScoreZ, Fall, 0.5), business(ScoreZ, Below, 12),
		business(ScoreRisk, WorseZone, 0),
		{Scope: ScopeFolder, FolderID: 3, Score: ScoreZ, Condition: WorseZone},
		{Scope: ScopePortfolio, Score: ScorePay, Condition: Below, Threshold: 4},
		{Scope: ScopePortfolio, Score: ScoreZ, Condition: Below, Threshold: 1.1},
		{Scope: ScopePortfolio, Score: ScoreZ, Condition: Above, Threshold: 2.29},
		{Scope: ScopePortfolio, Score: ScoreZ, Condition: Fall, Threshold: 0.07},
		{Scope: ScopeAccounts, Condition: OverLimit},
		{Scope: ScopeAccounts, Condition: Over90Above, Threshold: 25},
		{Scope: ScopeAccounts, Condition: UtilAbove, Threshold: 87.5},
		{Scope: ScopeAccounts, Condition: UtilAbove, Threshold: 150},
	}
	bad := []struct {
		spec  RuleSpec
		field string
	}{
		{business(ScoreRisk, Below, 11), "threshold"},
		{RuleSpec{Scope: ScopeAccounts, Condition: Over90Above, Threshold: 100}, "threshold"},
		{RuleSpec{Scope: ScopeAccounts, Condition: UtilAbove, Threshold: -1}, "threshold"},
		{RuleSpec{Scope: ScopeAccounts, Condition: UtilAbove, Threshold: 12.25}, "threshold"},
		{RuleSpec{Scope: ScopeAccounts, Score: ScoreRisk, Condition: Below, Threshold: 4}, "condition"},
		{RuleSpec{Scope: ScopePortfolio, Score: ScorePay, Condition: OverLimit}, "condition"},
		{business(ScoreRisk, Below, 0), "threshold"},
		{business(ScoreRisk, Below, 1), "threshold"},  // never fires
		{business(ScoreRisk, Above, 10), "threshold"}, // never fires
		{business(ScoreRisk, Below, 4.5), "threshold"},
		{business(ScorePay, Fall, 0), "threshold"},
		{business(ScorePay, Fall, 10), "threshold"},
		{business(ScoreDBT, Above, -1), "threshold"},
		{business(ScoreDBT, Above, 121), "threshold"},
		{business(ScoreZ, Below, 12.5), "threshold"},
		{business(ScoreZ, Below, -4.01), "threshold"},
		{business(ScoreZ, Below, 1.105), "threshold"}, // shown as 1.10
		{business(ScoreZ, Fall, 0.333), "threshold"},
		{business(ScoreZ, Below, math.NaN()), "threshold"},
		{business(ScoreZ, Fall, math.Inf(1)), "threshold"},
		{business("altman", Below, 4), "score"},
		{business(ScoreRisk, "sideways", 4), "condition"},
		{RuleSpec{Scope: ScopeBusiness, Score: ScoreRisk, Condition: Below, Threshold: 4}, "business"},
		{RuleSpec{Scope: ScopeFolder, Score: ScoreRisk, Condition: Below, Threshold: 4}, "folder"},
		{RuleSpec{Scope: "planet", Score: ScoreRisk, Condition: Below, Threshold: 4}, "scope"},
	}
	eachEngine(t, func(t *testing.T, s *Store) {
		ctx := t.Context()
		for _, spec := range ok {
			if _, err := s.AddRule(ctx, alice, spec); err != nil {
				t.Errorf("AddRule(%+v): %v", spec, err)
			}
		}
		for _, b := range bad {
			_, err := s.AddRule(ctx, alice, b.spec)
			wantInvalid(t, "AddRule", err, b.field)
		}
		for _, spec := range ok[:3] {
			_, err := s.AddRule(ctx, alice, spec)
			wantInvalid(t, "AddRule of a rule already there", err, "rule")
		}
		if _, err := s.AddRule(ctx, bob, ok[0]); err != nil {
			t.Errorf("another analyst's same rule: %v", err)
		}
		if n := rowsOf(t, s, alice, "rules"); n != len(ok) {
			t.Errorf("%d rules stored, want %d", n, len(ok))
		}
		r, err := s.AddRule(ctx, alice, RuleSpec{Scope: ScopePortfolio, BusinessID: 5, FolderID: 6, Score: ScoreRisk, Condition: WorseZone, Threshold: 3})
		must(t, err)
		if r.BusinessID != 0 || r.FolderID != 0 || r.Threshold != 0 {
			t.Errorf("portfolio worse-zone rule = %+v, want no business, folder or threshold", r.RuleSpec)
		}
	})
}

// TestRules: rules list newest first as stored, and a deleted rule takes
// its alerts with it.
func TestRules(t *testing.T) {
	eachEngine(t, func(t *testing.T, s *Store) {
		ctx := t.Context()
		first, err := s.AddRule(ctx, alice, RuleSpec{Scope: ScopeBusiness, BusinessID: 1001, TargetName: "Harbor Freight", Score: ScorePay, Condition: Below, Threshold: 4})
		must(t, err)
		second, err := s.AddRule(ctx, alice, RuleSpec{Scope: ScopeFolder, FolderID: 2, TargetName: "Retail", Score: ScoreZ, Condition: Fall, Threshold: 0.75})
		must(t, err)
		rules, err := s.Rules(ctx, alice)
		must(t, err)
		if len(rules) != 2 || rules[0] != second || rules[1] != first {
			t.Fatalf("Rules = %+v, want %+v then %+v", rules, second, first)
		}
		_, err = s.RecordAlerts(ctx, alice, []Triggered{{RuleID: first.ID, BusinessID: 1001, Year: 2025, Month: 2, New: 3}})
		must(t, err)
		must(t, s.DeleteRule(ctx, alice, first.ID))
		wantErr(t, "delete twice", s.DeleteRule(ctx, alice, first.ID), ErrNotFound)
		if n := rowsOf(t, s, alice, "alerts"); n != 0 {
			t.Errorf("%d alerts left after their rule was deleted", n)
		}
	})
}

// TestRulesFull: an analyst keeps at most MaxRules rules.
func TestRulesFull(t *testing.T) {
	eachEngine(t, func(t *testing.T, s *Store) {
		fill(t, s, alice, "rules", MaxRules)
		_, err := s.AddRule(t.Context(), alice, RuleSpec{Scope: ScopePortfolio, Score: ScoreRisk, Condition: WorseZone})
		wantErr(t, "rule past the bound", err, ErrRulesFull)
	})
}

// TestAppliesTo: business rules match their business, folder rules the
// businesses in their folder, portfolio rules anything in the portfolio.
func TestAppliesTo(t *testing.T) {
	onBusiness := RuleSpec{Scope: ScopeBusiness, BusinessID: 1001}
	onFolder := RuleSpec{Scope: ScopeFolder, FolderID: 2}
	onPortfolio := RuleSpec{Scope: ScopePortfolio}
	for _, tc := range []struct {
		r        RuleSpec
		business int32
		folders  []int
		want     bool
	}{
		{onBusiness, 1001, nil, true},
		{onBusiness, 1002, []int{1}, false},
		{onFolder, 1002, []int{1, 2}, true},
		{onFolder, 1002, []int{1}, false},
		{onPortfolio, 1003, []int{4}, true},
		{onPortfolio, 1003, nil, false},
		{RuleSpec{Scope: ScopeAccounts, Condition: OverLimit}, 1003, []int{4}, false},
	} {
		if got := tc.r.AppliesTo(tc.business, tc.folders...); got != tc.want {
			t.Errorf("%+v.AppliesTo(%d, %v) = %v, want %v", tc.r, tc.business, tc.folders, got, tc.want)
		}
	}
}
