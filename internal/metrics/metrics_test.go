package metrics_test

import (
	"database/sql"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/labstack/echo/v5"

	"creditdash/internal/handlers"
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
	m.WatchSharedStore(func() uint64 { return 2 }, func() error { return errors.New("down") })
	m.WatchCache(func() cache.Stats {
		return cache.Stats{FirstHits: 7, SecondHits: 2, Misses: 3, Merged: 1, Stale: 4, Bytes: 4096, Evictions: 5}
	})

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
		`creditdash_http_requests_total{code="200",method="GET",route="/businesses/:id"} 2`,
		`creditdash_http_requests_total{code="404",method="GET",route="unmatched"} 1`,
		`method="other"`,
		"creditdash_cache_bytes 4096",
		"creditdash_cache_evictions_total 5",
		"creditdash_shared_store_up 0",
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

// A handler's error is counted with the status sent: 404 and 400 pages are
// not 500s, and the router's error handler runs once.
func TestStatusIsTheOneSent(t *testing.T) {
	m := metrics.New()
	e := echo.New()
	handled := 0
	e.HTTPErrorHandler = func(c *echo.Context, err error) {
		handled++
		var he *echo.HTTPError
		if errors.As(err, &he) {
			_ = c.String(he.Code, "no")
			return
		}
		_ = c.String(http.StatusInternalServerError, "failed")
	}
	e.Use(m.Pages())
	e.GET("/missing/:id", func(*echo.Context) error { return echo.NewHTTPError(http.StatusNotFound, "no such thing") })
	e.GET("/bad", func(*echo.Context) error { return echo.NewHTTPError(http.StatusBadRequest, "bad input") })
	e.GET("/broken", func(*echo.Context) error { return errors.New("broken") })
	for _, path := range []string{"/missing/1", "/missing/2", "/bad", "/broken"} {
		rec := httptest.NewRecorder()
		e.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, path, nil))
	}
	if handled != 4 {
		t.Errorf("the error handler ran %d times for 4 errors", handled)
	}
	out := scrape(t, m)
	for _, want := range []string{
		`creditdash_http_requests_total{code="404",method="GET",route="/missing/:id"} 2`,
		`creditdash_http_requests_total{code="400",method="GET",route="/bad"} 1`,
		`creditdash_http_requests_total{code="500",method="GET",route="/broken"} 1`,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the exposition lacks %s", want)
		}
	}
	if strings.Contains(out, `code="500",method="GET",route="/missing`) || strings.Contains(out, `code="500",method="GET",route="/bad"`) {
		t.Error("a 404 or 400 counted as a 500")
	}
}

// Buckets resolve a 0.5 ms warm page and go up to a minute; no size
// histograms or host label triple the series.
func TestLatencyBucketsAndNoSizeSeries(t *testing.T) {
	m := metrics.New()
	e := echo.New()
	e.Use(m.Pages())
	e.GET("/", func(c *echo.Context) error { return c.String(http.StatusOK, "ok") })
	e.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest(http.MethodGet, "/", nil))
	out := scrape(t, m)
	for _, want := range []string{`le="0.00025"`, `le="0.0005"`, `le="60"`} {
		if !strings.Contains(out, "creditdash_http_request_duration_seconds_bucket{method=\"GET\",route=\"/\","+want+"}") {
			t.Errorf("no request duration bucket %s", want)
		}
	}
	for _, never := range []string{"size_bytes", `host=""`} {
		if strings.Contains(out, never) {
			t.Errorf("the exposition has %s", never)
		}
	}
}

// The handlers' figures, the database pools, build info and background
// checks are all exposed.
func TestOperatorSeries(t *testing.T) {
	m := metrics.New()
	m.WatchHandlers(func() handlers.Stats {
		return handlers.Stats{InFlight: 3, PagesWaiting: 2, PagesPreparing: 5, BusyRefusals: 7, PageCacheHits: 11,
			PageCacheMisses: 13, PageCacheEvictions: 17, PageCacheBytes: 19, ExportsInFlight: 1}
	})
	m.WatchDB(func() map[string]sql.DBStats {
		return map[string]sql.DBStats{"reads": {MaxOpenConnections: 8, InUse: 2, Idle: 6, WaitCount: 4, WaitDuration: 1500 * time.Millisecond}}
	})
	m.SetBuild("v1.2.3", "abc123", "go1.26")
	m.ObserveProbe("service", errors.New("down"), 250*time.Millisecond)
	m.ObserveProbe("workspace", nil, time.Millisecond)
	out := scrape(t, m)
	for _, want := range []string{
		"creditdash_http_requests_in_flight 3",
		"creditdash_pages_waiting 2",
		"creditdash_pages_preparing 5",
		"creditdash_pages_busy_total 7",
		`creditdash_page_cache_reads_total{result="hit"} 11`,
		`creditdash_page_cache_reads_total{result="miss"} 13`,
		"creditdash_page_cache_evictions_total 17",
		"creditdash_page_cache_bytes 19",
		"creditdash_exports_in_flight 1",
		`creditdash_db_connections{pool="reads",state="in_use"} 2`,
		`creditdash_db_connections_max{pool="reads"} 8`,
		`creditdash_db_waits_total{pool="reads"} 4`,
		`creditdash_db_wait_seconds_total{pool="reads"} 1.5`,
		`creditdash_build_info{go_version="go1.26",revision="abc123",version="v1.2.3"} 1`,
		`creditdash_dependency_up{dependency="service"} 0`,
		`creditdash_dependency_up{dependency="workspace"} 1`,
		`creditdash_dependency_check_seconds{dependency="service"} 0.25`,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the exposition lacks %s", want)
		}
	}
}
