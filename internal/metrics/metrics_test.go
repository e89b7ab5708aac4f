package metrics_test

import (
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/labstack/echo/v5"

	"creditdash/internal/metrics"
	"creditdash/internal/upstream"
	"creditdash/internal/upstream/cache"
)

func scrape(t *testing.T, m *metrics.Metrics) string {
	t.Helper()
	rec := httptest.NewRecorder()
	m.Handler().ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/metrics", nil))
	b, _ := io.ReadAll(rec.Body)
	return string(b)
}

// The series operators watch are there, by operation, outcome, result and
// route template, and nothing names a user or a raw path.
func TestSeriesByLabelsThatStayFew(t *testing.T) {
	m := metrics.New()
	m.ObserveCall("Business/Summary", nil, 40*time.Millisecond)
	m.ObserveCall("Business/Summary", &upstream.Error{Op: "Business/Summary", Status: 429, Kind: upstream.ErrRateLimited}, time.Millisecond)
	m.ObserveCall("Portfolio/Folders", errors.New("dial: refused"), time.Millisecond)
	m.SignIn("ok")
	m.SignIn("wrong_credentials")
	m.BudgetRefused()
	m.StoreError()
	m.WatchSharedStore(func() uint64 { return 2 })
	m.WatchCache(func() cache.Stats { return cache.Stats{FirstHits: 7, SecondHits: 2, Misses: 3, Merged: 1, Stale: 4} })

	e := echo.New()
	e.Use(m.Pages())
	e.GET("/businesses/:id", func(c *echo.Context) error { return c.String(http.StatusOK, "ok") })
	for _, path := range []string{"/businesses/1001", "/businesses/1002", "/no/such/page/for/alice"} {
		e.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest(http.MethodGet, path, nil))
	}
	for i := range 3 {
		// Anyone may send any Host and any method.
		r := httptest.NewRequest("ZZMETH"+strconv.Itoa(i), "/businesses/1001", nil)
		r.Host = "attacker-" + strconv.Itoa(i) + ".example"
		e.ServeHTTP(httptest.NewRecorder(), r)
	}

	out := scrape(t, m)
	for _, want := range []string{
		`creditdash_service_calls_total{op="Business/Summary",outcome="ok"} 1`,
		`creditdash_service_calls_total{op="Business/Summary",outcome="rate_limited"} 1`,
		`creditdash_service_calls_total{op="Portfolio/Folders",outcome="failed"} 1`,
		`creditdash_service_call_seconds_count{op="Business/Summary"} 2`,
		`creditdash_sign_ins_total{result="ok"} 1`,
		`creditdash_budget_refusals_total 1`,
		`creditdash_store_errors_total 1`,
		`creditdash_cache_reads_total{level="first",result="hit"} 7`,
		`creditdash_cache_reads_total{level="service",result="miss"} 3`,
		`creditdash_cache_reads_total{level="service",result="merged"} 1`,
		`creditdash_cache_reads_total{level="first",result="stale"} 4`,
		`url="/businesses/:id"`,
		`method="other"`,
		"creditdash_shared_store_errors_total 2",
		"go_goroutines",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the exposition lacks %s", want)
		}
	}
	for _, never := range []string{"/businesses/1001", "alice", "/no/such", "attacker-", "ZZMETH"} {
		if strings.Contains(out, never) {
			t.Errorf("a label carries %q", never)
		}
	}
}
