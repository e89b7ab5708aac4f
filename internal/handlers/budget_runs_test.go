package handlers

import (
	"context"
	"sync/atomic"
	"testing"

	"creditdash/internal/upstream"
	"creditdash/internal/upstream/cache"
)

// summaryOnly is a service that answers Summary and nothing else.
type summaryOnly struct {
	cache.Upstream
	asked atomic.Int32
}

func (s *summaryOnly) Summary(context.Context, string, upstream.BusinessRef) (upstream.BusinessSummary, error) {
	s.asked.Add(1)
	return upstream.BusinessSummary{Text: "ok"}, nil
}

// A section's call runs once when the cache holds its copy, and twice
// (a look at the cache, then for real) when it must ask the service; never
// a third time, so a page's data is read once from what arrived.
func TestCallsRunOnceFromTheCache(t *testing.T) {
	svc := &summaryOnly{}
	c, err := cache.New(svc, cache.Options{})
	if err != nil {
		t.Fatal(err)
	}
	h := &Handler{calls: newUserSlots(callsPerUser)}
	gate := func(r *cache.Reader) Source { return r }
	runs := 0
	var got upstream.BusinessSummary
	var gotErr error
	sec := one("summary", func(ctx context.Context, src Source) {
		runs++
		got, gotErr = src.Summary(ctx, upstream.ByID(1001))
	})
	who := cache.Who{User: "u", Key: "k"}

	if spent := h.runAll(context.Background(), c.Reader(who), gate, []section{sec}); spent != 1 || runs != 2 || gotErr != nil || got.Text != "ok" {
		t.Fatalf("cold: spent %d, ran %d times, got %+v, %v; want 1 copy asked for, 2 runs, the answer", spent, runs, got, gotErr)
	}
	runs = 0
	rd := c.Reader(who)
	if spent := h.runAll(context.Background(), rd, gate, []section{sec}); spent != 0 || runs != 1 || gotErr != nil || got.Text != "ok" {
		t.Fatalf("warm: spent %d, ran %d times, got %+v, %v; want nothing asked, 1 run", spent, runs, got, gotErr)
	}
	if rd.Report().Fingerprint == 0 || svc.asked.Load() != 1 {
		t.Errorf("warm: fingerprint %x, service asked %d times; want the copy's fingerprint kept and one call in all", rd.Report().Fingerprint, svc.asked.Load())
	}
}

// A planned page prices its sections by running their calls against the
// cache; a section the plan loads does not run them again from the start:
// a call that must ask the service runs once more, for real, and no call
// runs a third time.
func TestPlannedCallsRunAtMostTwice(t *testing.T) {
	svc := &summaryOnly{}
	c, err := cache.New(svc, cache.Options{})
	if err != nil {
		t.Fatal(err)
	}
	h := &Handler{calls: newUserSlots(callsPerUser)}
	gate := func(r *cache.Reader) Source { return r }
	runs := 0
	var gotErr error
	sec := one("summary", func(ctx context.Context, src Source) {
		runs++
		_, gotErr = src.Summary(ctx, upstream.ByID(1001))
	})
	ctx, rd := context.Background(), c.Reader(cache.Who{User: "u", Key: "k"})
	p := planWithin(ctx, rd, gate, upstream.RateLimit{Limit: 10, Remaining: 5}, nil, []section{sec})
	if !p.load[0] {
		t.Fatal("the plan left the one section unloaded with 5 requests left")
	}
	h.finish(ctx, rd, gate, p.steps[0])
	if runs != 2 || gotErr != nil || svc.asked.Load() != 1 {
		t.Errorf("ran %d times (err %v), service asked %d times; want 2 runs and one call", runs, gotErr, svc.asked.Load())
	}
}
