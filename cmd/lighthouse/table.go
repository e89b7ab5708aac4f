package main

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"

	"creditdash/internal/figures"
)

// The targets of issue 14, on Lighthouse's mobile preset.
const (
	targetScore = 95  // performance score at least
	targetTBT   = 200 // Total Blocking Time at most, ms
)

// pageResult is every run of one page.
type pageResult struct {
	page page
	runs []measure
	errs []string // runs that measured nothing, and why
}

// median of one figure over the page's runs.
func (r *pageResult) median(figure func(measure) float64) float64 {
	vs := make([]float64, len(r.runs))
	for i, m := range r.runs {
		vs[i] = figure(m)
	}
	return figures.Median(vs)
}

// verdict is pass when the medians meet both targets.
func (r *pageResult) verdict() string {
	if len(r.runs) == 0 {
		return "error"
	}
	var missed []string
	if s := r.median(func(m measure) float64 { return m.score }); s < targetScore {
		missed = append(missed, "performance")
	}
	if t := r.median(func(m measure) float64 { return m.tbt }); t > targetTBT {
		missed = append(missed, "TBT")
	}
	if len(missed) > 0 {
		return "FAIL (" + strings.Join(missed, ", ") + ")"
	}
	return "pass"
}

func anyBroken(results []*pageResult) bool {
	for _, r := range results {
		if len(r.runs) == 0 {
			return true
		}
	}
	return false
}

// printTable writes the medians of every page next to the targets, then the
// scores of each run and what went wrong.
func printTable(w io.Writer, heading string, env environment, results []*pageResult) {
	fmt.Fprintln(w, heading)
	fmt.Fprintln(w)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "Page\tPath\tPerformance\tTBT\tLCP\tCLS\tFCP\tRuns (performance)\tResult")
	for _, r := range results {
		if len(r.runs) == 0 {
			fmt.Fprintf(tw, "%s\t%s\t-\t-\t-\t-\t-\t\t%s\n", r.page.name, r.page.route, r.verdict())
			continue
		}
		scores := make([]string, len(r.runs))
		for i, m := range r.runs {
			scores[i] = strconv.Itoa(int(m.score + 0.5))
		}
		fmt.Fprintf(tw, "%s\t%s\t%.0f\t%.0f ms\t%.1f s\t%.3f\t%.1f s\t%s\t%s\n",
			r.page.name, r.page.route,
			r.median(func(m measure) float64 { return m.score }),
			r.median(func(m measure) float64 { return m.tbt }),
			r.median(func(m measure) float64 { return m.lcp })/1000,
			r.median(func(m measure) float64 { return m.cls }),
			r.median(func(m measure) float64 { return m.fcp })/1000,
			strings.Join(scores, " "), r.verdict())
	}
	tw.Flush()
	fmt.Fprintln(w)
	fmt.Fprintf(w, "Targets (issue 14): performance >= %d and Total Blocking Time <= %d ms on every page; medians of each page's runs.\n", targetScore, targetTBT)
	if len(env.benchmark) > 0 {
		fmt.Fprintf(w, "Lighthouse's benchmark index of this machine: median %.0f (its mobile preset assumes a CPU 4x slower than the one it runs on).\n", figures.Median(env.benchmark))
	}
	if env.userAgent != "" {
		fmt.Fprintf(w, "Browser: %s\n", env.userAgent)
	}
	for _, r := range results {
		for _, e := range r.errs {
			fmt.Fprintf(w, "%s: %s\n", r.page.name, e)
		}
	}
}
