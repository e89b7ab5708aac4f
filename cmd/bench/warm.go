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
)

// Figure 2's targets.
const (
	warmP99Target   = 5 * time.Millisecond
	warmRatioTarget = 0.5
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

// warmReport measures figure 2: the report again within the cache
// lifetime, at l.opts.clients concurrent keep-alive clients, against its
// static twin from the same server. Both are asked for gzip, as a browser
// does; the twin is compressed once at start, the page once per version of
// its data (the page cache), with a fresh nonce spliced in per request.
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
		b := newBrowser(web.URL, l.opts.clients)
		if err := b.signIn(ctx, demoUser, demoPassword); err != nil {
			return err
		}
		// The first visit fills the cache; the figure is about the ones after.
		if _, err := b.getOK(ctx, reportPath, true); err != nil {
			return err
		}
		// Page and twin take turns, warmRounds times each, so a burst of
		// other work on the 2 shared cores does not land on one side only;
		// the ratio is of the median rates.
		var pages, statics []loadRun
		for range warmRounds {
			page, err := l.load(ctx, b, reportPath)
			if err != nil {
				return err
			}
			static, err := l.load(ctx, b, "/static/"+twinName)
			if err != nil {
				return err
			}
			pages, statics = append(pages, page), append(statics, static)
		}
		page, static := medianRun(pages), medianRun(statics)
		p50, p99 := figures.Percentile(page.times, 0.50), figures.Percentile(page.times, 0.99)
		l.rep.Info(2, "warm report p50", ms(p50))
		l.rep.Check(2, "warm report p99", ms(p99), "<= "+ms(warmP99Target), p99 <= warmP99Target)
		ratio := page.rate() / static.rate()
		l.rep.Check(2, "warm report / static file throughput", fmt.Sprintf("%.2f (%.0f / %.0f req/s)", ratio, page.rate(), static.rate()),
			fmt.Sprintf(">= %.2f", warmRatioTarget), ratio >= warmRatioTarget)
		l.rep.Note(2, "%d requests each at %d clients, keep-alive, Accept-Encoding: gzip for both, timed client-side on loopback; "+
			"page and static twin alternate %d times, the run of median rate shown; stand-in latency %v; "+
			"page %d bytes (%d gzipped), static twin %s %d bytes (%d gzipped, p50 %s, p99 %s)",
			l.opts.requests, l.opts.clients, warmRounds, warmLatency, len(html), page.bytes/int64(len(page.times)),
			twinName, len(html), static.bytes/int64(len(static.times)),
			ms(figures.Percentile(static.times, 0.5)), ms(figures.Percentile(static.times, 0.99)))
		return nil
	})
	if err != nil {
		l.rep.Broken(2, what, err)
	}
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

// load requests path l.opts.requests times from l.opts.clients goroutines
// after a short warm-up of the connections, and times each request.
func (l *lab) load(ctx context.Context, b *browser, path string) (loadRun, error) {
	if _, err := l.hammer(ctx, b, path, l.opts.clients*10); err != nil {
		return loadRun{}, err
	}
	return l.hammer(ctx, b, path, l.opts.requests)
}

func (l *lab) hammer(ctx context.Context, b *browser, path string, n int) (loadRun, error) {
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
	for range l.opts.clients {
		wg.Go(func() {
			for range next {
				r, err := b.get(ctx, path, true)
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
