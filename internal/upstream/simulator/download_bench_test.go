package simulator

import (
	"net/http"
	"net/http/httptest"
	"runtime"
	"runtime/metrics"
	"sync"
	"testing"
	"time"
)

// discardResponse is an http.ResponseWriter that counts and drops the body.
type discardResponse struct {
	header http.Header
	status int
	bytes  int64
}

func (d *discardResponse) Header() http.Header         { return d.header }
func (d *discardResponse) WriteHeader(code int)        { d.status = code }
func (d *discardResponse) Flush()                      {}
func (d *discardResponse) Write(p []byte) (int, error) { d.bytes += int64(len(p)); return len(p), nil }

// heapObjects is the heap's bytes in objects, live or not yet swept.
func heapObjects() uint64 {
	sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	metrics.Read(sample)
	return sample[0].Value.Uint64()
}

// heapPeak samples the live heap (runtime/metrics, no stop-the-world) until
// stopped and returns the highest value seen.
func heapPeak() (stop func() uint64) {
	read := heapObjects
	var peak uint64
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		tick := time.NewTicker(2 * time.Millisecond)
		defer tick.Stop()
		for {
			peak = max(peak, read())
			select {
			case <-done:
				return
			case <-tick.C:
			}
		}
	})
	return func() uint64 {
		close(done)
		wg.Wait()
		return max(peak, read())
	}
}

// BenchmarkDownloadBulk streams the bulk portfolio of a million rows (100,000
// with -short) through the handler to a discarding writer and reports rows/s
// and the peak growth of the heap over the run, which must stay flat.
func BenchmarkDownloadBulk(b *testing.B) {
	rows := 1_000_000
	if testing.Short() {
		rows = 100_000
	}
	for _, format := range []string{"CSV", "JSON", "XML"} {
		b.Run(format, func(b *testing.B) {
			srv := New(testDataset(), Options{Bulk: rows})
			key, _ := srv.newSession(bulkUsername)
			runtime.GC()
			stop := heapPeak()
			base := heapObjects()
			var bytes int64
			b.ResetTimer()
			for b.Loop() {
				req := httptest.NewRequest(http.MethodGet, "/v1/Portfolio/Download?format="+format, nil)
				req.Header.Set("Authorization", "Bearer "+key)
				w := &discardResponse{header: http.Header{}}
				srv.ServeHTTP(w, req)
				if w.status != http.StatusOK {
					b.Fatalf("status %d", w.status)
				}
				bytes = w.bytes
			}
			b.StopTimer()
			peak := stop()
			growth := float64(0)
			if peak > base {
				growth = float64(peak-base) / (1 << 20)
			}
			// What is still live after a collection tells a leak from GC pacing.
			runtime.GC()
			retained := float64(int64(heapObjects())-int64(base)) / (1 << 20)
			b.ReportMetric(growth, "peak-heap-MiB")
			b.ReportMetric(retained, "retained-MiB")
			b.ReportMetric(float64(rows)*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
			b.ReportMetric(float64(bytes)/(1<<20), "body-MiB")
		})
	}
}
