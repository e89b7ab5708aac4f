package views

import (
	"testing"

	"creditdash/internal/store"
	"creditdash/internal/upstream"
)

// A Pay score that fell to 3 and stayed there under "Pay below 4" was
// not followed by deterioration: it never got worse than at the alert.
func TestReplayFlatScoreIsNotDeterioration(t *testing.T) {
	hist := upstream.PortfolioScoreHistory{Businesses: []upstream.PortfolioBusinessScores{btScores(1, 6, 3, 3, 3, 3, 3)}}
	rule := store.RuleSpec{Scope: store.ScopePortfolio, Score: store.ScorePay, Condition: store.Below, Threshold: 4}
	r := ReplayRule(rule, hist, nil, 6)
	if len(r.Firings) != 1 || r.Firings[0].Month != monthIndexOf(2025, 11) {
		t.Fatalf("firings = %+v, want one in Nov 2025", r.Firings)
	}
	if f := r.Firings[0]; f.Outcome == Deterioration {
		t.Errorf("a flat 3 under Pay below 4 counts as followed by deterioration: %+v", f)
	}
}

// "Pay below 4" over six months worked out by hand (Oct 2025 .. Mar 2026):
//
//	A: 6 3 3 3 3 3   fires Nov; never worse, still below 4 at the end: still true
//	B: 6 3 2 5 5 5   fires Nov; 2 in Dec is worse: deterioration, lead 1
//	C: 6 3 5 7 7 7   fires Nov; never worse and over by Dec: no deterioration
//	                 (the old red-zone test counted Dec's 5 as deterioration)
//	D: 6 2 3 3 3 3   fires Nov at 2; later 3s are better, still below 4: still true
//	E: 6 3 2 2 2 2   fires Nov; worse in Dec and still true: deterioration wins
//	F: 5 5 5 5 5 3   fires Mar, the newest month: too recent to tell
func TestReplayRuleHonestOutcomes(t *testing.T) {
	hist := upstream.PortfolioScoreHistory{Businesses: []upstream.PortfolioBusinessScores{
		btScores(1, 6, 3, 3, 3, 3, 3),
		btScores(2, 6, 3, 2, 5, 5, 5),
		btScores(3, 6, 3, 5, 7, 7, 7),
		btScores(4, 6, 2, 3, 3, 3, 3),
		btScores(5, 6, 3, 2, 2, 2, 2),
		btScores(6, 5, 5, 5, 5, 5, 3),
	}}
	rule := store.RuleSpec{Scope: store.ScopePortfolio, Score: store.ScorePay, Condition: store.Below, Threshold: 4}
	r := ReplayRule(rule, hist, nil, 6)
	type want struct {
		outcome     Outcome
		worst       float64
		lead        int
		description string
	}
	wants := map[int32]want{
		1: {StillTrue, 3, 1, "still true"},
		2: {Deterioration, 2, 1, "followed by deterioration"},
		3: {NoDeterioration, 5, 1, "no deterioration"},
		4: {StillTrue, 3, 1, "still true"},
		5: {Deterioration, 2, 1, "followed by deterioration"},
		6: {TooRecent, 0, 0, "too recent"},
	}
	if len(r.Firings) != len(wants) {
		t.Fatalf("firings = %+v, want one per business", r.Firings)
	}
	for _, f := range r.Firings {
		w := wants[f.BusinessID]
		if f.Outcome != w.outcome || (w.outcome != TooRecent && (f.Worst != w.worst || f.Lead != w.lead)) {
			t.Errorf("business %d: outcome %d worst %v lead %d; want %s (%d), worst %v lead %d",
				f.BusinessID, f.Outcome, f.Worst, f.Lead, w.description, w.outcome, w.worst, w.lead)
		}
	}
	if d, n, st, rec := r.Outcomes(); d != 2 || n != 1 || st != 2 || rec != 1 {
		t.Errorf("outcomes = %d, %d, %d, %d; want 2 deteriorated, 1 not, 2 still true, 1 too recent", d, n, st, rec)
	}
	// The median lead counts deteriorations only: 1 and 1.
	if m, ok := r.MedianLead(); !ok || m != 1 {
		t.Errorf("median lead = %v, %v; want 1", m, ok)
	}
	v, err := NewBacktestView(rule, r)
	if err != nil {
		t.Fatal(err)
	}
	// One of the three with an outcome was a false alarm; the two still
	// true are neither.
	if v.NoDeterioration != "33.3% (1 of 3)" || v.StillTrue != 2 || v.Deteriorated != 2 || v.Recent != 1 {
		t.Errorf("view: no deterioration %q, still true %d, deteriorated %d, recent %d; want 33.3%% (1 of 3), 2, 2, 1",
			v.NoDeterioration, v.StillTrue, v.Deteriorated, v.Recent)
	}
	outcomes := map[string]int{}
	for _, row := range v.Firings {
		outcomes[row.Outcome]++
	}
	if outcomes["still true at the window's end"] != 2 || outcomes["followed by deterioration"] != 2 || outcomes["no deterioration"] != 1 {
		t.Errorf("rows' outcomes = %v", outcomes)
	}
}

// A fall rule's firing whose fall does not recur stops holding the next
// month; with no worse score after it, it is no deterioration.
func TestReplayFallThatStops(t *testing.T) {
	hist := upstream.PortfolioScoreHistory{Businesses: []upstream.PortfolioBusinessScores{btScores(1, 8, 6, 6, 7, 7, 7)}}
	rule := store.RuleSpec{Scope: store.ScopePortfolio, Score: store.ScorePay, Condition: store.Fall, Threshold: 2}
	r := ReplayRule(rule, hist, nil, 6)
	if len(r.Firings) != 1 || r.Firings[0].Month != monthIndexOf(2025, 11) || r.Firings[0].Outcome != NoDeterioration {
		t.Fatalf("firings = %+v, want Nov 2025, no deterioration", r.Firings)
	}
}
