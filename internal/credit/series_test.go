package credit

import (
	"math"
	"testing"

	"creditdash/internal/store"
	"creditdash/internal/upstream"
)

// A portfolio history's latest value is its latest usable month, whatever
// the order; the later of two for one month stands, as the service's
// order has it; the previous value is the nearest within PrevLookback.
func TestPortfolioLatest(t *testing.T) {
	f := func(v float64) upstream.Num[float64] { return upstream.Some(v) }
	scores := []upstream.MonthlyScore{
		{Year: 2026, Month: 3, Score: f(30)},
		{Year: 2025, Month: 12, Score: f(12)},
		{Year: 2026, Month: 1, Score: f(10)},
		{Year: 2026, Month: 1, Score: f(11)},
		{Year: 2026, Month: 2, Score: upstream.Num[float64]{}},
		{Year: 2026, Month: 13, Score: f(99)},
		{Year: 2026, Month: 4, Score: f(math.NaN())},
	}
	h := upstream.PortfolioScoreHistory{Businesses: []upstream.PortfolioBusinessScores{
		{BusinessID: 1001, Scores: scores},
		{BusinessID: 1002},
		{BusinessID: 1003, Scores: []upstream.MonthlyScore{{Year: 2026, Month: 6, Score: f(5)}, {Year: 2026, Month: 1, Score: f(7)}}},
	}}
	got := PortfolioLatest(h)
	l, ok := got[1001]
	if !ok || l.Year != 2026 || l.Month != 3 || l.Value != 30 || l.Prev == nil || *l.Prev != 11 || l.PrevMonth != 1 {
		t.Errorf("latest %+v", l)
	}
	if _, ok := got[1002]; ok {
		t.Error("a business without scores has a latest value")
	}
	if l := got[1003]; l.Value != 5 || l.Prev != nil {
		t.Errorf("a previous value five months back counts: %+v", l)
	}
	if s := PortfolioSeries(store.ScorePay, h); len(s) != 2 || s[0].BusinessID != 1001 || s[0].Score != store.ScorePay || s[0].Latest.Value != 30 || *s[0].Latest.Prev != 11 {
		t.Errorf("PortfolioSeries = %+v", s)
	}
}
