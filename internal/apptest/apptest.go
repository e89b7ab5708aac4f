// Package apptest starts the whole dashboard for tests: the stand-in service
// with demo data, the real upstream client, and the real router, each on a
// loopback httptest server. Handler tests and browser tests share it.
package apptest

import (
	"bytes"
	"context"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/labstack/echo/v5"

	"creditdash/internal/handlers"
	"creditdash/internal/health"
	"creditdash/internal/roles"
	"creditdash/internal/shared"
	workspace "creditdash/internal/store"
	"creditdash/internal/upstream"
	"creditdash/internal/upstream/cache"
	"creditdash/internal/upstream/simulator"
	"creditdash/internal/views"
	"creditdash/static"
)

// Seed and AsOf fix the demo data tests run against.
const Seed = 1

// AsOf is the latest month of the test data.
var AsOf = time.Date(2026, time.October, 1, 0, 0, 0, 0, time.UTC)

// WorkspaceService names the stand-in in workspace keys: fixed, unlike
// its port, so a second App on the same DataDir is a restart.
const WorkspaceService = "apptest-stand-in"

// TestSecret seals test session cookies.
const TestSecret = "test-secret-test-secret-test-secret-0123456789"

// Options changes what Start builds; the zero value is the demo setup.
type Options struct {
	// Data replaces the demo dataset (for hand-made hostile data).
	Data *simulator.Dataset
	// Sim configures the stand-in (session lifetime, latency, bulk...).
	Sim simulator.Options
	// Timeout is the upstream call limit; zero means 5 seconds.
	Timeout time.Duration
	// NoCache keeps nothing: every read asks the service and no older copy
	// stands in for a failure, so a test sees each answer as it comes.
	NoCache bool
	// Cache tunes the cache (its clock defaults to Now).
	Cache cache.Options
	// Wrap puts a layer around the client in front of the cache (a service
	// that lacks an operation, say).
	Wrap func(*upstream.Client) cache.Upstream
	// WrapService puts a layer around the client where the handlers call it
	// directly (sign-in, trade-provider choice).
	WrapService func(*upstream.Client) handlers.Service
	// PageWriteTimeout bounds writing a page; zero means the default.
	PageWriteTimeout time.Duration
	// WorkspaceDeadline bounds a page's workspace reads and writes; zero
	// means the handlers' default (1.5 s).
	WorkspaceDeadline time.Duration
	// StoreTimeout bounds each workspace database call; zero means the
	// store's default (5 s).
	StoreTimeout time.Duration
	// ExportStall bounds the wait for a browser to take an export's next
	// chunk; zero means the default.
	ExportStall time.Duration
	// PageTurnWait bounds a page's wait for its turn; zero means the
	// default.
	PageTurnWait time.Duration
	// CookieSecure marks cookies Secure and sends HSTS, as over TLS.
	CookieSecure bool
	// Now is the dashboard's clock; nil means time.Now.
	Now func() time.Time
	// Routes adds test-only routes to the router (a handler that panics).
	Routes func(*echo.Echo)
	// DataDir holds the workspace's SQLite file; empty means a new
	// t.TempDir(). A second App on the same DataDir is a restart.
	DataDir string
	// DatabaseURL puts the workspace on PostgreSQL instead.
	DatabaseURL string
	// TrustedProxies are the reverse proxies whose X-Forwarded-For is
	// believed, as TRUSTED_PROXIES sets.
	TrustedProxies []netip.Prefix
	// PublicURL is the site's address for absolute links, as PUBLIC_URL.
	PublicURL string
	// Meter counts for operators, as internal/metrics in cmd/web.
	Meter handlers.Meter
	// Observe is told the result of every background health check.
	Observe func(name string, err error, took time.Duration)
	// RedisURL, when set, shares answers, budgets and sign-outs through
	// that store, as REDIS_URL does; RedisPrefix keeps the test's keys
	// apart (apps of one test give the same one to share).
	RedisURL    string
	RedisPrefix string
	// RedisTimeout bounds each call to the store; zero means a second,
	// not the 100 ms of production: tests run under the race detector on
	// busy machines, where slow answers would mark the store down and
	// each replica would book budgets alone.
	RedisTimeout time.Duration
	// Roles are the team's roles; nil gives the demo users the roles demo
	// mode gives them (demo a manager, trade an auditor...).
	Roles *roles.Table
	// ServiceName names the service in workspace keys and session
	// cookies instead of WorkspaceService: another name is a deployment
	// on another service.
	ServiceName string
	// Demo runs the dashboard as demo mode does: the sign-in page lists
	// the stand-in's accounts and the code form shows its code.
	Demo bool
	// SameService, when set, makes this app a second replica of that
	// one's stand-in service instead of starting its own.
	SameService *App
}

// App is a running dashboard and its stand-in service.
type App struct {
	// URL is the dashboard's base URL, e.g. http://127.0.0.1:40123.
	URL string
	// SimURL is the stand-in service's base URL.
	SimURL string
	Sim    *simulator.Server
	Client *upstream.Client
	// Cache is the cache in front of the client.
	Cache *cache.Cache
	// Logs holds everything the dashboard logged.
	Logs *LogBuffer
	// Handler is the dashboard's router, for benchmarks without a network.
	Handler http.Handler
	// Store is the analyst workspace; closed when the test ends (a test
	// may close it earlier to restart on the same file).
	Store *workspace.Store
	// Shared is the store shared with other replicas, with RedisURL.
	Shared *shared.Store
	// Stats are the handlers' figures for operators.
	Stats func() handlers.Stats
	// Health is the replica's background checks, /readyz's source.
	Health *health.Monitor

	simSrv *httptest.Server
	pings  atomic.Int32
	// service names the service in workspace keys and cookies.
	service string
}

// sharedDegraded is the shared store's health, or nil without one.
func sharedDegraded(sh *shared.Store) func() error {
	if sh == nil {
		return nil
	}
	return sh.Degraded
}

// Pings is how many times the dashboard checked the service in the background.
func (a *App) Pings() int { return int(a.pings.Load()) }

// StopService takes the stand-in service down, as an outage would.
func (a *App) StopService() {
	a.simSrv.CloseClientConnections()
	a.simSrv.Close()
}

var (
	demoOnce sync.Once
	demoData *simulator.Dataset
)

// DemoData is the demo dataset, generated once per test binary.
func DemoData() *simulator.Dataset {
	demoOnce.Do(func() {
		demoData = simulator.Generate(simulator.GenerateOptions{Seed: Seed, AsOf: AsOf})
	})
	return demoData
}

// Start runs the stand-in and the dashboard until the test ends.
func Start(t testing.TB, opts Options) *App {
	t.Helper()
	data := opts.Data
	if data == nil {
		data = DemoData()
	}
	app := &App{}
	var (
		sim    *simulator.Server
		simSrv *httptest.Server
	)
	if opts.SameService != nil {
		sim, simSrv = opts.SameService.Sim, opts.SameService.simSrv
	} else {
		sim = simulator.New(data, opts.Sim)
		simSrv = httptest.NewServer(sim)
		t.Cleanup(simSrv.Close)
	}

	timeout := opts.Timeout
	if timeout == 0 {
		timeout = 5 * time.Second
	}
	client, err := upstream.New(simSrv.URL, upstream.Options{Timeout: timeout})
	if err != nil {
		t.Fatal(err)
	}
	var up cache.Upstream = client
	if opts.Wrap != nil {
		up = opts.Wrap(client)
	}
	if opts.Cache.Now == nil {
		opts.Cache.Now = opts.Now
	}
	if opts.NoCache {
		opts.Cache.TTLs = map[cache.Kind]time.Duration{}
		for k := range cache.DefaultTTLs {
			opts.Cache.TTLs[k] = 0
		}
		opts.Cache.KeepStale = time.Nanosecond
	}
	var signOuts handlers.SignOuts
	var attempts handlers.Attempts
	if opts.RedisURL != "" {
		if opts.RedisTimeout == 0 {
			opts.RedisTimeout = time.Second
		}
		sh, err := shared.Open(opts.RedisURL, shared.Options{Prefix: opts.RedisPrefix, Timeout: opts.RedisTimeout,
			ProbeEvery: 100 * time.Millisecond})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(sh.Close)
		app.Shared = sh
		opts.Cache.Second, opts.Cache.Book = sh, shared.NewBook(sh, cache.NewBook(opts.Cache.Now))
		opts.Cache.FetchWait = timeout
		signOuts = shared.NewSignOuts(sh, handlers.NewMemorySignOuts(12*time.Hour), 12*time.Hour)
		attempts = shared.NewAttempts(sh, handlers.NewMemoryAttempts(opts.Now, handlers.ThrottleWindow))
	}
	store, err := cache.New(up, opts.Cache)
	if err != nil {
		t.Fatal(err)
	}
	app.Cache = store
	sessions, err := handlers.NewSessionStore([]string{TestSecret}, opts.CookieSecure, 12*time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	assets, err := static.Load()
	if err != nil {
		t.Fatal(err)
	}
	logs := &LogBuffer{}
	var svc handlers.Service = client
	if opts.WrapService != nil {
		svc = opts.WrapService(client)
	}
	dataDir := opts.DataDir
	if dataDir == "" && opts.DatabaseURL == "" {
		dataDir = t.TempDir()
	}
	ws, err := workspace.Open(context.Background(), workspace.Config{DataDir: dataDir, DatabaseURL: opts.DatabaseURL, Now: opts.Now, Timeout: opts.StoreTimeout})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = ws.Close() })
	app.Store = ws
	app.service = WorkspaceService
	if opts.ServiceName != "" {
		app.service = opts.ServiceName
	}
	teamRoles := opts.Roles
	if teamRoles == nil {
		teamRoles = roles.Demo(0)
	}
	if _, err := ws.RecordRoles(context.Background(), app.service, teamRoles.InForce()); err != nil {
		t.Fatal(err)
	}
	// Checked often, so that a test sees a change within moments.
	app.Health = health.New(health.Options{Observe: opts.Observe}, health.Standard(health.Deps{
		Service: func(ctx context.Context) error {
			app.pings.Add(1)
			return client.Ping(ctx)
		},
		Workspace: ws, FileCheck: ws.Engine() == workspace.SQLite,
		SharedStore: sharedDegraded(app.Shared),
		Every:       50 * time.Millisecond,
	})...)
	hctx, stopHealth := context.WithCancel(context.Background())
	t.Cleanup(stopHealth)
	app.Health.Start(hctx)
	h, err := handlers.New(handlers.Config{
		Workspace: ws,
		Notes:     ws,
		// The team's accounts live in the same store; the demo data offers
		// its sample ledgers.
		Accounts:          ws,
		SampleLedgers:     opts.Data == nil,
		Audit:             ws,
		Decisions:         ws,
		Worklists:         ws,
		Roles:             teamRoles,
		ServiceURL:        app.service,
		Service:           svc,
		Cache:             store,
		Sessions:          sessions,
		Assets:            assets,
		Logger:            slog.New(slog.NewTextHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug})),
		Health:            app.Health,
		PageWriteTimeout:  opts.PageWriteTimeout,
		WorkspaceDeadline: opts.WorkspaceDeadline,
		ExportStall:       opts.ExportStall,
		PageTurnWait:      opts.PageTurnWait,
		CookieSecure:      opts.CookieSecure,
		Now:               opts.Now,
		SignOuts:          signOuts,
		Attempts:          attempts,
		TrustedProxies:    opts.TrustedProxies,
		PublicURL:         opts.PublicURL,
		Meter:             opts.Meter,
		Demo:              demoHelp(opts.Demo, data, sim),
		Rules:             ws,
	})
	if err != nil {
		t.Fatal(err)
	}
	e := h.Routes()
	if opts.Routes != nil {
		opts.Routes(e)
	}
	srv := httptest.NewServer(e)
	t.Cleanup(srv.Close)
	app.URL, app.SimURL, app.Sim, app.Client, app.Logs, app.simSrv = srv.URL, simSrv.URL, sim, client, logs, simSrv
	app.Handler = e
	app.Stats = h.Stats
	return app
}

// demoHelp is cmd/web's demo-mode help, when on.
func demoHelp(on bool, data *simulator.Dataset, sim *simulator.Server) *handlers.Demo {
	if !on {
		return nil
	}
	d := &handlers.Demo{Password: simulator.DemoPassword, Code: sim.LastCode}
	for _, u := range data.Users {
		d.Accounts = append(d.Accounts, views.DemoAccount{Name: u.Username, About: u.Describe()})
	}
	return d
}

// On is the same browser (cookies and headers) talking to another
// replica, as a load balancer would send it.
func (u *User) On(a *App) *User {
	return &User{t: u.t, app: a, client: u.client, Header: u.Header}
}

// LogBuffer collects log output safely from concurrent handlers.
type LogBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

// Write appends to the buffer.
func (l *LogBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.Write(p)
}

// String returns everything logged so far.
func (l *LogBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.String()
}

// Contains reports whether the logs hold s.
func (l *LogBuffer) Contains(s string) bool { return strings.Contains(l.String(), s) }
