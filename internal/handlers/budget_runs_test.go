package handlers

import (
	"context"
	"net/http/httptest"
	"testing"
	"time"

	"creditdash/internal/upstream"
	"creditdash/internal/upstream/cache"
	"creditdash/internal/upstream/simulator"
)

// standInCache is a cache in front of the stand-in service, and the
// stand-in, with demo signed in.
func standInCache(t *testing.T) (*cache.Cache, *simulator.Server, cache.Who) {
	t.Helper()
	sim := simulator.New(simulator.Generate(simulator.GenerateOptions{Seed: 1, AsOf: time.Date(2026, 10, 1, 0, 0, 0, 0, time.UTC)}),
		simulator.Options{SessionTTL: time.Hour})
	srv := httptest.NewServer(sim)
	t.Cleanup(srv.Close)
	client, err := upstream.New(srv.URL, upstream.Options{Timeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	res, err := client.Login(context.Background(), "demo", "demo")
	if err != nil {
		t.Fatal(err)
	}
	c, err := cache.New(client, cache.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return c, sim, cache.Who{User: "demo", Key: res.SessionKey}
}

// summaryCalls is how many times the stand-in was asked for a summary.
func summaryCalls(sim *simulator.Server) int { return sim.Requests()["demo"]["/v1/Business/Summary"] }

// A section's call runs once when the cache holds its copy, and twice
// (a look at the cache, then for real) when it must ask the service; never
// a third time, so a page's data is read once from what arrived.
func TestCallsRunOnceFromTheCache(t *testing.T) {
	c, sim, who := standInCache(t)
	h := &Handler{calls: newUserSlots(callsPerUser)}
	gate := func(r *cache.Reader) Source { return &r.User }
	runs := 0
	var got upstream.BusinessSummary
	var gotErr error
	sec := one("summary", func(ctx context.Context, src Source) {
		runs++
		got, gotErr = src.Summary(ctx, upstream.ByID(1001))
	})

	if spent := h.runAll(context.Background(), c.Reader(who), gate, []section{sec}); spent != 1 || runs != 2 || gotErr != nil || got.Text == "" {
		t.Fatalf("cold: spent %d, ran %d times, got %+v, %v; want 1 copy asked for, 2 runs, the answer", spent, runs, got, gotErr)
	}
	runs = 0
	rd := c.Reader(who)
	if spent := h.runAll(context.Background(), rd, gate, []section{sec}); spent != 0 || runs != 1 || gotErr != nil || got.Text == "" {
		t.Fatalf("warm: spent %d, ran %d times, got %+v, %v; want nothing asked, 1 run", spent, runs, got, gotErr)
	}
	if rd.Report().Fingerprint == 0 || summaryCalls(sim) != 1 {
		t.Errorf("warm: fingerprint %x, service asked %d times; want the copy's fingerprint kept and one call in all", rd.Report().Fingerprint, summaryCalls(sim))
	}
}

// A planned page prices its sections by running their calls against the
// cache; a section the plan loads does not run them again from the start:
// a call that must ask the service runs once more, for real, and no call
// runs a third time.
func TestPlannedCallsRunAtMostTwice(t *testing.T) {
	c, sim, who := standInCache(t)
	h := &Handler{calls: newUserSlots(callsPerUser)}
	gate := func(r *cache.Reader) Source { return &r.User }
	runs := 0
	var gotErr error
	sec := one("summary", func(ctx context.Context, src Source) {
		runs++
		_, gotErr = src.Summary(ctx, upstream.ByID(1001))
	})
	ctx, rd := context.Background(), c.Reader(who)
	p := planWithin(ctx, rd, gate, upstream.RateLimit{Limit: 10, Remaining: 5}, nil, []section{sec})
	if !p.load[0] {
		t.Fatal("the plan left the one section unloaded with 5 requests left")
	}
	h.finish(ctx, rd, gate, p.steps[0])
	if runs != 2 || gotErr != nil || summaryCalls(sim) != 1 {
		t.Errorf("ran %d times (err %v), service asked %d times; want 2 runs and one call", runs, gotErr, summaryCalls(sim))
	}
}
