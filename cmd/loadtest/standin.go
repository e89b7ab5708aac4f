package main

import (
	"context"
	"fmt"
	"path/filepath"
	"time"

	"creditdash/internal/figures"
)

// startStandIn runs the stand-in with analysts users load1..loadN, the bulk
// user's portfolio of bulk businesses and a fixed latency on every answer.
func startStandIn(ctx context.Context, o options, dir string) (*figures.StandIn, error) {
	args := []string{"-analysts", fmt.Sprint(o.analysts + int(numKinds)),
		"-bulk", fmt.Sprint(o.bulk), "-latency", o.latency.String()}
	return figures.StartStandIn(ctx, o.simulator, filepath.Join(dir, "simulator.log"), args, 60*time.Second)
}

// callsOf sums the counters of the users for which keep is true.
func callsOf(counts map[string]map[string]int, keep func(user string) bool) (total int, byPath map[string]int) {
	byPath = map[string]int{}
	for user, paths := range counts {
		if !keep(user) {
			continue
		}
		for p, n := range paths {
			total += n
			byPath[p] += n
		}
	}
	return total, byPath
}
