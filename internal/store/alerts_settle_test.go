package store

import (
	"testing"
	"time"
)

// Broad rules past the bound settle: the alerts pruned to keep MaxAlerts
// are never raised again for their rule, business and month, and an
// evaluation that finds nothing new writes nothing, so the workspace is
// not marked changed and the next evaluation is not forced.
func TestAlertsSettlePastTheBound(t *testing.T) {
	eachEngine(t, func(t *testing.T, s *Store) {
		// Twelve thousand alerts in one call: more than the default bound
		// of a call allows under the race detector on two busy cores, and
		// this test is about settling, not about time.
		s.timeout = time.Minute
		ctx := t.Context()
		const businesses = 4000
		var fired []Triggered
		for i := range 3 {
			rule, err := s.AddRule(ctx, alice, RuleSpec{Scope: ScopePortfolio, Score: ScorePay, Condition: Below, Threshold: float64(8 + i)})
			must(t, err)
			for b := range businesses {
				fired = append(fired, Triggered{RuleID: rule.ID, BusinessID: int32(2000 + b), Year: 2026, Month: time.October, New: 5})
			}
		}
		n, err := s.RecordAlerts(ctx, alice, fired)
		must(t, err)
		if n != len(fired) {
			t.Fatalf("first evaluation: %d new, want %d", n, len(fired))
		}
		if held := rowsOf(t, s, alice, "alerts"); held != MaxAlerts {
			t.Fatalf("%d alerts held, want the bound %d", held, MaxAlerts)
		}
		before, err := s.Glance(ctx, alice)
		must(t, err)
		for i := range 3 {
			n, err := s.RecordAlerts(ctx, alice, fired)
			must(t, err)
			if n != 0 {
				t.Errorf("evaluation %d again: %d new, want 0 (pruned alerts raised again)", i+2, n)
			}
		}
		after, err := s.Glance(ctx, alice)
		must(t, err)
		if after.Changed != before.Changed {
			t.Errorf("an evaluation that found nothing new marked the workspace changed (%d, was %d)", after.Changed, before.Changed)
		}
		if held := rowsOf(t, s, alice, "alerts"); held != MaxAlerts {
			t.Errorf("%d alerts held after settling, want %d", held, MaxAlerts)
		}
		// A later month is news again, and is kept before older ones.
		next := []Triggered{fired[0]}
		next[0].Month = time.November
		if n, err := s.RecordAlerts(ctx, alice, next); err != nil || n != 1 {
			t.Errorf("a new month: %d new, %v; want 1", n, err)
		}
		if latest, err := s.Alerts(ctx, alice, 1); err != nil || len(latest) != 1 || latest[0].Month != time.November {
			t.Errorf("newest alert %+v, %v; want November's", latest, err)
		}
	})
}
