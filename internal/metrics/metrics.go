// Package metrics keeps the operators' figures of one dashboard process and
// serves them in Prometheus' text format on their own listener. No label
// ever carries a user, a business or a raw path: labels name operations,
// outcomes, results and route templates only, so the series stay few.
package metrics

import (
	"errors"
	"net/http"
	"time"

	"github.com/labstack/echo-contrib/v5/echoprometheus"
	"github.com/labstack/echo/v5"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"creditdash/internal/upstream"
	"creditdash/internal/upstream/cache"
)

// Metrics is the process's registry and the series the code feeds.
type Metrics struct {
	reg         *prometheus.Registry
	calls       *prometheus.CounterVec
	callTime    *prometheus.HistogramVec
	signIns     *prometheus.CounterVec
	refused     prometheus.Counter
	storeErrors prometheus.Counter
}

// New registers every series, the Go runtime's and the process's included.
func New() *Metrics {
	reg := prometheus.NewRegistry()
	m := &Metrics{
		reg: reg,
		calls: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "creditdash_service_calls_total",
			Help: "Calls to the credit-risk service by operation and outcome (ok, rate_limited, refused, not_found, unavailable, failed).",
		}, []string{"op", "outcome"}),
		callTime: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "creditdash_service_call_seconds",
			Help:    "How long calls to the credit-risk service took, by operation.",
			Buckets: []float64{.025, .05, .1, .2, .4, .8, 1.6, 3.2, 6.4, 12.8},
		}, []string{"op"}),
		signIns: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "creditdash_sign_ins_total",
			Help: "Sign-ins by result (ok, two_factor, wrong_credentials, rate_limited, refused, unavailable, throttled).",
		}, []string{"result"}),
		refused: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "creditdash_budget_refusals_total",
			Help: "Calls refused before the service because the user's hourly budget was spent.",
		}),
		storeErrors: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "creditdash_store_errors_total",
			Help: "Failed reads or writes of the analysts' workspace database.",
		}),
	}
	reg.MustRegister(m.calls, m.callTime, m.signIns, m.refused, m.storeErrors,
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	return m
}

// Handler serves the exposition, for the metrics listener only.
func (m *Metrics) Handler() http.Handler {
	return promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{Registry: m.reg})
}

// Pages is the middleware timing every page by its route template; an
// unknown path is counted under no path of its own.
func (m *Metrics) Pages() echo.MiddlewareFunc {
	return echoprometheus.NewMiddlewareWithConfig(echoprometheus.MiddlewareConfig{
		Namespace:                 "creditdash",
		Subsystem:                 "pages",
		Registerer:                m.reg,
		DoNotUseRequestPathFor404: true,
		// The request's own Host and method would let anyone add series
		// (Host: attacker-1.example, a method ZZ1): the host is left out
		// and a method nobody routes is "other".
		LabelFuncs: map[string]echoprometheus.LabelValueFunc{
			"host":   func(*echo.Context, error) string { return "" },
			"method": func(c *echo.Context, _ error) string { return knownMethod(c.Request().Method) },
		},
	})
}

// knownMethod is a request's method as a label: one of HTTP's own, or
// "other".
func knownMethod(method string) string {
	switch method {
	case http.MethodGet, http.MethodHead, http.MethodPost, http.MethodPut, http.MethodPatch,
		http.MethodDelete, http.MethodOptions, http.MethodConnect, http.MethodTrace:
		return method
	}
	return "other"
}

// WatchCache exposes the cache's read counts by level and result.
func (m *Metrics) WatchCache(stats func() cache.Stats) {
	reads := func(level, result string, f func(cache.Stats) uint64) prometheus.Collector {
		return prometheus.NewCounterFunc(prometheus.CounterOpts{
			Name:        "creditdash_cache_reads_total",
			Help:        "Reads of the service's data by where they were answered (first: this process; second: the shared store; miss: the service).",
			ConstLabels: prometheus.Labels{"level": level, "result": result},
		}, func() float64 { return float64(f(stats())) })
	}
	m.reg.MustRegister(
		reads("first", "hit", func(s cache.Stats) uint64 { return s.FirstHits }),
		reads("second", "hit", func(s cache.Stats) uint64 { return s.SecondHits }),
		reads("service", "miss", func(s cache.Stats) uint64 { return s.Misses }),
		reads("service", "merged", func(s cache.Stats) uint64 { return s.Merged }),
		reads("first", "stale", func(s cache.Stats) uint64 { return s.Stale }),
	)
}

// WatchSharedStore exposes the shared store's failed calls.
func (m *Metrics) WatchSharedStore(errs func() uint64) {
	m.reg.MustRegister(prometheus.NewCounterFunc(prometheus.CounterOpts{
		Name: "creditdash_shared_store_errors_total",
		Help: "Calls to the shared Valkey/Redis store that failed or were skipped while it was down.",
	}, func() float64 { return float64(errs()) }))
}

// ObserveCall notes one call to the service; it is the client's observer.
func (m *Metrics) ObserveCall(op string, err error, took time.Duration) {
	m.calls.WithLabelValues(op, outcome(err)).Inc()
	m.callTime.WithLabelValues(op).Observe(took.Seconds())
}

// SignIn notes a sign-in's result.
func (m *Metrics) SignIn(result string) { m.signIns.WithLabelValues(result).Inc() }

// BudgetRefused notes a call refused for a spent hourly budget.
func (m *Metrics) BudgetRefused() { m.refused.Inc() }

// StoreError notes a failed workspace read or write.
func (m *Metrics) StoreError() { m.storeErrors.Inc() }

// outcome names what became of a call, in a handful of values.
func outcome(err error) string {
	switch {
	case err == nil:
		return "ok"
	case errors.Is(err, upstream.ErrRateLimited):
		return "rate_limited"
	case errors.Is(err, upstream.ErrNotFound):
		return "not_found"
	case errors.Is(err, upstream.ErrUnavailable):
		return "unavailable"
	}
	var ue *upstream.Error
	if errors.As(err, &ue) && ue.Status >= 400 && ue.Status < 500 {
		return "refused"
	}
	return "failed"
}
