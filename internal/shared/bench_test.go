package shared_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"testing"
	"time"

	"creditdash/internal/shared/redistest"
	"creditdash/internal/upstream/simulator"
)

// BenchmarkReportOnSecondReplica is a report loaded on replica A, then
// opened on replica B, which has never built it: B's page comes from the
// shared store. It reports B's p50 and p99, B's service calls per page
// (zero when every copy was shared) and B's first-level hit ratio (zero
// here: each page is new to B; its later loads are the page cache's).
// Each iteration is a new business, so run it with -benchtime Nx, N up to
// 520.
func BenchmarkReportOnSecondReplica(b *testing.B) {
	a, rb := twoReplicas(b, redistest.URL(b), 0)
	u := a.SignIn(b, "demo")
	cookies := u.Cookies()
	if b.N > simulator.GenerateCount {
		b.Fatalf("-benchtime %dx: at most %dx, one business each", b.N, simulator.GenerateCount)
	}
	durations := make([]time.Duration, 0, b.N)
	calls := 0
	b.ResetTimer()
	for i := range b.N {
		path := fmt.Sprintf("/businesses/%d", 1001+i)
		b.StopTimer()
		if p := u.Get(path); p.Status != http.StatusOK {
			b.Fatalf("GET %s on A: status %d", path, p.Status)
		}
		before := serviceCalls(a, "demo")
		b.StartTimer()
		start := time.Now()
		req := httptest.NewRequest(http.MethodGet, path, nil)
		req.Header.Set("Accept-Encoding", "gzip")
		for _, c := range cookies {
			req.AddCookie(c)
		}
		rec := httptest.NewRecorder()
		rb.Handler.ServeHTTP(rec, req)
		durations = append(durations, time.Since(start))
		b.StopTimer()
		if rec.Code != http.StatusOK {
			b.Fatalf("GET %s on B: status %d", path, rec.Code)
		}
		calls += serviceCalls(a, "demo") - before
		b.StartTimer()
	}
	b.StopTimer()
	slices.Sort(durations)
	at := func(q float64) float64 { return float64(durations[int(q*float64(len(durations)-1))].Microseconds()) }
	b.ReportMetric(at(0.5), "p50-µs")
	b.ReportMetric(at(0.99), "p99-µs")
	b.ReportMetric(float64(calls)/float64(b.N), "calls/page")
	b.ReportMetric(rb.Cache.Stats().FirstHitRatio(), "first-level-ratio")
}
