package handlers

import (
	"context"
	"errors"
	"fmt"
	"net/http/httptest"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"creditdash/internal/middleware"
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

// A section's call runs once, whether the cache holds its copy or it must
// ask the service: a page's data is read once, from what arrived.
func TestCallsRunOnce(t *testing.T) {
	c, sim, who := standInCache(t)
	h := &Handler{gates: gates{calls: middleware.NewUserSlots(callsPerUser)}}
	gate := func(r *cache.Reader) Source { return &r.User }
	runs := 0
	var got upstream.BusinessSummary
	var gotErr error
	sec := one("summary", func(ctx context.Context, src Source) {
		runs++
		got, gotErr = src.Summary(ctx, upstream.ByID(1001))
	})

	if _, spent := h.runSections(context.Background(), c.Reader(who), gate, []section{sec}, nil); spent != 1 || runs != 1 || gotErr != nil || got.Text == "" {
		t.Fatalf("cold: spent %d, ran %d times, got %+v, %v; want 1 copy asked for, 1 run, the answer", spent, runs, got, gotErr)
	}
	runs = 0
	rd := c.Reader(who)
	if _, spent := h.runSections(context.Background(), rd, gate, []section{sec}, nil); spent != 0 || runs != 1 || gotErr != nil || got.Text == "" {
		t.Fatalf("warm: spent %d, ran %d times, got %+v, %v; want nothing asked, 1 run", spent, runs, got, gotErr)
	}
	if rd.Report().Fingerprint == 0 || summaryCalls(sim) != 1 {
		t.Errorf("warm: fingerprint %x, service asked %d times; want the copy's fingerprint kept and one call in all", rd.Report().Fingerprint, summaryCalls(sim))
	}
}

// A planned page prices its sections while their calls run: a call that
// must ask the service waits for the plan, then fetches or answers its
// section's offer. No call runs twice; a section whose copy the cache holds
// costs nothing and is shown whatever is left.
func TestPlannedCallsRunOnce(t *testing.T) {
	c, sim, who := standInCache(t)
	h := &Handler{gates: gates{calls: middleware.NewUserSlots(callsPerUser)}}
	gate := func(r *cache.Reader) Source { return &r.User }
	ctx := context.Background()
	if _, err := c.Reader(who).Summary(ctx, upstream.ByID(1001)); err != nil {
		t.Fatal(err)
	}
	var runs [3]atomic.Int32
	var errs [3]error
	var secs []section
	for i, id := range []int32{1002, 1001, 1003} {
		secs = append(secs, one(fmt.Sprint("s", i), func(ctx context.Context, src Source) {
			runs[i].Add(1)
			_, errs[i] = src.Summary(ctx, upstream.ByID(id))
		}))
	}
	var costs []int
	p, spent := h.runSections(ctx, c.Reader(who), gate, secs, func(cs []int) plan {
		costs = slices.Clone(cs)
		return planWithin(upstream.RateLimit{Limit: 10, Remaining: 1}, nil, secs, cs)
	})
	if !slices.Equal(costs, []int{1, 0, 1}) || !slices.Equal(p.Load, []bool{true, true, false}) || spent != 1 {
		t.Fatalf("costs %v, loaded %v, spent %d; want [1 0 1], the first two loaded, 1 copy asked for", costs, p.Load, spent)
	}
	for i := range runs {
		if n := runs[i].Load(); n != 1 {
			t.Errorf("section %d ran %d times, want once", i, n)
		}
	}
	var offer *deferredError
	if errs[0] != nil || errs[1] != nil || !errors.As(errs[2], &offer) || offer.cost != 1 || offer.left != 0 {
		t.Errorf("errors %v; want two answers and the third section's offer (cost 1, none left)", errs)
	}
	if n := summaryCalls(sim); n != 2 {
		t.Errorf("service asked for %d summaries, want 2 (the warm-up and the planned one)", n)
	}
}
