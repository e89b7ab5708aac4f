package main

import (
	"cmp"
	"fmt"
	"io"
	"maps"
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

// note adds a line of detail under the table: how a figure was taken.
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
	return fmt.Sprintf("%.0f ms", float64(d)/float64(time.Millisecond))
}

// mib formats a byte count in MiB.
func mib(n int64) string { return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20)) }

// mb formats a byte count in MB of 10^6 bytes, as the log target is stated.
func mb(n int64) string { return fmt.Sprintf("%.2f MB", float64(n)/1e6) }

// statuses lists answers by status, the most frequent first, e.g.
// "200×950, 502×23, no answer×2"; status 0 is a request with no answer.
func statuses(byStatus map[int]int) string {
	if len(byStatus) == 0 {
		return "none"
	}
	keys := slices.SortedFunc(maps.Keys(byStatus), func(a, b int) int {
		return cmp.Or(cmp.Compare(byStatus[b], byStatus[a]), cmp.Compare(a, b))
	})
	parts := make([]string, len(keys))
	for i, s := range keys {
		name := fmt.Sprint(s)
		if s == 0 {
			name = "no answer"
		}
		parts[i] = fmt.Sprintf("%s×%d", name, byStatus[s])
	}
	return strings.Join(parts, ", ")
}

// describe lists per-path counts, e.g. "NAICSCodes×4, Summary×1".
func describe(counts map[string]int) string {
	if len(counts) == 0 {
		return "nothing"
	}
	var parts []string
	for _, p := range slices.Sorted(maps.Keys(counts)) {
		short := strings.TrimPrefix(strings.TrimPrefix(p, "/v1/Business/"), "/v1/")
		parts = append(parts, fmt.Sprintf("%s×%d", short, counts[p]))
	}
	return strings.Join(parts, ", ")
}
