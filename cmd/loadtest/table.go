package main

import (
	"cmp"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"creditdash/internal/figures"
)

// report is the table this tool prints.
type report = figures.Report

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
