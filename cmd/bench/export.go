package main

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"slices"
	"time"

	"creditdash/internal/figures"
)

// Figure 4's targets.
const (
	exportMemTarget   = 16 << 20
	exportRatioTarget = 0.9
)

// download is one timed export.
type download struct {
	bytes   int64
	elapsed time.Duration
}

func (d download) rate() float64 { return float64(d.bytes) / d.elapsed.Seconds() }

// export measures figure 4: the bulk user's CSV through the dashboard
// against the same file straight from the stand-in, alternating so that
// both see the same machine, with the dashboard's peak memory growth
// during each proxied run.
func (l *lab) export(ctx context.Context) {
	const what = "export"
	if l.opts.rows == 0 {
		l.rep.Skipped(4, what, "-rows 0")
		return
	}
	if err := l.sim.SetLatency(ctx, 0); err != nil {
		l.rep.Broken(4, what, err)
		return
	}
	err := l.withDashboard(ctx, "", func(web *figures.Child) error {
		b := newBrowser(web.URL, 1)
		if err := b.signIn(ctx, bulkUser, demoPassword); err != nil {
			return err
		}
		key, err := l.sim.Login(ctx, bulkUser, demoPassword)
		if err != nil {
			return err
		}
		var direct, proxied []download
		var growth []int64
		memOK := true
		for range l.opts.exportRuns {
			d, err := fetchAll(ctx, l.sim.HTTP(), l.sim.URL+"/v1/Portfolio/Download?format=CSV", "Bearer "+key)
			if err != nil {
				return err
			}
			direct = append(direct, d)

			before, err := figures.ProcStatus(web.PID(), "VmRSS")
			if err == nil {
				err = figures.ResetPeak(web.PID())
			}
			if err != nil {
				memOK = false
				l.rep.Note(4, "memory not measured: %v", err)
			}
			p, err := fetchAll(ctx, b.http, web.URL+"/portfolio/export?format=csv", "")
			if err != nil {
				return err
			}
			proxied = append(proxied, p)
			if memOK {
				peak, err := figures.ProcStatus(web.PID(), "VmHWM")
				if err != nil {
					return err
				}
				growth = append(growth, peak-before)
			}
		}
		if memOK {
			worst := slices.Max(growth)
			l.rep.Check(4, "export: dashboard peak memory growth", mib(worst), "<= "+mib(exportMemTarget), worst <= exportMemTarget)
			l.rep.Note(4, "memory growth = VmHWM after - VmRSS before (peak reset through clear_refs), largest of %d runs: %s", len(growth), mibs(growth))
		}
		dRate, pRate := medianRate(direct), medianRate(proxied)
		ratio := pRate / dRate
		l.rep.Check(4, "export: throughput / direct download", fmt.Sprintf("%.2f (%.0f / %.0f MB/s)", ratio, pRate/1e6, dRate/1e6),
			fmt.Sprintf(">= %.2f", exportRatioTarget), ratio >= exportRatioTarget)
		l.rep.Note(4, "%d businesses, CSV: %d bytes direct, %d through the dashboard; medians of %d alternating runs each, read and discarded by the bench; MB/s direct %s, through the dashboard %s",
			l.opts.rows, direct[0].bytes, proxied[0].bytes, l.opts.exportRuns, rates(direct), rates(proxied))
		if direct[0].bytes != proxied[0].bytes {
			l.rep.Note(4, "the two downloads differ in size: compare the files by hand")
		}
		return nil
	})
	if err != nil {
		l.rep.Broken(4, what, err)
	}
}

// fetchAll downloads url, discarding the body, and times it to the last byte.
func fetchAll(ctx context.Context, client *http.Client, url, auth string) (download, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return download{}, err
	}
	if auth != "" {
		req.Header.Set("Authorization", auth)
	}
	t0 := time.Now()
	resp, err := client.Do(req)
	if err != nil {
		return download{}, fmt.Errorf("bench: download: %w", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return download{}, fmt.Errorf("bench: download %s: status = %d, want 200", req.URL.Path, resp.StatusCode)
	}
	n, err := io.CopyBuffer(io.Discard, resp.Body, make([]byte, 256<<10))
	if err != nil {
		return download{}, fmt.Errorf("bench: download %s after %d bytes: %w", req.URL.Path, n, err)
	}
	return download{bytes: n, elapsed: time.Since(t0)}, nil
}

func medianRate(ds []download) float64 {
	rates := make([]float64, len(ds))
	for i, d := range ds {
		rates[i] = d.rate()
	}
	return figures.Median(rates)
}

// rates lists download speeds in MB/s, in run order.
func rates(ds []download) string {
	s := ""
	for i, d := range ds {
		if i > 0 {
			s += ", "
		}
		s += fmt.Sprintf("%.1f", d.rate()/1e6)
	}
	return s
}

func mibs(ns []int64) string {
	s := ""
	for i, n := range ns {
		if i > 0 {
			s += ", "
		}
		s += mib(n)
	}
	return s
}
