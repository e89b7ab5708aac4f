// Package metrics keeps the operators' figures of one dashboard process and
// serves them in Prometheus' text format on their own listener. No label
// ever carries a user, a business or a raw path: labels name operations,
// outcomes, results and route templates only, so the series stay few.
package metrics

import (
	"errors"
	"net/http"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"creditdash/internal/upstream"
)

// Metrics is the process's registry and the series the code feeds.
type Metrics struct {
	reg         *prometheus.Registry
	calls       *prometheus.CounterVec
	callTime    *prometheus.HistogramVec
	signIns     *prometheus.CounterVec
	refused     prometheus.Counter
	storeErrors prometheus.Counter
	http        httpSeries
	build       *prometheus.GaugeVec
	// depUp and depTime are the last background checks of the service
	// and the workspace database (see ObserveProbe).
	depUp, depTime *prometheus.GaugeVec
	// budgetHour and serviceHour count the quota refusals of the last
	// hour: the dashboard's own (a spent budget) and the service's (429).
	budgetHour, serviceHour *hourWindow
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
			Buckets: latencyBuckets,
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
	m.http = newHTTPSeries()
	m.budgetHour, m.serviceHour = newHourWindow(time.Now), newHourWindow(time.Now)
	m.build = prometheus.NewGaugeVec(prometheus.GaugeOpts{
		Name: "creditdash_build_info",
		Help: "The running build: always 1, its labels name the version.",
	}, []string{"version", "revision", "go_version"})
	m.depUp = prometheus.NewGaugeVec(prometheus.GaugeOpts{
		Name: "creditdash_dependency_up",
		Help: "1 when the last background check of a dependency (service, workspace) succeeded.",
	}, []string{"dependency"})
	m.depTime = prometheus.NewGaugeVec(prometheus.GaugeOpts{
		Name: "creditdash_dependency_check_seconds",
		Help: "How long the last background check of a dependency took.",
	}, []string{"dependency"})
	reg.MustRegister(m.calls, m.callTime, m.signIns, m.refused, m.storeErrors,
		m.http.requests, m.http.duration, m.build, m.depUp, m.depTime,
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	return m
}

// Handler serves the exposition, for the metrics listener only.
func (m *Metrics) Handler() http.Handler {
	return promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{Registry: m.reg})
}

// ObserveCall notes one call to the service; it is the client's observer.
func (m *Metrics) ObserveCall(op string, err error, took time.Duration) {
	o := outcome(err)
	if o == "rate_limited" {
		m.serviceHour.add()
	}
	m.calls.WithLabelValues(op, o).Inc()
	m.callTime.WithLabelValues(op).Observe(took.Seconds())
}

// SignIn notes a sign-in's result.
func (m *Metrics) SignIn(result string) { m.signIns.WithLabelValues(result).Inc() }

// BudgetRefused notes a call refused for a spent hourly budget.
func (m *Metrics) BudgetRefused() {
	m.refused.Inc()
	m.budgetHour.add()
}

// RefusalsLastHour are the quota refusals of the last 60 minutes: calls
// the dashboard refused for a spent hourly budget, and calls the service
// refused with 429.
func (m *Metrics) RefusalsLastHour() (budget, service uint64) {
	return m.budgetHour.total(), m.serviceHour.total()
}

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
