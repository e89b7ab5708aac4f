package metrics

import (
	"database/sql"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"creditdash/internal/handlers"
	"creditdash/internal/upstream/cache"
)

// WatchHandlers exposes the pages' queue, busy refusals, the page cache,
// the requests and exports in flight.
func (m *Metrics) WatchHandlers(stats func() handlers.Stats) {
	gauge := func(name, help string, f func(handlers.Stats) float64) prometheus.Collector {
		return prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: name, Help: help}, func() float64 { return f(stats()) })
	}
	counter := func(name, help string, labels prometheus.Labels, f func(handlers.Stats) uint64) prometheus.Collector {
		return prometheus.NewCounterFunc(prometheus.CounterOpts{Name: name, Help: help, ConstLabels: labels},
			func() float64 { return float64(f(stats())) })
	}
	const pageCacheReads = "Reads of the finished pages kept, by result."
	m.reg.MustRegister(
		gauge("creditdash_http_requests_in_flight", "Requests being answered now, downloads included.",
			func(s handlers.Stats) float64 { return float64(s.InFlight) }),
		gauge("creditdash_pages_waiting", "Pages waiting for a turn to be prepared.",
			func(s handlers.Stats) float64 { return float64(s.PagesWaiting) }),
		gauge("creditdash_pages_preparing", "Pages holding a turn (being prepared) now.",
			func(s handlers.Stats) float64 { return float64(s.PagesPreparing) }),
		counter("creditdash_pages_busy_total", "Pages that waited too long for a turn and answered that the dashboard is busy.", nil,
			func(s handlers.Stats) uint64 { return s.BusyRefusals }),
		counter("creditdash_page_cache_reads_total", pageCacheReads, prometheus.Labels{"result": "hit"},
			func(s handlers.Stats) uint64 { return s.PageCacheHits }),
		counter("creditdash_page_cache_reads_total", pageCacheReads, prometheus.Labels{"result": "miss"},
			func(s handlers.Stats) uint64 { return s.PageCacheMisses }),
		counter("creditdash_page_cache_evictions_total", "Finished pages dropped from the page cache for room or age.", nil,
			func(s handlers.Stats) uint64 { return s.PageCacheEvictions }),
		gauge("creditdash_page_cache_bytes", "What the finished pages kept weigh.",
			func(s handlers.Stats) float64 { return float64(s.PageCacheBytes) }),
		gauge("creditdash_exports_in_flight", "Portfolio exports streaming now.",
			func(s handlers.Stats) float64 { return float64(s.ExportsInFlight) }),
	)
}

// WatchCache exposes the cache's reads by level and result, its bytes and
// its evictions.
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
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{
			Name: "creditdash_cache_bytes",
			Help: "What this process's copies of the service's answers weigh (bounded by CACHE_MB less the page cache).",
		}, func() float64 { return float64(stats().Bytes) }),
		prometheus.NewCounterFunc(prometheus.CounterOpts{
			Name: "creditdash_cache_evictions_total",
			Help: "Copies of the service's answers dropped for room or age.",
		}, func() float64 { return float64(stats().Evictions) }),
	)
}

// WatchSharedStore exposes the shared store's failed calls and whether it
// answers (degraded returns its last error, nil when up).
func (m *Metrics) WatchSharedStore(errs func() uint64, degraded func() error) {
	m.reg.MustRegister(
		prometheus.NewCounterFunc(prometheus.CounterOpts{
			Name: "creditdash_shared_store_errors_total",
			Help: "Calls to the shared Valkey/Redis store that failed or were skipped while it was down.",
		}, func() float64 { return float64(errs()) }),
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{
			Name: "creditdash_shared_store_up",
			Help: "1 when the shared Valkey/Redis store answers, 0 while this replica works alone.",
		}, func() float64 { return up(degraded() == nil) }),
	)
}

// WatchDB exposes the workspace database's connection pools; pools
// returns nil while the database is not open (a degraded start).
func (m *Metrics) WatchDB(pools func() map[string]sql.DBStats) {
	m.reg.MustRegister(dbCollector{pools})
}

// SetBuild names the running build in creditdash_build_info.
func (m *Metrics) SetBuild(version, revision, goVersion string) {
	m.build.Reset()
	m.build.WithLabelValues(version, revision, goVersion).Set(1)
}

// ObserveProbe notes a background check of a dependency ("service",
// "workspace"): whether it answered and how long the check took.
func (m *Metrics) ObserveProbe(dependency string, err error, took time.Duration) {
	m.depUp.WithLabelValues(dependency).Set(up(err == nil))
	m.depTime.WithLabelValues(dependency).Set(took.Seconds())
}

func up(ok bool) float64 {
	if ok {
		return 1
	}
	return 0
}

// dbCollector reads the pools' figures at each scrape.
type dbCollector struct {
	pools func() map[string]sql.DBStats
}

var (
	dbOpen = prometheus.NewDesc("creditdash_db_connections", "Connections of the workspace database's pools, by pool and state (in_use, idle).",
		[]string{"pool", "state"}, nil)
	dbMax = prometheus.NewDesc("creditdash_db_connections_max", "The pools' bound on open connections.",
		[]string{"pool"}, nil)
	dbWaits = prometheus.NewDesc("creditdash_db_waits_total", "Calls that waited for a free connection.",
		[]string{"pool"}, nil)
	dbWaited = prometheus.NewDesc("creditdash_db_wait_seconds_total", "Time calls spent waiting for a free connection.",
		[]string{"pool"}, nil)
)

// Describe sends the descriptions of the pools' series.
func (d dbCollector) Describe(ch chan<- *prometheus.Desc) {
	ch <- dbOpen
	ch <- dbMax
	ch <- dbWaits
	ch <- dbWaited
}

// Collect reads every pool's figures now.
func (d dbCollector) Collect(ch chan<- prometheus.Metric) {
	for pool, s := range d.pools() {
		ch <- prometheus.MustNewConstMetric(dbOpen, prometheus.GaugeValue, float64(s.InUse), pool, "in_use")
		ch <- prometheus.MustNewConstMetric(dbOpen, prometheus.GaugeValue, float64(s.Idle), pool, "idle")
		ch <- prometheus.MustNewConstMetric(dbMax, prometheus.GaugeValue, float64(s.MaxOpenConnections), pool)
		ch <- prometheus.MustNewConstMetric(dbWaits, prometheus.CounterValue, float64(s.WaitCount), pool)
		ch <- prometheus.MustNewConstMetric(dbWaited, prometheus.CounterValue, s.WaitDuration.Seconds(), pool)
	}
}
