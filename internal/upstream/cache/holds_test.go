package cache_test

import (
	"errors"
	"testing"
	"time"

	"creditdash/internal/upstream"
	"creditdash/internal/upstream/cache"
)

// TestHoldsTheCopiesAPageRead: what a page read holds while the very same
// copies are fresh; a Refresh, a copy past its lifetime, or a missing copy
// that has since arrived end it.
func TestHoldsTheCopiesAPageRead(t *testing.T) {
	f := newFixture(t, cache.Options{})
	ctx, who := f.login(t, "demo")
	ref := upstream.ByID(1001)
	rd := f.cache.Reader(who)
	if _, err := rd.Summary(ctx, ref); err != nil {
		t.Fatal(err)
	}
	deps := rd.Report().Deps
	if len(deps) != 1 || !f.cache.Holds(deps) {
		t.Fatalf("a copy just read: %d deps, held %v; want one, held", len(deps), f.cache.Holds(deps))
	}
	f.cache.Forget("demo", rd.Report().Copies)
	if f.cache.Holds(deps) {
		t.Error("a forgotten copy is still held")
	}
	rd = f.cache.Reader(who)
	rd.Summary(ctx, ref) // a new copy
	if f.cache.Holds(deps) {
		t.Error("a replaced copy is held under its old version")
	}
	deps = rd.Report().Deps
	f.clock.Add(2 * time.Hour)
	if f.cache.Holds(deps) {
		t.Error("an expired copy is held")
	}

	probe := f.cache.Reader(who).Probe(nil)
	if _, err := probe.Officers(ctx, ref); !errors.Is(err, cache.ErrNotCached) {
		t.Fatalf("probe of officers not read yet: %v", err)
	}
	missing := probe.Report().Deps
	if len(missing) != 1 || !f.cache.Holds(missing) {
		t.Fatalf("a copy found missing: %d deps, held %v; want one, held while still missing", len(missing), f.cache.Holds(missing))
	}
	f.cache.Reader(who).Officers(ctx, ref)
	if f.cache.Holds(missing) {
		t.Error("a copy found missing is held once it has arrived")
	}
}
