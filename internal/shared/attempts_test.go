package shared_test

import (
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"creditdash/internal/session"
	"creditdash/internal/shared"
	"creditdash/internal/shared/redistest"
)

// openAttempts opens n replicas' attempt books on one store.
func openAttempts(t *testing.T, n int) []*shared.Attempts {
	t.Helper()
	url, prefix := redistest.URL(t), redistest.Prefix(t)
	var out []*shared.Attempts
	for range n {
		st, err := shared.Open(url, shared.Options{Prefix: prefix, Timeout: time.Second})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(st.Close)
		out = append(out, shared.NewAttempts(st, session.NewMemoryAttempts(nil, time.Hour)))
	}
	return out
}

// Attempts reserved on one replica hold on the other, for their window;
// a released attempt and a forgotten count are given back on both.
func TestAttemptsAreShared(t *testing.T) {
	r := openAttempts(t, 2)
	a, b := r[0], r[1]
	ctx := t.Context()
	key := []string{"fdemo\x00127.0.0.1"}
	for range 3 {
		if full, _ := a.Reserve(ctx, key, []int{4}, time.Hour); full != -1 {
			t.Fatalf("reserve on A: full %d, want -1", full)
		}
	}
	if full, _ := b.Reserve(ctx, key, []int{4}, time.Hour); full != -1 {
		t.Fatalf("the fourth on B: full %d, want -1", full)
	}
	for name, rep := range map[string]*shared.Attempts{"A": a, "B": b} {
		full, ends := rep.Reserve(ctx, key, []int{4}, time.Hour)
		if full != 0 || ends.Before(time.Now().Add(59*time.Minute)) || ends.After(time.Now().Add(time.Hour+time.Second)) {
			t.Errorf("a fifth on %s: full %d ending %v, want 0 within the hour's window", name, full, ends)
		}
	}
	b.Release(ctx, key)
	if full, _ := a.Reserve(ctx, key, []int{4}, time.Hour); full != -1 {
		t.Errorf("after B released one: full %d on A, want -1", full)
	}
	a.Forget(ctx, key[0])
	for range 4 {
		if full, _ := b.Reserve(ctx, key, []int{4}, time.Hour); full != -1 {
			t.Errorf("after Forget: full %d on B, want -1", full)
		}
	}
}

// Parallel reservations on two replicas, each of several keys, never pass
// a limit: a key is counted only when all of them are below theirs.
func TestAttemptsReserveInParallel(t *testing.T) {
	r := openAttempts(t, 2)
	ctx := t.Context()
	var ok atomic.Int32
	var wg sync.WaitGroup
	for i := range 60 {
		wg.Go(func() {
			if full, _ := r[i%2].Reserve(ctx, []string{"name", "place"}, []int{10, 7}, time.Hour); full == -1 {
				ok.Add(1)
			}
		})
	}
	wg.Wait()
	if ok.Load() != 7 {
		t.Errorf("%d of 60 parallel attempts reserved, want the smaller limit, 7", ok.Load())
	}
	if full, _ := r[0].Reserve(ctx, []string{"name"}, []int{7}, time.Hour); full != 0 {
		t.Errorf("name alone with limit 7: full %d, want 0 (a refused attempt counts on no key)", full)
	}
}

// With the store down, the replica's own count holds the line.
func TestAttemptsWhileTheStoreIsDown(t *testing.T) {
	st, err := shared.Open("redis://127.0.0.1:1", shared.Options{Prefix: "down:", Timeout: 200 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(st.Close)
	a := shared.NewAttempts(st, session.NewMemoryAttempts(nil, time.Hour))
	for range 2 {
		if full, _ := a.Reserve(t.Context(), []string{"k"}, []int{2}, time.Hour); full != -1 {
			t.Fatalf("store down: full %d, want -1", full)
		}
	}
	if full, _ := a.Reserve(t.Context(), []string{"k"}, []int{2}, time.Hour); full != 0 {
		t.Errorf("store down, a third with limit 2: full %d, want 0", full)
	}
}
