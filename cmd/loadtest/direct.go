package main

import (
	"context"
	"fmt"
	"net/http"
	"runtime"
	"strings"
	"sync"
	"time"
)

// Figure 2's target: the dashboard serves at least this share of the pages
// per second that its service calls alone would allow.
const ratioTarget = 0.8

// direct measures figure 2: the same analysts, seeds and concurrency as
// figure 1, each page replaced by the service calls it cost the dashboard
// when cold (learnt by calibrate), made concurrently straight to the
// stand-in. Each worker keeps an ideal cache (every answer fresh for the
// dashboard's CACHE_TTL, per user) so that a warm page costs it what it
// should cost the dashboard: nothing. With -direct-cold it keeps nothing,
// and every page makes all its calls.
func (l *lab) direct(ctx context.Context, first *analystsRun) {
	const fig, what = 2, "throughput / direct"
	if first == nil {
		l.rep.Skipped(fig, what, "needs figure 1")
		return
	}
	o := l.opts
	keys := make([]string, o.analysts)
	errs := make([]error, o.analysts)
	sem := make(chan struct{}, 16)
	var wg sync.WaitGroup
	for i := range keys {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			keys[i], errs[i] = l.sim.Login(ctx, analyst(i+1), password)
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			l.rep.Broken(fig, what, err)
			return
		}
	}
	if err := l.sim.Reset(ctx); err != nil {
		l.rep.Broken(fig, what, err)
		return
	}
	cpuBefore, err := l.othersCPU()
	if err != nil {
		l.rep.Broken(fig, what, err)
		return
	}
	t := newTally()
	start := time.Now()
	deadline := start.Add(o.duration)
	runCtx, cancel := context.WithTimeout(ctx, o.duration+requestTimeout)
	defer cancel()
	for i, key := range keys {
		wg.Add(1)
		go func() {
			defer wg.Done()
			w := &directWorker{base: l.sim.URL, auth: "Bearer " + key, ttl: o.ttl, cold: o.directCold, plan: &first.plan,
				fresh: map[string]time.Time{},
				http:  &http.Client{Timeout: requestTimeout, Transport: &http.Transport{MaxIdleConnsPerHost: 8}}}
			defer w.http.CloseIdleConnections()
			m := newMixer(analystMix, uint64(i+1))
			for n := 0; n < perWorker && time.Now().Before(deadline) && runCtx.Err() == nil; n++ {
				p := m.next()
				t.add(p.kind, w.page(runCtx, p))
			}
		}()
	}
	wg.Wait()
	wall := time.Since(start)
	cpuAfter, err := l.othersCPU()
	if err != nil {
		l.rep.Broken(fig, what, err)
		return
	}
	counts, err := l.sim.Requests(ctx)
	if err != nil {
		l.rep.Broken(fig, what, err)
		return
	}
	calls, _ := callsOf(counts, func(u string) bool { return isLoadUser(u, o.analysts) })
	directRate := float64(t.count()) / wall.Seconds()
	ratio := first.rate() / directRate
	l.rep.Check(fig, "dashboard / direct throughput", fmt.Sprintf("%.2f (%.0f / %.0f pages/s)", ratio, first.rate(), directRate),
		fmt.Sprintf(">= %.2f", ratioTarget), ratio >= ratioTarget)
	// However little the dashboard spent, its pages would still cost the
	// load tool and the stand-in what they cost in figure 1 (the stand-in
	// at the fewest calls a page needs, the direct run's): on these cores
	// that bounds the ratio from above.
	ceiling, perPage := ceilingRate(runtime.NumCPU(), first.toolPerPage, first.standInPerCall, float64(calls)/float64(max(t.count(), 1)))
	l.rep.Info(fig, "ceiling: a dashboard that cost nothing", fmt.Sprintf("%.2f (%.0f pages/s)", ceiling/directRate, ceiling))
	var plans []string
	for k := range numKinds {
		plans = append(plans, fmt.Sprintf("%s: %s", k, describe(first.plan[k])))
	}
	kept := fmt.Sprintf("with a per-user cache of %v", o.ttl)
	if o.directCold {
		kept = "with no cache (-direct-cold)"
	}
	l.rep.Note(fig, "direct: %d pages in %v by %d workers (same users and page draws as figure 1), %d service calls (%.2f per page), each page's calls made at once straight to the stand-in %s; calls per page, learnt cold through the dashboard: %s",
		t.count(), wall.Round(time.Millisecond), o.analysts, calls, float64(calls)/float64(max(t.count(), 1)), kept, strings.Join(plans, "; "))
	l.rep.Note(fig, "the ceiling: %d cores / %.2f ms per page view, what the load tool and the stand-in spent in figure 1 (tool %.2f ms a page, stand-in %.3f ms a call, at the direct run's calls per page); the direct run itself kept %.1f cores busy in those two processes",
		runtime.NumCPU(), ms64(perPage), ms64(first.toolPerPage), ms64(first.standInPerCall),
		(cpuAfter.tool-cpuBefore.tool+cpuAfter.standIn-cpuBefore.standIn).Seconds()/wall.Seconds())
	if fails := t.failures(); len(fails) > 0 {
		l.rep.Note(fig, "direct pages with a failed call: %s", statuses(fails))
	}
}

// directWorker is one analyst calling the service itself.
type directWorker struct {
	base, auth string
	ttl        time.Duration
	cold       bool // keeps no answers
	plan       *[numKinds]map[string]int
	fresh      map[string]time.Time // call -> until when its answer is fresh
	http       *http.Client
}

// page makes the page's calls that are not fresh, all at once, and returns
// the worst status and the time until the last answered.
func (w *directWorker) page(ctx context.Context, p page) outcome {
	var urls []string
	now := time.Now()
	for path, n := range w.plan[p.kind] {
		u := w.base + path
		switch {
		case strings.HasPrefix(path, "/v1/Business/"):
			u += fmt.Sprintf("?id=%d", p.business)
		case path == "/v1/Portfolio/Download":
			u += "?format=CSV"
		}
		// An export is a download, never cached.
		if until, ok := w.fresh[u]; ok && now.Before(until) && p.kind != kindExport && !w.cold {
			continue
		}
		w.fresh[u] = now.Add(w.ttl)
		for range n {
			urls = append(urls, u)
		}
	}
	t0 := time.Now()
	results := make([]outcome, len(urls))
	var wg sync.WaitGroup
	for i, u := range urls {
		wg.Add(1)
		go func() {
			defer wg.Done()
			results[i] = fetch(ctx, w.http, u, "Authorization", w.auth)
		}()
	}
	wg.Wait()
	out := outcome{status: http.StatusOK, elapsed: time.Since(t0)}
	for _, r := range results {
		if r.err != nil || r.status != http.StatusOK {
			out.status, out.err = r.status, r.err
		}
	}
	return out
}

// ceilingRate is the most pages a second the cores allow when a page view
// costs the load tool toolPerPage and the stand-in standInPerCall for each
// of callsPerPage calls, and the dashboard nothing; perPage is that cost.
func ceilingRate(cores int, toolPerPage, standInPerCall time.Duration, callsPerPage float64) (rate float64, perPage time.Duration) {
	perPage = toolPerPage + time.Duration(float64(standInPerCall)*callsPerPage)
	return float64(cores) / max(perPage, time.Microsecond).Seconds(), perPage
}
