package store

import (
	"testing"
	"time"
)

// BenchmarkLastSeen reads the marks of a full watch list (1,000
// businesses) of an analyst at the bound of 100,000 marks. Reading every
// mark, as pages did before, took 126 ms on SQLite and 96 ms on
// PostgreSQL (2026-11-27, 2 shared cores).
//
// The light case is the loadtest's home page: a portfolio of 100
// businesses read by an analyst with 200 marks; one is a report's own
// business, read before its marks are written.
func BenchmarkLastSeen(b *testing.B) {
	cases := []struct {
		name          string
		marks, list   int
		step, matches int32
	}{
		{"bound", MaxSeen, 1000, 97, 1000},
		{"light", 200, 100, 1, 100},
		{"one", 200, 1, 1, 1},
	}
	for _, e := range engines {
		for _, c := range cases {
			b.Run(string(e)+"/"+c.name, func(b *testing.B) {
				s := openTest(b, e, Config{Now: time.Now})
				fill(b, s, alice, "last_seen", c.marks)
				ids := make([]int32, 0, c.list)
				for i := range int32(c.list) {
					ids = append(ids, 100001+i*c.step)
				}
				for b.Loop() {
					seen, err := s.LastSeen(b.Context(), alice, ids)
					if err != nil || len(seen) != int(c.matches) {
						b.Fatalf("%d marks, %v", len(seen), err)
					}
				}
			})
		}
	}
}
