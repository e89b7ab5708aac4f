package metrics

import (
	"net/http"
	"strconv"
	"time"

	"github.com/labstack/echo/v5"
	"github.com/prometheus/client_golang/prometheus"
)

// latencyBuckets resolve a warm page from the page cache (under a
// millisecond) as well as an export or a page at its deadline (a minute).
var latencyBuckets = []float64{.00025, .0005, .001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10, 30, 60}

// httpSeries are the requests' series.
type httpSeries struct {
	requests *prometheus.CounterVec
	duration *prometheus.HistogramVec
}

func newHTTPSeries() httpSeries {
	return httpSeries{
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "creditdash_http_requests_total",
			Help: "Requests answered, by method, route template and the status sent.",
		}, []string{"method", "route", "code"}),
		duration: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "creditdash_http_request_duration_seconds",
			Help:    "How long requests took to answer, by method and route template.",
			Buckets: latencyBuckets,
		}, []string{"method", "route"}),
	}
}

// Pages is the middleware counting and timing every request by its route
// template. A handler's error is turned into its page here (by the
// router's error handler, as the outer logging middleware would), so the
// status counted is the one sent: a 404 is a 404, not the 500 of a raw
// error. A path no route matches is counted as route "unmatched".
func (m *Metrics) Pages() echo.MiddlewareFunc {
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c *echo.Context) error {
			start := time.Now()
			if err := next(c); err != nil {
				c.Echo().HTTPErrorHandler(c, err)
			}
			_, status := echo.ResolveResponseStatus(c.Response(), nil)
			route := c.Path()
			if route == "" || route == "/*" || c.RouteInfo().Path == "" {
				// Echo's fallback for paths no route matches.
				route = "unmatched"
			}
			method := knownMethod(c.Request().Method)
			m.http.requests.WithLabelValues(method, route, strconv.Itoa(status)).Inc()
			m.http.duration.WithLabelValues(method, route).Observe(time.Since(start).Seconds())
			return nil
		}
	}
}

// knownMethod is a request's method as a label: one of HTTP's own, or
// "other", so that nobody can add series with made-up methods.
func knownMethod(method string) string {
	switch method {
	case http.MethodGet, http.MethodHead, http.MethodPost, http.MethodPut, http.MethodPatch,
		http.MethodDelete, http.MethodOptions, http.MethodConnect, http.MethodTrace:
		return method
	}
	return "other"
}
