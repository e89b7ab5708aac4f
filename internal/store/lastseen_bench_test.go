package store

import (
	"testing"
	"time"
)

// BenchmarkLastSeenFull reads every mark of an analyst at the bound, as the
// home page, a folder's triage and the watch list do on each build.
func BenchmarkLastSeenFull(b *testing.B) {
	for _, e := range engines {
		b.Run(string(e), func(b *testing.B) {
			s := openTest(b, e, Config{Now: time.Now})
			fill(b, s, alice, "last_seen", MaxSeen)
			for b.Loop() {
				seen, err := s.LastSeen(b.Context(), alice)
				if err != nil || len(seen) != MaxSeen {
					b.Fatalf("%d marks, %v", len(seen), err)
				}
			}
		})
	}
}
