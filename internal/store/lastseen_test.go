package store

import (
	"math"
	"testing"
)

// TestLastSeen: marks are per business and score; an unchanged value
// keeps the time it was first seen, a changed one is replaced.
func TestLastSeen(t *testing.T) {
	eachEngine(t, func(t *testing.T, s *Store) {
		ctx := t.Context()
		empty, err := s.LastSeen(ctx, alice)
		must(t, err)
		if len(empty) != 0 {
			t.Errorf("LastSeen before any mark = %v", empty)
		}
		must(t, s.MarkSeen(ctx, alice, []Reading{{1001, ScoreRisk, 7}, {1001, ScoreZ, 1.85}, {1002, ScorePay, 4}}))
		first, err := s.LastSeen(ctx, alice)
		must(t, err)
		if len(first) != 3 || first[SeenKey{1001, ScoreZ}].Value != 1.85 {
			t.Fatalf("LastSeen = %v, want three marks with Z 1.85", first)
		}
		must(t, s.MarkSeen(ctx, alice, []Reading{{1001, ScoreRisk, 7}, {1002, ScorePay, 3}}))
		second, err := s.LastSeen(ctx, alice)
		must(t, err)
		risk, pay := SeenKey{1001, ScoreRisk}, SeenKey{1002, ScorePay}
		if second[risk] != first[risk] {
			t.Errorf("unchanged Risk mark %v became %v", first[risk], second[risk])
		}
		if second[pay].Value != 3 || !second[pay].At.After(first[pay].At) {
			t.Errorf("changed Pay mark %v, want 3 seen later than %v", second[pay], first[pay].At)
		}
		must(t, s.MarkSeen(ctx, alice, nil))
		wantInvalid(t, "bad score", s.MarkSeen(ctx, alice, []Reading{{1001, "x", 1}}), "score")
		wantInvalid(t, "NaN", s.MarkSeen(ctx, alice, []Reading{{1001, ScoreRisk, 6}, {1001, ScoreZ, math.NaN()}}), "value")
		wantInvalid(t, "business", s.MarkSeen(ctx, alice, []Reading{{0, ScoreZ, 1}}), "business")
		if third, _ := s.LastSeen(ctx, alice); third[risk].Value != 7 {
			t.Errorf("a refused batch changed Risk to %v", third[risk].Value)
		}
	})
}
