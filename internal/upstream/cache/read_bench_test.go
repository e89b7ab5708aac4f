package cache_test

import (
	"testing"
	"time"

	"creditdash/internal/upstream"
	"creditdash/internal/upstream/cache"
)

// BenchmarkKeptRead is the cost of a page's read that a kept copy answers:
// a new reader (one per page) and four reads of a report's header and
// scores, as a warm page makes them.
func BenchmarkKeptRead(b *testing.B) {
	f := newFixture(b, cache.Options{})
	ctx, who := f.login(b, "demo")
	ref := upstream.ByID(1001)
	from, to := time.Date(2024, 10, 1, 0, 0, 0, 0, time.UTC), time.Date(2026, 10, 1, 0, 0, 0, 0, time.UTC)
	read := func() {
		r := f.cache.Reader(who)
		if _, err := r.IdentificationGroup(ctx, ref); err != nil {
			b.Fatal(err)
		}
		if _, err := r.NAICSCodes(ctx, ref); err != nil {
			b.Fatal(err)
		}
		if _, err := r.CreditScoreHistory(ctx, ref, from, to); err != nil {
			b.Fatal(err)
		}
		if _, err := r.Folders(ctx); err != nil {
			b.Fatal(err)
		}
	}
	read()
	b.ReportAllocs()
	for b.Loop() {
		read()
	}
}
