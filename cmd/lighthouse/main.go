// Command lighthouse measures every kind of page the way issue 14 states
// its phone targets: Lighthouse 12 with its default mobile preset,
// performance only, in headless Chromium, against bin/web running the
// built-in stand-in on a loopback port and signed in through the real form.
// It prints one table of medians next to the targets (Total Blocking Time
// <= 200 ms, performance >= 95). The targets are informational: it exits 0
// unless something could not be measured. scripts/lighthouse.sh installs the
// pinned Lighthouse and runs it (make lighthouse).
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"time"
)

// options are the command's flags.
type options struct {
	web        string        // the built dashboard
	lighthouse string        // the Lighthouse CLI
	chrome     string        // Chromium, for Lighthouse's launcher
	runs       int           // Lighthouse runs per page
	pages      string        // comma-separated page names; empty is all
	runTimeout time.Duration // one Lighthouse run at most
	timeout    time.Duration // the whole measure at most
	keep       string        // folder to keep the JSON reports in; empty drops them
}

func main() {
	var o options
	flag.StringVar(&o.web, "web", filepath.Join("bin", "web"), "the dashboard binary")
	flag.StringVar(&o.lighthouse, "lighthouse", "", "the Lighthouse CLI (scripts/lighthouse.sh installs it and passes it)")
	flag.StringVar(&o.chrome, "chrome", os.Getenv("CHROME_PATH"), "Chromium for Lighthouse (CHROME_PATH)")
	flag.IntVar(&o.runs, "runs", 3, "Lighthouse runs per page; the table shows medians")
	flag.StringVar(&o.pages, "pages", "", "comma-separated names of the pages to measure (default all: "+strings.Join(pageNames(), ",")+")")
	flag.DurationVar(&o.runTimeout, "run-timeout", 3*time.Minute, "longest one Lighthouse run may take")
	flag.DurationVar(&o.timeout, "timeout", 45*time.Minute, "longest the whole measure may take")
	flag.StringVar(&o.keep, "keep", "", "keep each run's Lighthouse JSON report in this folder")
	flag.Parse()
	if o.runs < 1 || o.lighthouse == "" || o.chrome == "" {
		fmt.Fprintln(os.Stderr, "lighthouse: -runs must be at least 1, and -lighthouse and -chrome (or CHROME_PATH) are needed; run it through make lighthouse")
		os.Exit(2)
	}
	pages, err := selectPages(o.pages)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	ctx, cancel := context.WithTimeout(ctx, o.timeout)
	defer cancel()
	started := time.Now()
	results, env, err := run(ctx, o, pages)
	heading := fmt.Sprintf("CreditDash Lighthouse · %s · %s/%s, %d CPUs · Lighthouse %s, mobile preset, simulated throttling · median of %d runs · took %s",
		started.UTC().Format("2006-01-02 15:04 UTC"), runtime.GOOS, runtime.GOARCH, runtime.NumCPU(),
		env.version, o.runs, time.Since(started).Round(time.Second))
	printTable(os.Stdout, heading, env, results)
	switch {
	case errors.Is(ctx.Err(), context.DeadlineExceeded):
		fmt.Fprintf(os.Stderr, "lighthouse: stopped after -timeout %v\n", o.timeout)
		os.Exit(1)
	case ctx.Err() != nil:
		fmt.Fprintln(os.Stderr, "lighthouse: stopped")
		os.Exit(130)
	case err != nil:
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	case anyBroken(results):
		os.Exit(1)
	}
}

// run starts the dashboard, prepares what the pages need (a folder, a dated
// copy) and runs Lighthouse on every page, round after round, so that the
// machine's other load spreads over all pages alike.
func run(ctx context.Context, o options, pages []page) ([]*pageResult, environment, error) {
	var env environment
	results := make([]*pageResult, len(pages))
	for i, p := range pages {
		results[i] = &pageResult{page: p}
	}
	if _, err := os.Stat(o.web); err != nil {
		return results, env, fmt.Errorf("lighthouse: %w (run make build first)", err)
	}
	tmp, err := os.MkdirTemp("", "creditdash-lighthouse-")
	if err != nil {
		return results, env, err
	}
	defer os.RemoveAll(tmp)
	reports := o.keep
	if reports == "" {
		reports = tmp
	} else if err := os.MkdirAll(reports, 0o755); err != nil {
		return results, env, err
	}

	web, err := startDashboard(ctx, o.web, filepath.Join(tmp, "web.log"))
	if err != nil {
		return results, env, err
	}
	defer web.Stop()
	paths, err := prepare(ctx, web.URL)
	if err != nil {
		return results, env, err
	}

	for round := 1; round <= o.runs; round++ {
		for _, r := range results {
			if ctx.Err() != nil {
				return results, env, nil
			}
			path := r.page.path(paths)
			if path == "" {
				r.errs = append(r.errs, "nothing to open: the demo data has no "+r.page.name)
				continue
			}
			report := filepath.Join(reports, fmt.Sprintf("%s-%d.json", r.page.name, round))
			m, e, err := audit(ctx, o, web.URL, r.page, path, report, tmp)
			if err != nil && ctx.Err() == nil {
				// Lighthouse sometimes loses a trace (NO_NAVSTART and the
				// like) on a busy machine: one more try.
				r.errs = append(r.errs, err.Error()+" (tried again)")
				m, e, err = audit(ctx, o, web.URL, r.page, path, report, tmp)
			}
			if e.version != "" {
				env = env.add(e)
			}
			if err != nil {
				r.errs = append(r.errs, err.Error())
				continue
			}
			r.runs = append(r.runs, m)
			if err := web.Failed(); err != nil {
				return results, env, err
			}
		}
	}
	return results, env, nil
}
