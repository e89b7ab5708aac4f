// Package apptest starts the whole dashboard for tests: the stand-in service
// with demo data, the real upstream client, and the real router, each on a
// loopback httptest server. Handler tests and browser tests share it.
package apptest

import (
	"bytes"
	"cmp"
	"context"
	"crypto/x509"
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

	dashboard "creditdash/internal/app"
	"creditdash/internal/applications"
	"creditdash/internal/digest"
	"creditdash/internal/handlers"
	"creditdash/internal/health"
	"creditdash/internal/jobs"
	"creditdash/internal/metrics"
	"creditdash/internal/roles"
	"creditdash/internal/shared"
	workspace "creditdash/internal/store"
	"creditdash/internal/upstream"
	"creditdash/internal/upstream/cache"
	"creditdash/internal/upstream/simulator"
	"creditdash/internal/views"
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
// Start turns them into internal/app's Config and Seams, so tests run the
// app production runs.
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
	// StandIn puts a layer in front of the stand-in service (one that
	// lacks an operation, say): every call the dashboard makes passes it.
	StandIn func(http.Handler) http.Handler
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
	// HealthEvery is how often the background health checks run after
	// the first; zero means every 50 ms, so that a test sees a change
	// within moments.
	HealthEvery time.Duration
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
	// BacktestHold is called by each back-test once it holds its slot
	// (handlers.Config.BacktestHold): a handshake that may block.
	BacktestHold func()
	// TeamPageHold is called by each team page once it holds its
	// analyst's turn (handlers.Config.TeamPageHold): a handshake that may
	// block.
	TeamPageHold func()
	// SMTPURL sends the e-mail digest there, as SMTP_URL does; Outbox
	// instead writes mails into DataDir/outbox as demo mode does; with
	// neither, e-mail is not configured. DigestTick is DIGEST_TICK (zero:
	// 50 ms, so that tests wait moments, not minutes).
	SMTPURL string
	Outbox  bool
	// SMTPRoots are the certificate authorities the SMTP client trusts
	// (the Mailbox's, for STARTTLS); nil means the system's.
	SMTPRoots  *x509.CertPool
	DigestTick time.Duration
	// Webhooks runs webhook deliveries and their queue (off otherwise, so
	// that tests without them start no queue), the outbox looked at every
	// 20 ms and the first retry after 50 ms; WebhookAllowPrivate is
	// WEBHOOK_ALLOW_PRIVATE, for a receiver on loopback.
	Webhooks, WebhookAllowPrivate bool
	// WebhookPoll is how often the outbox is looked at; zero means 20 ms
	// (a benchmark gives production's).
	WebhookPoll time.Duration
	// Applications are the credit applications' settings (APPLY_*); zero
	// values are the defaults, but no minimum fill time.
	Applications applications.Settings
}

// DigestFrom is the digests' sender in tests.
const DigestFrom = "CreditDash <digest@creditdash.test>"

// PublicURL is where mails' links lead when Options.PublicURL is empty.
const PublicURL = "https://credit.example.test"

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
	// Digests is the e-mail digest; Jobs the job queue (nil when nothing
	// runs on it).
	Digests *digest.Service
	Jobs    *jobs.Queue
	// Meter counts for operators, as /metrics shows them.
	Meter *metrics.Metrics

	simSrv *httptest.Server
	pings  atomic.Int32
	// service names the service in workspace keys and cookies.
	service string
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
		var front http.Handler = sim
		if opts.StandIn != nil {
			front = opts.StandIn(sim)
		}
		simSrv = httptest.NewServer(front)
		t.Cleanup(simSrv.Close)
	}

	timeout := opts.Timeout
	if timeout == 0 {
		timeout = 5 * time.Second
	}
	service := WorkspaceService
	if opts.ServiceName != "" {
		service = opts.ServiceName
	}
	teamRoles := opts.Roles
	if teamRoles == nil {
		teamRoles = roles.Demo(0)
	}
	dataDir := opts.DataDir
	if dataDir == "" && opts.DatabaseURL == "" {
		dataDir = t.TempDir()
		if err := seedWorkspace(dataDir); err != nil {
			t.Fatal(err)
		}
	}
	if opts.RedisURL != "" && opts.RedisTimeout == 0 {
		opts.RedisTimeout = time.Second
	}
	logs := &LogBuffer{}
	seams := dashboard.Seams{
		Now: opts.Now,
		Cache: func(co *cache.Options) {
			if opts.Cache.Now != nil {
				co.Now = opts.Cache.Now
			}
			if opts.Cache.TTLs != nil {
				co.TTLs = opts.Cache.TTLs
			}
			if opts.Cache.MaxBytes != 0 {
				co.MaxBytes = opts.Cache.MaxBytes
			}
			if opts.Cache.KeepStale != 0 {
				co.KeepStale = opts.Cache.KeepStale
			}
			if opts.NoCache {
				co.TTLs = map[cache.Kind]time.Duration{}
				for k := range cache.DefaultTTLs {
					co.TTLs[k] = 0
				}
				co.KeepStale = time.Nanosecond
			}
		},
		WrapService:       opts.WrapService,
		BacktestHold:      opts.BacktestHold,
		TeamPageHold:      opts.TeamPageHold,
		SMTPRoots:         opts.SMTPRoots,
		StoreTimeout:      opts.StoreTimeout,
		PageWriteTimeout:  opts.PageWriteTimeout,
		WorkspaceDeadline: opts.WorkspaceDeadline,
		ExportStall:       opts.ExportStall,
		PageTurnWait:      opts.PageTurnWait,
		// Checked often, so that a test sees a change within moments.
		HealthEvery:      cmp.Or(opts.HealthEvery, 50*time.Millisecond),
		OnPing:           func() { app.pings.Add(1) },
		Observe:          opts.Observe,
		RedisPrefix:      opts.RedisPrefix,
		RedisTimeout:     opts.RedisTimeout,
		RedisProbeEvery:  100 * time.Millisecond,
		Routes:           opts.Routes,
		WebhookPoll:      cmp.Or(opts.WebhookPoll, 20*time.Millisecond),
		WebhookRetryBase: 50 * time.Millisecond,
	}
	digestTick, mailURL := opts.DigestTick, opts.PublicURL
	if digestTick == 0 {
		digestTick = 50 * time.Millisecond
	}
	if mailURL == "" {
		mailURL = PublicURL
	}
	built, err := dashboard.Build(context.Background(), dashboard.Config{
		ServiceURL:      simSrv.URL,
		Service:         service,
		UpstreamTimeout: timeout,
		RedisURL:        opts.RedisURL,
		SessionSecrets:  []string{TestSecret},
		SessionLifetime: 12 * time.Hour,
		CookieSecure:    opts.CookieSecure,
		DataDir:         dataDir,
		DatabaseURL:     opts.DatabaseURL,
		Roles:           teamRoles,
		TrustedProxies:  opts.TrustedProxies,
		PublicURL:       opts.PublicURL,
		Demo:            demoHelp(opts.Demo, data, sim),
		// The demo data offers its sample ledgers.
		SampleLedgers:       opts.Data == nil,
		SMTPURL:             opts.SMTPURL,
		Outbox:              opts.Outbox,
		DigestFrom:          DigestFrom,
		DigestTick:          digestTick,
		MailURL:             mailURL,
		NoWebhooks:          !opts.Webhooks,
		WebhookAllowPrivate: opts.WebhookAllowPrivate,
		Applications:        opts.Applications,
		Logger:              slog.New(slog.NewTextHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug})),
	}, seams)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(built.Close)
	srv := httptest.NewServer(built.Routes)
	t.Cleanup(srv.Close)
	app.URL, app.SimURL, app.Sim, app.Client, app.Logs, app.simSrv = srv.URL, simSrv.URL, sim, built.Client, logs, simSrv
	app.Handler, app.Cache, app.Store, app.Shared, app.Health, app.Meter = built.Routes, built.Cache, built.Store, built.Shared, built.Health, built.Meter
	app.Stats, app.Digests, app.Jobs = built.Handler.Stats, built.Digests, built.Jobs
	app.service = service
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
