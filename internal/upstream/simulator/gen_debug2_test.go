package simulator

import (
	"testing"
	"time"
)

func BenchmarkGenDebugBulk(b *testing.B) {
	asOf := time.Date(2026, 5, 1, 0, 0, 0, 0, time.UTC)
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		_ = BulkListing(1, asOf, i)
	}
}
