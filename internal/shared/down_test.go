package shared_test

import (
	"context"
	"testing"
	"time"

	"creditdash/internal/shared/redistest"
	"creditdash/internal/upstream"
	"creditdash/internal/upstream/cache"
)

// With the store gone, reads still answer (from the first level, or the
// service through each replica's own budget), none waits long on the
// store, the store shows as degraded, and its return is picked up.
func TestStoreDownAndBack(t *testing.T) {
	srv := redistest.Start(t)
	r := newReplicas(t, srv.URL(), 0, cache.Options{})
	who := r.login(t, "ordinary")
	ctx := context.Background()
	if _, err := r.a.Reader(who).Summary(ctx, upstream.ByID(1001)); err != nil {
		t.Fatal(err)
	}
	// The server's news of A's own write drops A's copy; read until the
	// shared copy settles in A's first level.
	eventually(t, "a copy in A's first level", func() bool {
		_, _ = r.a.Reader(who).Summary(ctx, upstream.ByID(1001))
		return r.a.Size() > 0
	})
	srv.Stop()
	// Changes may go unheard from now on: the first level starts afresh.
	eventually(t, "A's first level cleared when the connection dropped", func() bool { return r.a.Size() == 0 })
	for i, id := range []int32{1001, 1002, 1003, 1004, 1001} {
		for name, c := range map[string]*cache.Cache{"A": r.a, "B": r.b} {
			start := time.Now()
			if _, err := c.Reader(who).Summary(ctx, upstream.ByID(id)); err != nil {
				t.Errorf("read %d on %s with the store down: %v", i, name, err)
			}
			// The service answers in about a millisecond: the rest is
			// the store's timeout, at most once.
			if d := time.Since(start); d > 400*time.Millisecond {
				t.Errorf("read %d on %s took %v with the store down", i, name, d)
			}
		}
	}
	if r.sa.Errors() == 0 || r.sb.Errors() == 0 {
		t.Errorf("store errors counted: A %d, B %d; want some on both", r.sa.Errors(), r.sb.Errors())
	}
	if r.sa.Degraded() == nil || r.sb.Degraded() == nil {
		t.Errorf("degraded: A %v, B %v; want both to say the store is down", r.sa.Degraded(), r.sb.Degraded())
	}
	if _, ok := r.a.Quota("ordinary"); !ok {
		t.Error("no quota on A with the store down: the replica's own book should know it")
	}
	srv.Resume()
	eventually(t, "the store's return noticed", func() bool { return r.sa.Degraded() == nil && r.sb.Degraded() == nil })
	// Shared again: a copy made on A is B's without a call.
	if _, err := r.a.Reader(who).Summary(ctx, upstream.ByID(1010)); err != nil {
		t.Fatal(err)
	}
	before := r.sim.Requests()["ordinary"]["/v1/Business/Summary"]
	if _, err := r.b.Reader(who).Summary(ctx, upstream.ByID(1010)); err != nil {
		t.Fatal(err)
	}
	if n := r.sim.Requests()["ordinary"]["/v1/Business/Summary"] - before; n != 0 {
		t.Errorf("B asked the service %d times after the store came back, want 0", n)
	}
}
