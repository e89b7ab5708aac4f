package shared_test

import (
	"testing"
	"time"

	"creditdash/internal/handlers"
	"creditdash/internal/shared"
	"creditdash/internal/shared/redistest"
)

// Attempts counted on one replica hold on the other, for their window;
// a forgotten count is gone on both.
func TestAttemptsAreShared(t *testing.T) {
	url, prefix := redistest.URL(t), redistest.Prefix(t)
	open := func() *shared.Attempts {
		st, err := shared.Open(url, shared.Options{Prefix: prefix})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(st.Close)
		return shared.NewAttempts(st, handlers.NewMemoryAttempts(nil, time.Hour))
	}
	a, b := open(), open()
	ctx := t.Context()
	for range 3 {
		a.Add(ctx, "fdemo\x00127.0.0.1", time.Hour)
	}
	b.Add(ctx, "fdemo\x00127.0.0.1", time.Hour)
	for name, r := range map[string]*shared.Attempts{"A": a, "B": b} {
		n, ends := r.Count(ctx, "fdemo\x00127.0.0.1")
		if n != 4 || ends.Before(time.Now().Add(59*time.Minute)) || ends.After(time.Now().Add(time.Hour+time.Second)) {
			t.Errorf("on %s: %d attempts ending %v, want 4 within the hour's window", name, n, ends)
		}
	}
	b.Forget(ctx, "fdemo\x00127.0.0.1")
	if n, _ := b.Count(ctx, "fdemo\x00127.0.0.1"); n != 0 {
		t.Errorf("after Forget: %d attempts on B, want 0", n)
	}
	if n, _ := a.Count(ctx, "fdemo\x00127.0.0.1"); n != 3 {
		// A still counts its own three in memory: a store that lost
		// them must not give them back, and the local count says so.
		t.Errorf("after Forget on B: %d attempts on A, want its own 3", n)
	}
}

// With the store down, the replica's own count holds the line.
func TestAttemptsWhileTheStoreIsDown(t *testing.T) {
	st, err := shared.Open("redis://127.0.0.1:1", shared.Options{Prefix: "down:", Timeout: 200 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(st.Close)
	a := shared.NewAttempts(st, handlers.NewMemoryAttempts(nil, time.Hour))
	for range 2 {
		a.Add(t.Context(), "k", time.Hour)
	}
	if n, _ := a.Count(t.Context(), "k"); n != 2 {
		t.Errorf("store down: %d attempts, want this replica's 2", n)
	}
}
