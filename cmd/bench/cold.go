package main

import (
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"io"
	"time"

	"creditdash/internal/figures"
)

// reportPath is the business report every page figure uses.
const reportPath = "/businesses/1001"

// The users of the stand-in's demo data the figures sign in as.
const (
	demoUser     = "demo"           // API User, unlimited: the analyst being measured
	warmUser     = "trade"          // another unlimited user, to warm a new process
	budgetPath   = "/news/industry" // a page sharing no data with the report
	bulkUser     = "bulk"           // the export's million-business portfolio
	demoPassword = "demo"
)

// coldLatencies are the stand-in's fixed latencies L of figure 1.
var coldLatencies = []time.Duration{50 * time.Millisecond, 200 * time.Millisecond}

// coldTarget is the most a cold report may take, as a multiple of L.
const coldTarget = 1.15

// coldReport measures figure 1 and returns the report's HTML as a browser
// sees it (uncompressed), for figure 2's static twin.
//
// Each sample is a new bin/web, so its cache is surely empty. Before the
// timed request the new process serves the same page once to another user
// (trade): that warms the process (connections to the service, first-use
// costs of templates and chart code) but not the demo user's copies, which
// the cache keeps per user name. Then demo signs in fresh and the report is
// timed from sending the request to its last byte, gzip accepted.
func (l *lab) coldReport(ctx context.Context) []byte {
	var html []byte
	for _, L := range coldLatencies {
		what := fmt.Sprintf("cold report / L, L = %v (median of %d)", L, l.opts.samples)
		if err := l.sim.SetLatency(ctx, L); err != nil {
			l.rep.Broken(1, what, err)
			continue
		}
		var times []time.Duration
		for range l.opts.samples {
			err := l.withDashboard(ctx, "", func(web *figures.Child) error {
				warm := newBrowser(web.URL, 1)
				if err := warm.signIn(ctx, warmUser, demoPassword); err != nil {
					return err
				}
				if _, err := warm.getOK(ctx, reportPath, true); err != nil {
					return err
				}
				b := newBrowser(web.URL, 1)
				if err := b.signIn(ctx, demoUser, demoPassword); err != nil {
					return err
				}
				// A page of other data first: until one answer tells a
				// user's hourly budget, that user's first call goes alone
				// (+1 L on the very first page after a restart).
				if _, err := b.getOK(ctx, budgetPath, true); err != nil {
					return err
				}
				r, err := b.getOK(ctx, reportPath, true)
				if err != nil {
					return err
				}
				times = append(times, r.elapsed)
				html, err = plain(r)
				return err
			})
			if err != nil {
				l.rep.Broken(1, what, err)
				break
			}
		}
		if len(times) < l.opts.samples {
			continue
		}
		med := figures.Median(times)
		ratio := float64(med) / float64(L)
		l.rep.Check(1, what, fmt.Sprintf("%.2f (%s)", ratio, ms(med)), fmt.Sprintf("<= %.2f", coldTarget), ratio <= coldTarget)
		l.rep.Note(1, "L = %v: samples %v", L, roundAll(times))
	}
	l.rep.Note(1, "cold = a new bin/web per sample, warmed by another user (%s) on the same page, then %s signs in, opens %s (its budget is then known) and GET %s is timed to its last byte; the very first page of a user after a restart waits one L more, for the first answer to tell the budget", warmUser, demoUser, budgetPath, reportPath)
	return html
}

// plain is a response's body uncompressed.
func plain(r response) ([]byte, error) {
	if r.header.Get("Content-Encoding") != "gzip" {
		return r.body, nil
	}
	zr, err := gzip.NewReader(bytes.NewReader(r.body))
	if err != nil {
		return nil, fmt.Errorf("bench: gzip body: %w", err)
	}
	return io.ReadAll(zr)
}

// roundAll rounds durations to 0.1 ms for printing.
func roundAll(ds []time.Duration) []time.Duration {
	out := make([]time.Duration, len(ds))
	for i, d := range ds {
		out[i] = d.Round(100 * time.Microsecond)
	}
	return out
}
