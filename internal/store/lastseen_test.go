package store

import (
	"math"
	"slices"
	"testing"
)

// TestLastSeen: marks are per business and score; an unchanged value
// keeps the time it was first seen, a changed one is replaced.
func TestLastSeen(t *testing.T) {
	ids := []int32{1001, 1002}
	eachEngine(t, func(t *testing.T, s *Store) {
		ctx := t.Context()
		empty, err := s.LastSeen(ctx, alice, ids)
		must(t, err)
		if len(empty) != 0 {
			t.Errorf("LastSeen before any mark = %v", empty)
		}
		must(t, s.MarkSeen(ctx, alice, []Reading{{1001, ScoreRisk, 7}, {1001, ScoreZ, 1.85}, {1002, ScorePay, 4}}))
		first, err := s.LastSeen(ctx, alice, ids)
		must(t, err)
		if len(first) != 3 || first[SeenKey{1001, ScoreZ}].Value != 1.85 {
			t.Fatalf("LastSeen = %v, want three marks with Z 1.85", first)
		}
		must(t, s.MarkSeen(ctx, alice, []Reading{{1001, ScoreRisk, 7}, {1002, ScorePay, 3}}))
		second, err := s.LastSeen(ctx, alice, ids)
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
		if third, _ := s.LastSeen(ctx, alice, ids); third[risk].Value != 7 {
			t.Errorf("a refused batch changed Risk to %v", third[risk].Value)
		}
	})
}

// TestUnchangedMarksLeaveTheWorkspace: marks that change nothing write
// nothing, so the workspace's version, which pages are kept by, stays.
func TestUnchangedMarksLeaveTheWorkspace(t *testing.T) {
	eachEngine(t, func(t *testing.T, s *Store) {
		ctx := t.Context()
		marks := []Reading{{1001, ScoreRisk, 7}, {1002, ScorePay, 4}}
		must(t, s.MarkSeen(ctx, alice, marks))
		before, err := s.Glance(ctx, alice)
		must(t, err)
		must(t, s.MarkSeen(ctx, alice, marks))
		same, err := s.Glance(ctx, alice)
		must(t, err)
		if same.Changed != before.Changed {
			t.Errorf("unchanged marks moved the workspace from %d to %d", before.Changed, same.Changed)
		}
		must(t, s.MarkSeen(ctx, alice, []Reading{{1001, ScoreRisk, 7}, {1002, ScorePay, 3}}))
		moved, err := s.Glance(ctx, alice)
		must(t, err)
		if moved.Changed <= before.Changed {
			t.Errorf("a changed mark left the workspace at %d, want past %d", moved.Changed, before.Changed)
		}
		if seen, _ := s.LastSeen(ctx, bob, []int32{1001, 1002}); len(seen) != 0 {
			t.Errorf("bob has marks %v", seen)
		}
		must(t, s.MarkSeen(ctx, bob, marks))
		if seen, _ := s.LastSeen(ctx, bob, []int32{1001, 1002}); len(seen) != 2 {
			t.Errorf("bob's first marks: %v, want 2", seen)
		}
	})
}

// TestLastSeenBound: past the bound the marks not refreshed longest go, a
// tenth of the bound at once. The bound is lowered to 100 marks: the real
// one's 100,000 take longer to sort under the race detector than a write
// may.
func TestLastSeenBound(t *testing.T) {
	seenBound = 100
	t.Cleanup(func() { seenBound = MaxSeen })
	eachEngine(t, func(t *testing.T, s *Store) {
		ctx := t.Context()
		fill(t, s, alice, "last_seen", 100)
		must(t, s.MarkSeen(ctx, alice, []Reading{{100002, ScoreRisk, 5}}))
		if n := rowsOf(t, s, alice, "last_seen"); n != 100 {
			t.Fatalf("%d marks kept at the bound, want 100", n)
		}
		must(t, s.MarkSeen(ctx, alice, []Reading{{1001, ScoreRisk, 7}}))
		if n := rowsOf(t, s, alice, "last_seen"); n != 90 {
			t.Fatalf("%d marks kept past the bound, want 90", n)
		}
		ids := []int32{1001}
		for i := int32(1); i <= 100; i++ {
			ids = append(ids, 100000+i)
		}
		seen, err := s.LastSeen(ctx, alice, ids)
		must(t, err)
		if len(seen) != 90 {
			t.Errorf("%d marks read of the 101 businesses, want 90", len(seen))
		}
		for i := int32(1); i <= 11; i++ {
			if _, ok := seen[SeenKey{100000 + i, ScoreRisk}]; ok {
				t.Errorf("mark %d, among the oldest, was kept", 100000+i)
			}
		}
		for _, k := range []SeenKey{{1001, ScoreRisk}, {100012, ScoreRisk}, {100100, ScoreRisk}} {
			if _, ok := seen[k]; !ok {
				t.Errorf("mark %v went", k)
			}
		}
	})
}

// TestLastSeenOfManyBusinesses: the marks of the businesses asked for and
// no others, for long lists, short ones, repeated ids and none.
func TestLastSeenOfManyBusinesses(t *testing.T) {
	eachEngine(t, func(t *testing.T, s *Store) {
		ctx := t.Context()
		fill(t, s, alice, "last_seen", 700)
		var ids []int32
		for i := int32(1); i <= 650; i++ {
			ids = append(ids, 100000+i)
		}
		seen, err := s.LastSeen(ctx, alice, append(ids, 1001))
		must(t, err)
		if len(seen) != 650 {
			t.Errorf("%d marks of 651 businesses, 650 of them marked; want 650", len(seen))
		}
		if _, ok := seen[SeenKey{100651, ScoreRisk}]; ok {
			t.Error("a mark of a business not asked for was read")
		}
		for _, n := range []int{1, 3, 17} {
			seen, err := s.LastSeen(ctx, alice, ids[:n])
			must(t, err)
			if len(seen) != n {
				t.Errorf("%d marks of %d businesses, want %d", len(seen), n, n)
			}
		}
		twice := append(slices.Clone(ids[:3]), ids[:3]...)
		if seen, err := s.LastSeen(ctx, alice, twice); err != nil || len(seen) != 3 {
			t.Errorf("3 businesses each asked twice: %d marks, %v", len(seen), err)
		}
		if seen, err := s.LastSeen(ctx, alice, []int32{ids[0], ids[0]}); err != nil || len(seen) != 1 {
			t.Errorf("one business asked twice: %d marks, %v", len(seen), err)
		}
		if seen, err := s.LastSeen(ctx, alice, nil); err != nil || len(seen) != 0 {
			t.Errorf("no businesses: %v, %v", seen, err)
		}
	})
}
