package main

import (
	"bufio"
	"context"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	"creditdash/internal/figures"
)

// goFigures is what the dashboard has spent since it started: CPU time
// from /proc and counters of its Go runtime from its Prometheus listener,
// steadier figures than rates on a shared machine.
type goFigures struct {
	cpu       time.Duration
	allocated float64 // bytes allocated on the heap
	gcCycles  float64 // garbage collections
}

// spent reads what the dashboard has spent so far.
func (d *dashboard) spent(ctx context.Context) (goFigures, error) {
	f, err := readGoFigures(ctx, d.metrics)
	if err != nil {
		return f, err
	}
	f.cpu, err = figures.ProcCPU(d.PID())
	return f, err
}

// readGoFigures reads the runtime counters from a /metrics page.
func readGoFigures(ctx context.Context, metricsURL string) (goFigures, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, metricsURL, nil)
	if err != nil {
		return goFigures{}, err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return goFigures{}, fmt.Errorf("loadtest: the dashboard's metrics: %w", err)
	}
	defer resp.Body.Close()
	want := map[string]*float64{}
	var f goFigures
	want["go_memstats_alloc_bytes_total"] = &f.allocated
	want["go_gc_duration_seconds_count"] = &f.gcCycles
	found := 0
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() {
		name, value, ok := strings.Cut(sc.Text(), " ")
		if dst := want[name]; ok && dst != nil {
			if *dst, err = strconv.ParseFloat(strings.TrimSpace(value), 64); err != nil {
				return f, fmt.Errorf("loadtest: metric %s: %w", name, err)
			}
			found++
		}
	}
	if err := sc.Err(); err != nil {
		return f, err
	}
	if found != len(want) {
		return f, fmt.Errorf("loadtest: the dashboard's metrics lack the Go runtime's counters")
	}
	return f, nil
}

// minus is what happened between two readings.
func (f goFigures) minus(before goFigures) goFigures {
	return goFigures{cpu: f.cpu - before.cpu, allocated: f.allocated - before.allocated, gcCycles: f.gcCycles - before.gcCycles}
}
