package handlers

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"golang.org/x/sync/singleflight"

	"creditdash/internal/store"
	"creditdash/internal/teamfigures"
)

// TestFiguresWorkedOutOnceAtATime: pages of one team arriving together,
// with no figures kept and again after a write, get one set between them,
// worked out once (whole, then brought forward): the one-at-a-time guard
// (h.figuring) makes them wait for the same set instead of each working
// out its own. The pages are many and the team of moderate size, so
// without the guard they overlap; the counters, not the clock, tell.
func TestFiguresWorkedOutOnceAtATime(t *testing.T) {
	ctx := t.Context()
	st, err := store.Open(ctx, store.Config{DataDir: t.TempDir(), Timeout: time.Minute}) // an import under -race on a busy machine
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	a := store.Analyst{Service: "http://127.0.0.1:8081", User: "ana"}
	lines := make([]store.LedgerLine, 2000)
	for i := range lines {
		lines[i] = store.LedgerLine{Account: fmt.Sprintf("C%05d", i), Name: fmt.Sprintf("Customer %d", i), BusinessID: int32(1001 + i%20),
			Balance: float64(1000 + i), Current: float64(1000 + i)}
	}
	if _, err := st.ImportLedger(ctx, a, store.ImportSpec{AsOf: time.Date(2026, 9, 30, 0, 0, 0, 0, time.UTC), Lines: lines}); err != nil {
		t.Fatal(err)
	}
	h := &Handler{store: st}
	h.figuring = new(singleflight.Group)
	if h.teamData, err = newTeamCache(DefaultTeamCacheBytes); err != nil {
		t.Fatal(err)
	}
	flood := func(what string, worked, updated uint64) {
		t.Helper()
		ts, err := h.teamNow(ctx, a)
		if err != nil {
			t.Fatal(err)
		}
		start := make(chan struct{})
		sets, errs := make([]*teamfigures.Set, 16), make([]error, 16)
		var wg sync.WaitGroup
		for i := range sets {
			wg.Go(func() {
				<-start
				sets[i], errs[i] = h.newestSet(context.WithoutCancel(ctx), ts)
			})
		}
		close(start)
		wg.Wait()
		if w, u := h.figuresWorked.Load(), h.figuresUpdated.Load(); w != worked || u != updated {
			t.Fatalf("16 pages %s: worked out whole %d times in all, brought forward %d, want %d and %d", what, w, u, worked, updated)
		}
		for i, s := range sets {
			if errs[i] != nil {
				t.Fatal(errs[i])
			}
			if s == nil || s != sets[0] || s.Version != ts.version {
				t.Fatalf("%s: the pages got different sets (or none, or of another version): %p against %p", what, s, sets[0])
			}
		}
	}
	flood("with nothing kept", 1, 0)
	now := time.Now()
	if _, err := st.RecordScores(ctx, a, store.Observation{BusinessID: 1001, Fetched: now,
		Latest: map[store.Score]store.KnownScore{store.ScoreRisk: {Value: 4, Month: 202609, Fetched: now}}}); err != nil {
		t.Fatal(err)
	}
	flood("after a write to 100 accounts", 1, 1)
}
