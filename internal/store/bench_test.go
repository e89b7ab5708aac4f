package store

import (
	"slices"
	"testing"
	"time"
)

// BenchmarkWrite measures one store write (adding a note: a transaction
// with the analyst upsert, the bound's count and the insert) on each
// engine, and reports its median and 99th percentile. It asserts nothing
// about time; `make bench` prints the figures.
func BenchmarkWrite(b *testing.B) {
	for _, e := range engines {
		b.Run(string(e), func(b *testing.B) {
			s := openTest(b, e, Config{Now: time.Now})
			ctx := b.Context()
			took := make([]time.Duration, 0, b.N)
			for i := 0; b.Loop(); i++ {
				start := time.Now()
				if _, err := s.AddNote(ctx, alice, int32(1001+i%100), "Risk fell from 7 to 4; ask for the latest statements."); err != nil {
					b.Fatal(err)
				}
				took = append(took, time.Since(start))
			}
			b.StopTimer()
			slices.Sort(took)
			if len(took) > 0 {
				b.ReportMetric(float64(took[len(took)/2].Microseconds()), "p50-µs")
				b.ReportMetric(float64(took[len(took)*99/100].Microseconds()), "p99-µs")
			}
		})
	}
}
