package store

import (
	"errors"
	"sync"
	"sync/atomic"
	"testing"
)

// TestConcurrentWrites: writers and readers at once all succeed (SQLite's
// one writer queues them, PostgreSQL's pool runs them), and a bound holds
// when many requests race for its last places.
func TestConcurrentWrites(t *testing.T) {
	eachEngine(t, func(t *testing.T, s *Store) {
		ctx := t.Context()
		const writers, each = 6, 8
		var wg sync.WaitGroup
		errs := make(chan error, writers*each*2)
		for w := range writers {
			wg.Go(func() {
				for i := range each {
					if _, err := s.AddNote(ctx, alice, int32(1001+w), "note"); err != nil {
						errs <- err
					}
					if _, err := s.Notes(ctx, alice, int32(1001+i%writers)); err != nil {
						errs <- err
					}
				}
			})
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			t.Error(err)
		}
		if n := rowsOf(t, s, alice, "notes"); n != writers*each {
			t.Errorf("%d notes, want %d", n, writers*each)
		}

		const free, racers = 5, 20
		fill(t, s, alice, "watches", MaxWatches-free)
		var full, other atomic.Int32
		for i := range racers {
			wg.Go(func() {
				err := s.Watch(ctx, alice, int32(1001+i), "")
				switch {
				case errors.Is(err, ErrWatchListFull):
					full.Add(1)
				case err != nil:
					other.Add(1)
					t.Error(err)
				}
			})
		}
		wg.Wait()
		if n := rowsOf(t, s, alice, "watches"); n != MaxWatches || full.Load() != racers-free || other.Load() != 0 {
			t.Errorf("%d watches, %d refused as full, %d failed; want %d, %d, 0", n, full.Load(), other.Load(), MaxWatches, racers-free)
		}
	})
}
