// Package figures is the table that make bench and make loadtest print:
// each measured figure beside its target, with notes under it, and the
// small statistics and /proc readings both tools take.
package figures

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

// Report collects the table's lines and the notes printed under it.
type Report struct {
	lines []line
	notes []string
}

// Check adds a figure with a target and whether it was met.
func (r *Report) Check(fig int, what, measured, target string, ok bool) {
	res := "pass"
	if !ok {
		res = "FAIL"
	}
	r.lines = append(r.lines, line{fig, what, measured, target, res})
}

// Info adds a figure that has no target of its own.
func (r *Report) Info(fig int, what, measured string) {
	r.lines = append(r.lines, line{fig, what, measured, "", "info"})
}

// Broken records that a figure could not be measured, and why.
func (r *Report) Broken(fig int, what string, err error) {
	r.lines = append(r.lines, line{fig, what, "-", "", "error"})
	r.Note(fig, "%s: %v", what, err)
}

// Skipped records a figure left out on purpose.
func (r *Report) Skipped(fig int, what, why string) {
	r.lines = append(r.lines, line{fig, what, why, "", "skipped"})
}

// Note adds a line of detail under the table (how a figure was taken, or
// what was seen when a target was missed).
func (r *Report) Note(fig int, format string, args ...any) {
	r.notes = append(r.notes, fmt.Sprintf("%d. ", fig)+fmt.Sprintf(format, args...))
}

// Print writes the table, ordered by figure, then the notes.
func (r *Report) Print(w io.Writer, heading string) {
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

// Failed reports whether any figure could not be measured.
func (r *Report) Failed() bool {
	return slices.ContainsFunc(r.lines, func(l line) bool { return l.result == "error" })
}

// Median of the values (durations or plain numbers); zero for none.
func Median[T time.Duration | float64](vs []T) T {
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

// Percentile by nearest rank of sorted durations (p in 0..1).
func Percentile(sorted []time.Duration, p float64) time.Duration {
	if len(sorted) == 0 {
		return 0
	}
	i := int(float64(len(sorted))*p+0.999999) - 1
	return sorted[min(max(i, 0), len(sorted)-1)]
}
