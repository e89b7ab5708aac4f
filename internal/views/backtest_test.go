package views

import (
	"math"
	"math/rand/v2"
	"testing"

	"creditdash/internal/store"
	"creditdash/internal/upstream"
)

// btScores writes a business's months from Oct 2025 on (the window's
// first month in the tests below); NaN is a month without a value.
func btScores(id int32, vals ...float64) upstream.PortfolioBusinessScores {
	b := upstream.PortfolioBusinessScores{BusinessID: id, BusinessName: "B" + string(rune('A'+id-1))}
	for i, v := range vals {
		if math.IsNaN(v) {
			continue
		}
		m := monthIndexOf(2025, 10) + monthIndex(i)
		x := v
		b.Scores = append(b.Scores, upstream.MonthlyScore{Year: m.year(), Month: m.month(), Score: upstream.Some(x)})
	}
	return b
}

var nan = math.NaN()

// TestReplayRuleHandComputed replays "Pay below 5" over six months of a
// history worked out by hand (Oct 2025 .. Mar 2026):
//
//	A: 6 4 4 6 3 2    fires Nov (worst later 2 in Mar: lead 4, red) and Feb (lead 1, red)
//	B: 4 4 - 7 - 4    Oct only sets the state; fires Mar, too recent to tell
//	C: 7 - 4 - 8 8    fires Dec; worst later 8 in Feb (lead 2), never red again
//	D: Sep 2025 only  before the window: not counted
//	E: 6 4 ...        would fire in Nov, but outside the rule's scope
//	F: Sep 4, Oct 4, Nov 4: the value before the window does not fire Oct
func TestReplayRuleHandComputed(t *testing.T) {
	f := btScores(6, 4, 4)
	sep := monthIndexOf(2025, 9)
	four := 4.0
	f.Scores = append([]upstream.MonthlyScore{{Year: sep.year(), Month: sep.month(), Score: upstream.Some(four)}}, f.Scores...)
	d := upstream.PortfolioBusinessScores{BusinessID: 4, BusinessName: "BD", Scores: []upstream.MonthlyScore{{Year: 2025, Month: 9, Score: upstream.Some(four)}}}
	hist := upstream.PortfolioScoreHistory{Businesses: []upstream.PortfolioBusinessScores{
		btScores(1, 6, 4, 4, 6, 3, 2),
		btScores(2, 4, 4, nan, 7, nan, 4),
		btScores(3, 7, nan, 4, nan, 8, 8),
		d,
		btScores(5, 6, 4, 4, 4, 4, 4),
		f,
	}}
	rule := store.RuleSpec{Scope: store.ScopePortfolio, Score: store.ScorePay, Condition: store.Below, Threshold: 5}
	r := ReplayRule(rule, hist, func(id int32) bool { return id != 5 }, 6)

	if got := len(r.Months); got != 6 || r.Months[0] != monthIndexOf(2025, 10) || r.Months[5] != monthIndexOf(2026, 3) {
		t.Fatalf("months = %v, want Oct 2025 .. Mar 2026", r.Months)
	}
	if want := []int{0, 1, 1, 0, 1, 1}; !equalInts(r.Alerts, want) {
		t.Errorf("alerts per month = %v, want %v", r.Alerts, want)
	}
	if r.Businesses != 4 || r.Fired != 3 {
		t.Errorf("businesses = %d, fired = %d; want 4 and 3", r.Businesses, r.Fired)
	}
	type want struct {
		id      int32
		month   monthIndex
		worst   float64
		lead    int
		outcome Outcome
	}
	wants := []want{
		{1, monthIndexOf(2025, 11), 2, 4, Deterioration},
		{3, monthIndexOf(2025, 12), 8, 2, NoDeterioration},
		{1, monthIndexOf(2026, 2), 2, 1, Deterioration},
		{2, monthIndexOf(2026, 3), 0, 0, TooRecent},
	}
	if len(r.Firings) != len(wants) {
		t.Fatalf("firings = %+v, want %d", r.Firings, len(wants))
	}
	for i, w := range wants {
		g := r.Firings[i]
		if g.BusinessID != w.id || g.Month != w.month || g.Outcome != w.outcome ||
			(w.outcome != TooRecent && (g.Worst != w.worst || g.Lead != w.lead)) {
			t.Errorf("firing %d = %d %v worst %v lead %d outcome %d; want %d %v worst %v lead %d outcome %d",
				i, g.BusinessID, g.Month, g.Worst, g.Lead, g.Outcome, w.id, w.month, w.worst, w.lead, w.outcome)
		}
	}
	if m, ok := r.MedianLead(); !ok || m != 2.5 {
		t.Errorf("median lead = %v, %v; want 2.5 (of 4 and 1)", m, ok)
	}
	if d, n, st, rec := r.Outcomes(); d != 2 || n != 1 || st != 0 || rec != 1 {
		t.Errorf("outcomes = %d, %d, %d, %d; want 2, 1, 0, 1", d, n, st, rec)
	}
	if got := r.PerMonth(); math.Abs(got-4.0/6) > 1e-9 {
		t.Errorf("per month = %v, want 4/6", got)
	}
}

// A fall compares with the previous month with a value (within the
// lookback); Z″ is quarterly, so its months in between are empty.
func TestReplayRuleFallOnZ(t *testing.T) {
	hist := upstream.PortfolioScoreHistory{Businesses: []upstream.PortfolioBusinessScores{
		//        Oct   Nov  Dec  Jan   Feb  Mar  Apr   May  Jun
		btScores(1, 2.9, nan, nan, 2.3, nan, nan, 0.9, nan, nan),
		btScores(2, 3.0, nan, nan, 2.95, nan, nan, 2.5, nan, nan),
	}}
	rule := store.RuleSpec{Scope: store.ScopePortfolio, Score: store.ScoreZ, Condition: store.Fall, Threshold: 0.5}
	r := ReplayRule(rule, hist, nil, 7)
	// The window ends in Apr 2026, the newest month held: Oct..Apr.
	if r.Months[len(r.Months)-1] != monthIndexOf(2026, 4) {
		t.Fatalf("window ends %v, want Apr 2026", r.Months[len(r.Months)-1])
	}
	// 1: Oct sets the state (no previous); Jan falls 0.6 (fires); Apr
	// falls 1.4 but the fall held already in Jan, so it does not fire again.
	// 2: Jan falls 0.05, Apr 0.45: never 0.5.
	if len(r.Firings) != 1 || r.Firings[0].BusinessID != 1 || r.Firings[0].Month != monthIndexOf(2026, 1) {
		t.Fatalf("firings = %+v, want business 1 in Jan 2026", r.Firings)
	}
	if f := r.Firings[0]; f.Outcome != Deterioration || f.Worst != 0.9 || f.Lead != 3 {
		t.Errorf("firing = %+v, want worst 0.90 three months later, deterioration (distress)", f)
	}
}

func TestReplayRuleEmpty(t *testing.T) {
	r := ReplayRule(store.RuleSpec{Score: store.ScorePay, Condition: store.Below, Threshold: 5}, upstream.PortfolioScoreHistory{}, nil, 24)
	if len(r.Months) != 0 || len(r.Firings) != 0 {
		t.Errorf("empty history: %+v", r)
	}
	if _, ok := r.MedianLead(); ok {
		t.Error("empty history has a median lead")
	}
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// benchHistory is n businesses × months of Pay scores wandering by 0 or ±1.
func benchHistory(n, months int) upstream.PortfolioScoreHistory {
	rng := rand.New(rand.NewPCG(1, 2))
	h := upstream.PortfolioScoreHistory{TotalResults: n, ScoreType: "PayScore"}
	for id := range n {
		b := upstream.PortfolioBusinessScores{BusinessID: int32(1001 + id), BusinessName: "Business"}
		v := float64(1 + rng.IntN(10))
		for i := range months {
			m := monthIndexOf(2024, 1) + monthIndex(i)
			v = min(10, max(1, v+float64(rng.IntN(3)-1)))
			x := v
			b.Scores = append(b.Scores, upstream.MonthlyScore{Year: m.year(), Month: m.month(), Score: upstream.Some(x)})
		}
		h.Businesses = append(h.Businesses, b)
	}
	return h
}

// BenchmarkBacktest replays "Pay below 5" over 500 businesses × 36 months
// (issue 28's target: at most 300 ms), the page's whole view included.
func BenchmarkBacktest(b *testing.B) {
	hist := benchHistory(500, 36)
	rule := store.RuleSpec{Scope: store.ScopePortfolio, Score: store.ScorePay, Condition: store.Below, Threshold: 5}
	b.ReportAllocs()
	for b.Loop() {
		r := ReplayRule(rule, hist, nil, 36)
		if _, err := NewBacktestView(rule, r); err != nil {
			b.Fatal(err)
		}
	}
}
