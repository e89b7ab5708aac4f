package main

import (
	"cmp"
	"fmt"
	"io"
	"slices"
	"strings"
	"text/tabwriter"
	"time"
)

// line is one figure of the table, next to its target.
type line struct {
	fig      int
	what     string
	measured string
	target   string
	result   string // pass, FAIL, info, error, skipped
}

// report collects the table's lines and the notes printed under it.
type report struct {
	lines []line
	notes []string
}

// check adds a figure with a target and whether it was met.
func (r *report) check(fig int, what, measured, target string, ok bool) {
	res := "pass"
	if !ok {
		res = "FAIL"
	}
	r.lines = append(r.lines, line{fig, what, measured, target, res})
}

// info adds a figure that has no target of its own.
func (r *report) info(fig int, what, measured string) {
	r.lines = append(r.lines, line{fig, what, measured, "", "info"})
}

// broken records that a figure could not be measured, and why.
func (r *report) broken(fig int, what string, err error) {
	r.lines = append(r.lines, line{fig, what, "-", "", "error"})
	r.note(fig, "%s: %v", what, err)
}

// skipped records a figure left out on purpose.
func (r *report) skipped(fig int, what, why string) {
	r.lines = append(r.lines, line{fig, what, why, "", "skipped"})
}

// note adds a line of detail under the table (how a figure was taken, or
// what was seen when a target was missed).
func (r *report) note(fig int, format string, args ...any) {
	r.notes = append(r.notes, fmt.Sprintf("%d. ", fig)+fmt.Sprintf(format, args...))
}

// print writes the table, ordered by figure, then the notes.
func (r *report) print(w io.Writer, heading string) {
	lines := slices.Clone(r.lines)
	slices.SortStableFunc(lines, func(a, b line) int { return cmp.Compare(a.fig, b.fig) })
	fmt.Fprintln(w, heading)
	fmt.Fprintln(w)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "#\tFigure\tMeasured\tTarget\tResult")
	for _, l := range lines {
		fmt.Fprintf(tw, "%d\t%s\t%s\t%s\t%s\n", l.fig, l.what, l.measured, l.target, l.result)
	}
	tw.Flush()
	if len(r.notes) > 0 {
		notes := slices.Clone(r.notes)
		slices.SortStableFunc(notes, func(a, b string) int { return cmp.Compare(a[:1], b[:1]) })
		fmt.Fprintln(w)
		for _, n := range notes {
			fmt.Fprintln(w, strings.TrimRight(n, "\n"))
		}
	}
}

// failed reports whether any figure could not be measured.
func (r *report) failed() bool {
	return slices.ContainsFunc(r.lines, func(l line) bool { return l.result == "error" })
}

// median of durations; zero for none.
func median(ds []time.Duration) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	s := slices.Clone(ds)
	slices.Sort(s)
	if n := len(s); n%2 == 0 {
		return (s[n/2-1] + s[n/2]) / 2
	}
	return s[len(s)/2]
}

// medianFloat of values; zero for none.
func medianFloat(vs []float64) float64 {
	if len(vs) == 0 {
		return 0
	}
	s := slices.Clone(vs)
	slices.Sort(s)
	if n := len(s); n%2 == 0 {
		return (s[n/2-1] + s[n/2]) / 2
	}
	return s[len(s)/2]
}

// percentile by nearest rank of sorted durations (p in 0..1).
func percentile(sorted []time.Duration, p float64) time.Duration {
	if len(sorted) == 0 {
		return 0
	}
	i := int(float64(len(sorted))*p+0.999999) - 1
	return sorted[min(max(i, 0), len(sorted)-1)]
}

// ms formats a duration in milliseconds.
func ms(d time.Duration) string {
	return fmt.Sprintf("%.1f ms", float64(d)/float64(time.Millisecond))
}

// kB formats a byte count in kilobytes of 1,000 bytes, as page-weight
// budgets are usually stated.
func kB(n int64) string { return fmt.Sprintf("%.1f kB", float64(n)/1000) }

// mib formats a byte count in MiB.
func mib(n int64) string { return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20)) }
