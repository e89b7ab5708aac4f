package store

import (
	"testing"
)

// TestWatch: watch, list newest first, rename on a second watch, unwatch
// twice, and bad input refused.
func TestWatch(t *testing.T) {
	eachEngine(t, func(t *testing.T, s *Store) {
		ctx := t.Context()
		must(t, s.Watch(ctx, alice, 1001, "  Harbor Freight Logistics Inc "))
		must(t, s.Watch(ctx, alice, 1002, "Northwind Chemicals Corp"))
		must(t, s.Watch(ctx, alice, 1001, "Harbor Freight Logistics"))
		list, err := s.WatchList(ctx, alice)
		must(t, err)
		if len(list) != 2 || list[0].BusinessID != 1002 || list[1].BusinessID != 1001 {
			t.Fatalf("WatchList = %+v, want 1002 then 1001", list)
		}
		if list[1].Name != "Harbor Freight Logistics" || list[1].Since.IsZero() {
			t.Errorf("watch of 1001 = %+v, want the newer name and a time", list[1])
		}
		if !list[0].Since.After(list[1].Since) {
			t.Errorf("1002 since %v, 1001 since %v: renaming must not move 1001 up", list[0].Since, list[1].Since)
		}
		for id, want := range map[int32]bool{1001: true, 1002: true, 1003: false} {
			got, err := s.IsWatched(ctx, alice, id)
			must(t, err)
			if got != want {
				t.Errorf("IsWatched(%d) = %v, want %v", id, got, want)
			}
		}
		must(t, s.Unwatch(ctx, alice, 1001))
		must(t, s.Unwatch(ctx, alice, 1001))
		if got, _ := s.IsWatched(ctx, alice, 1001); got {
			t.Error("1001 still watched after Unwatch")
		}

		wantInvalid(t, "business 0", s.Watch(ctx, alice, 0, ""), "business")
		wantInvalid(t, "no analyst", s.Watch(ctx, Analyst{}, 1003, ""), "analyst")
		if n := rowsOf(t, s, alice, "watches"); n != 1 {
			t.Errorf("%d watches after refused input, want 1", n)
		}
	})
}

// TestWatchListFull: the 1,000th watch is taken, the 1,001st refused,
// watching one already listed still works.
func TestWatchListFull(t *testing.T) {
	eachEngine(t, func(t *testing.T, s *Store) {
		ctx := t.Context()
		fill(t, s, alice, "watches", MaxWatches-1)
		must(t, s.Watch(ctx, alice, 1001, ""))
		wantErr(t, "watch 1,001", s.Watch(ctx, alice, 1002, ""), ErrWatchListFull)
		must(t, s.Watch(ctx, alice, 1001, "renamed"))
		if n := rowsOf(t, s, alice, "watches"); n != MaxWatches {
			t.Errorf("%d watches, want %d", n, MaxWatches)
		}
		// The bound is per analyst.
		must(t, s.Watch(ctx, bob, 1002, ""))
	})
}
