package main

import (
	"fmt"
	"time"

	"creditdash/internal/figures"
)

// report is the table this tool prints.
type report = figures.Report

// ms formats a duration in milliseconds.
func ms(d time.Duration) string {
	return fmt.Sprintf("%.1f ms", float64(d)/float64(time.Millisecond))
}

// kB formats a byte count in kilobytes of 1,000 bytes, as page-weight
// budgets are usually stated.
func kB(n int64) string { return fmt.Sprintf("%.1f kB", float64(n)/1000) }

// mib formats a byte count in MiB.
func mib(n int64) string { return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20)) }
