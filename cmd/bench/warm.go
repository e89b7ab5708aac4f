package main

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"time"

	"creditdash/internal/figures"
	"creditdash/internal/upstream/simulator"
)

// Figure 2's targets: the page's throughput as a share of its static
// twin's, with gzip (as browsers ask) and without (scripts, proxies), and
// its sequential p50 as a multiple of the twin's.
const (
	warmP99Target      = 5 * time.Millisecond
	warmRatioGzip      = 0.7
	warmRatioPlain     = 0.5
	warmSequentialMost = 1.5
)

// warmLatency is the stand-in's latency while the warm figure runs: a page
// that still went to the service would show it at once.
const warmLatency = 50 * time.Millisecond

// twinName is the static twin of the report: a file of the page's own
// bytes (so the same size, and as compressible), served by the same server.
const twinName = "bench/page.html"

// staticParts are the folders of static/ that bin/web embeds.
var staticParts = []string{"css", "img", "js", "vendor"}

// copyStatic copies the embedded folders of src into dir/static, for
// STATIC_DIR, and returns that folder.
func copyStatic(src, dir string) (string, error) {
	out := filepath.Join(dir, "static")
	for _, part := range staticParts {
		if err := os.CopyFS(filepath.Join(out, part), os.DirFS(filepath.Join(src, part))); err != nil {
			return "", fmt.Errorf("bench: copying %s: %w", src, err)
		}
	}
	return out, nil
}

// warmCase is one way of asking for the warm report: by how many distinct
// users, over how many connections, with gzip or not.
type warmCase struct {
	name    string
	users   int // distinct signed-in users, the clients spread over them
	clients int
	gzip    bool
	target  float64 // least throughput ratio; 0: the p50 ratio is the figure
}

// warmCases are figure 2's measures, each against the static twin asked
// the same way.
func (l *lab) warmCases() []warmCase {
	n := l.opts.clients
	return []warmCase{
		{"1 user, gzip", 1, n, true, warmRatioGzip},
		{"1 user, no gzip", 1, n, false, warmRatioPlain},
		{fmt.Sprintf("%d users, gzip", warmUsers), warmUsers, max(n, warmUsers), true, warmRatioGzip},
		{fmt.Sprintf("%d users, no gzip", warmUsers), warmUsers, max(n, warmUsers), false, warmRatioPlain},
		{"sequential, gzip", 1, 1, true, 0},
	}
}

// warmUsers is how many distinct analysts the multi-user measures sign in
// (the stand-in's load1..loadN, each with the demo user's data).
const warmUsers = 8

// warmReport measures figure 2: the report again within the cache
// lifetime, against its static twin from the same server, for each of
// warmCases. The twin is compressed once at start; the page once per
// version of its data and encoding (the page cache).
func (l *lab) warmReport(ctx context.Context, html []byte) {
	const what = "warm report"
	if len(html) == 0 {
		l.rep.Skipped(2, what, "no page from figure 1")
		return
	}
	twin := filepath.Join(l.staticDir, filepath.FromSlash(twinName))
	if err := os.MkdirAll(filepath.Dir(twin), 0o755); err != nil {
		l.rep.Broken(2, what, err)
		return
	}
	if err := os.WriteFile(twin, html, 0o644); err != nil {
		l.rep.Broken(2, what, err)
		return
	}
	if err := l.sim.SetLatency(ctx, warmLatency); err != nil {
		l.rep.Broken(2, what, err)
		return
	}
	err := l.withDashboard(ctx, l.staticDir, func(web *figures.Child) error {
		demo := newBrowser(web.URL, l.opts.clients)
		if err := demo.signIn(ctx, demoUser, demoPassword); err != nil {
			return err
		}
		analysts := make([]*browser, warmUsers)
		for i := range analysts {
			analysts[i] = newBrowser(web.URL, 1)
			if err := analysts[i].signIn(ctx, fmt.Sprintf("%s%d", simulator.AnalystPrefix, i+1), demoPassword); err != nil {
				return err
			}
		}
		// The first visits fill the cache; the figure is about the ones after.
		for _, b := range append([]*browser{demo}, analysts...) {
			for _, gz := range []bool{true, false} {
				if _, err := b.getOK(ctx, reportPath, gz); err != nil {
					return err
				}
			}
		}
		for _, wc := range l.warmCases() {
			who := []*browser{demo}
			if wc.users > 1 {
				who = analysts[:wc.users]
			}
			page, static, err := l.alternate(ctx, who, wc)
			if err != nil {
				return err
			}
			l.warmFigures(wc, page, static)
		}
		l.rep.Note(2, "%d requests a measure, keep-alive, timed client-side on loopback; page and static twin alternate %d times, "+
			"the run of median rate shown; stand-in latency %v; page %d bytes, static twin %s of the same bytes; "+
			"%d users are the stand-in's %s1..%s%d, each with the demo user's data",
			l.opts.requests, warmRounds, warmLatency, len(html), twinName,
			warmUsers, simulator.AnalystPrefix, simulator.AnalystPrefix, warmUsers)
		return nil
	})
	if err != nil {
		l.rep.Broken(2, what, err)
	}
}

// alternate measures the page and its twin in turn, warmRounds times each,
// so a burst of other work on the 2 shared cores does not land on one side
// only, and returns the runs of median rate.
func (l *lab) alternate(ctx context.Context, who []*browser, wc warmCase) (page, static loadRun, err error) {
	var pages, statics []loadRun
	for range warmRounds {
		p, err := l.load(ctx, who, wc, reportPath)
		if err != nil {
			return page, static, err
		}
		s, err := l.load(ctx, who, wc, "/static/"+twinName)
		if err != nil {
			return page, static, err
		}
		pages, statics = append(pages, p), append(statics, s)
	}
	return medianRun(pages), medianRun(statics), nil
}

// warmFigures prints one case's lines: the throughput ratio, or for the
// sequential case the p50 ratio.
func (l *lab) warmFigures(wc warmCase, page, static loadRun) {
	p50, s50 := figures.Percentile(page.times, 0.50), figures.Percentile(static.times, 0.50)
	if wc.target == 0 {
		ratio := float64(p50) / float64(max(s50, 1))
		l.rep.Check(2, "warm report p50 / static file p50, "+wc.name, fmt.Sprintf("%.2f (%s / %s)", ratio, ms(p50), ms(s50)),
			fmt.Sprintf("<= %.1f", warmSequentialMost), ratio <= warmSequentialMost)
		return
	}
	ratio := page.rate() / static.rate()
	l.rep.Check(2, "warm report / static file req/s, "+wc.name, fmt.Sprintf("%.2f (%.0f / %.0f)", ratio, page.rate(), static.rate()),
		fmt.Sprintf(">= %.1f", wc.target), ratio >= wc.target)
	p99 := figures.Percentile(page.times, 0.99)
	l.rep.Check(2, "warm report p50 / p99, "+wc.name, ms(p50)+" / "+ms(p99), "p99 <= "+ms(warmP99Target), p99 <= warmP99Target)
	l.rep.Note(2, "%s: %d clients; page %d bytes a response, twin %d (p50 %s, p99 %s)", wc.name, wc.clients,
		page.bytes/int64(len(page.times)), static.bytes/int64(len(static.times)),
		ms(s50), ms(figures.Percentile(static.times, 0.99)))
}

// warmRounds is how many times page and twin are measured in turn.
const warmRounds = 3

// medianRun is the run of median rate.
func medianRun(runs []loadRun) loadRun {
	sorted := slices.Clone(runs)
	slices.SortFunc(sorted, func(a, b loadRun) int {
		switch {
		case a.rate() < b.rate():
			return -1
		case a.rate() > b.rate():
			return 1
		}
		return 0
	})
	return sorted[len(sorted)/2]
}

// loadRun is the outcome of one load measure.
type loadRun struct {
	times []time.Duration // sorted
	wall  time.Duration
	bytes int64 // body bytes received
}

// rate is requests per second.
func (r loadRun) rate() float64 { return float64(len(r.times)) / r.wall.Seconds() }

// load requests path l.opts.requests times from wc.clients goroutines,
// spread over the browsers of who, after a short warm-up of the
// connections, and times each request.
func (l *lab) load(ctx context.Context, who []*browser, wc warmCase, path string) (loadRun, error) {
	if _, err := hammer(ctx, who, wc, path, wc.clients*10); err != nil {
		return loadRun{}, err
	}
	return hammer(ctx, who, wc, path, l.opts.requests)
}

func hammer(ctx context.Context, who []*browser, wc warmCase, path string, n int) (loadRun, error) {
	var (
		mu    sync.Mutex
		run   loadRun
		first error
		next  = make(chan struct{}, n)
		wg    sync.WaitGroup
	)
	for range n {
		next <- struct{}{}
	}
	close(next)
	t0 := time.Now()
	for i := range wc.clients {
		b := who[i%len(who)]
		wg.Go(func() {
			for range next {
				r, err := b.get(ctx, path, wc.gzip)
				if err == nil && r.status != http.StatusOK {
					err = fmt.Errorf("bench: GET %s: status = %d, want 200", path, r.status)
				}
				mu.Lock()
				if err != nil && first == nil {
					first = err
				}
				run.times = append(run.times, r.elapsed)
				run.bytes += int64(len(r.body))
				mu.Unlock()
				if err != nil {
					return
				}
			}
		})
	}
	wg.Wait()
	run.wall = time.Since(t0)
	slices.Sort(run.times)
	return run, first
}
