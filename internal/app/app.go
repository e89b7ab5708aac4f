// Package app builds the dashboard in one place: service client, caches,
// shared store, sessions, workspace, health checks, metrics and handlers.
// cmd/web serves what New returns; internal/apptest builds the same app
// with test seams (see Seams), so tests run what production runs.
package app

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/netip"
	"os"
	"time"

	"github.com/labstack/echo/v5"

	"creditdash/internal/applications"
	"creditdash/internal/digest"
	"creditdash/internal/handlers"
	"creditdash/internal/health"
	"creditdash/internal/jobs"
	"creditdash/internal/metrics"
	"creditdash/internal/roles"
	"creditdash/internal/session"
	"creditdash/internal/shared"
	workspace "creditdash/internal/store"
	"creditdash/internal/team"
	"creditdash/internal/upstream"
	"creditdash/internal/upstream/cache"
	"creditdash/internal/webhooks"
	"creditdash/static"
)

// Config is what a deployment chooses (cmd/web reads it from the
// environment); zero values mean the components' defaults.
type Config struct {
	// ServiceURL is the credit-risk service's base URL.
	ServiceURL string
	// Service names the service in workspace keys, session cookies and
	// the shared store's keys; empty means ServiceURL.
	Service string
	// UpstreamTimeout bounds one call to the service; zero means 10 s.
	UpstreamTimeout time.Duration
	// CacheTTL keeps reports, portfolios and accounts fresh, NewsTTL news
	// and search; zero means the cache's defaults.
	CacheTTL, NewsTTL time.Duration
	// KeepStale is how long an expired copy is kept for outages.
	KeepStale time.Duration
	// CacheBytes is the heap's budget (CACHE_MB, the process's soft memory
	// limit): the collector's room, then the copies, the finished pages,
	// the decoded sessions and the team's figures share the rest; zero
	// means each part's own default.
	CacheBytes uint64
	// RedisURL, when set, shares answers, budgets, sign-outs and sign-in
	// attempts with the other replicas.
	RedisURL string
	// SessionSecrets seal the session cookies (the first one signs).
	SessionSecrets []string
	// SessionLifetime is the longest a session lasts; zero means 12 hours.
	SessionLifetime time.Duration
	// CookieSecure marks cookies Secure and sends HSTS, as over TLS.
	CookieSecure bool
	// DataDir holds the SQLite workspace; DatabaseURL puts it on
	// PostgreSQL instead.
	DataDir, DatabaseURL string
	// StoreWait starts the dashboard degraded when the workspace database
	// does not answer at once, and keeps trying in the background.
	StoreWait bool
	// Roles are TEAM_ROLES: they bootstrap an empty team, and their
	// analyst authority is a non-member's; nil makes everyone an analyst.
	Roles *roles.Table
	// TrustedProxies are the reverse proxies whose X-Forwarded-For is
	// believed; PublicURL the site's address for absolute links.
	TrustedProxies []netip.Prefix
	PublicURL      string
	// StaticDir serves static files from disk instead of the embedded
	// ones (a development aid).
	StaticDir string
	// Demo is the stand-in's first-run help (demo mode); SampleLedgers
	// offers the demo portfolio's sample ledgers.
	Demo          *handlers.Demo
	SampleLedgers bool
	// SMTPURL sends the e-mail digest (SMTP_URL); Outbox instead writes
	// mails into DataDir/outbox (demo mode without SMTP_URL); with
	// neither, e-mail is not configured. DigestFrom is the sender,
	// DigestTick how often due digests are looked for, MailURL where the
	// links in mails lead (empty: PublicURL).
	SMTPURL, DigestFrom, MailURL string
	Outbox                       bool
	DigestTick                   time.Duration
	// WebhookAllowPrivate lets webhook endpoints be at private and
	// loopback addresses (WEBHOOK_ALLOW_PRIVATE); NoWebhooks leaves
	// webhooks out (tests that do not need their queue).
	WebhookAllowPrivate, NoWebhooks bool
	// Applications are the credit applications' settings (APPLY_*).
	Applications applications.Settings
	// Logger receives the dashboard's logs; nil discards them.
	Logger *slog.Logger
}

// App is a built dashboard: what serving, the operators' listener, the
// tests and the shutdown need.
type App struct {
	// Handler serves every page; Routes is its router.
	Handler *handlers.Handler
	Routes  *echo.Echo
	// Client talks to the service; Cache keeps its answers.
	Client *upstream.Client
	Cache  *cache.Cache
	// Store is the analysts' workspace; Shared the store shared with other
	// replicas (nil without RedisURL).
	Store  *workspace.Store
	Shared *shared.Store
	// Digests is the e-mail digest; Webhooks the webhook deliveries (nil
	// with NoWebhooks); Jobs their job queue (nil when neither runs).
	Digests  *digest.Service
	Webhooks *webhooks.Service
	Jobs     *jobs.Queue
	// Applications are the credit applications (their mails on Jobs).
	Applications *applications.Service
	// Health runs the background checks behind /readyz; Meter counts for
	// operators.
	Health *health.Monitor
	Meter  *metrics.Metrics
	// Service names the service in workspace keys.
	Service string
	// Team is the team's membership: the roles every check reads.
	Team *team.Directory

	closers []func()
}

// Close releases what New opened, last first.
func (a *App) Close() {
	for i := len(a.closers) - 1; i >= 0; i-- {
		a.closers[i]()
	}
	a.closers = nil
}

// firstConnect bounds the workspace database's first attempt when
// StoreWait is set; past it the dashboard starts degraded.
const firstConnect = 10 * time.Second

// New builds the dashboard as production runs it.
func New(ctx context.Context, cfg Config) (*App, error) { return Build(ctx, cfg, Seams{}) }

// Build builds the dashboard with test seams; production passes none.
// Only misconfigurations fail it: with StoreWait a workspace database
// that does not answer starts the dashboard degraded, and a shared store
// that does not answer leaves the replica working alone.
func Build(ctx context.Context, cfg Config, s Seams) (a *App, err error) {
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	if cfg.Service == "" {
		cfg.Service = cfg.ServiceURL
	}
	if cfg.SessionLifetime <= 0 {
		cfg.SessionLifetime = 12 * time.Hour
	}
	log := cfg.Logger
	a = &App{Meter: metrics.New(), Service: cfg.Service}
	// built keeps what was opened: a failing return sets the named a to nil.
	built := a
	defer func() {
		if err != nil {
			built.Close()
		}
	}()
	a.Client, err = upstream.New(cfg.ServiceURL, upstream.Options{Timeout: cfg.UpstreamTimeout, Observe: a.Meter.ObserveCall})
	if err != nil {
		return nil, err
	}
	cacheOpts := cache.Options{
		TTLs:      cacheTTLs(cfg),
		MaxBytes:  cacheBytes(cfg.CacheBytes),
		KeepStale: cfg.KeepStale,
		FetchWait: cfg.UpstreamTimeout,
		Now:       s.Now,
	}
	var signOuts session.SignOuts // nil: in memory
	var attempts session.Attempts // nil: in memory
	var sharedDown func() error   // nil: no shared store
	if cfg.RedisURL != "" {
		prefix := s.RedisPrefix
		if prefix == "" {
			prefix = SharedPrefix(cfg.Service)
		}
		// Unreachable now, it is picked up when it answers (logged).
		sh, err := shared.Open(cfg.RedisURL, shared.Options{Prefix: prefix, Timeout: s.RedisTimeout,
			ProbeEvery: s.RedisProbeEvery, Logger: log.With("component", "shared-store")})
		if err != nil {
			return nil, err
		}
		a.closers = append(a.closers, sh.Close)
		a.Shared = sh
		// Replicas share answers, budgets, sign-outs and sign-in attempts;
		// this process's cache stays in front as the first level.
		cacheOpts.Second, cacheOpts.Book = sh, shared.NewBook(sh, cache.NewBook(s.Now))
		signOuts = shared.NewSignOuts(sh, session.NewMemorySignOuts(cfg.SessionLifetime), cfg.SessionLifetime)
		attempts = shared.NewAttempts(sh, session.NewMemoryAttempts(s.Now, session.ThrottleWindow))
		sharedDown = sh.Degraded
		a.Meter.WatchSharedStore(sh.Errors, sh.Degraded)
	}
	if s.Cache != nil {
		s.Cache(&cacheOpts)
	}
	if a.Cache, err = cache.New(a.Client, cacheOpts); err != nil {
		return nil, err
	}
	a.Meter.WatchCache(a.Cache.Stats)
	sessions, err := session.NewStore(cfg.SessionSecrets, cfg.CookieSecure, cfg.SessionLifetime)
	if err != nil {
		return nil, err
	}
	assets, err := loadAssets(cfg.StaticDir)
	if err != nil {
		return nil, err
	}
	if err := a.openStore(ctx, cfg, s); err != nil {
		return nil, err
	}
	a.startHealth(s, sharedDown, log)
	source := "TEAM_ROLES"
	if cfg.Demo != nil {
		source = "the demo's roles"
	}
	a.Team = team.New(a.Store, cfg.Service, cfg.Roles, source, log)
	a.bootstrapTeam(ctx, log)
	if err := a.startJobs(cfg, s, log); err != nil {
		return nil, err
	}
	var svc handlers.Service = a.Client
	if s.WrapService != nil {
		svc = s.WrapService(a.Client)
	}
	a.Handler, err = handlers.New(handlers.Config{
		Store:             a.Store,
		TeamCacheBytes:    teamBytes(cfg.CacheBytes),
		SampleLedgers:     cfg.SampleLedgers,
		Demo:              cfg.Demo,
		Team:              a.Team,
		ServiceURL:        cfg.Service,
		Service:           svc,
		Cache:             a.Cache,
		Sessions:          sessions,
		Assets:            assets,
		Logger:            log,
		Health:            a.Health,
		CookieSecure:      cfg.CookieSecure,
		PageCacheBytes:    pageBytes(cfg.CacheBytes),
		SessionMemoBytes:  sessionBytes(cfg.CacheBytes),
		SessionLifetime:   cfg.SessionLifetime,
		SignOuts:          signOuts,
		Attempts:          attempts,
		Meter:             a.Meter,
		TrustedProxies:    cfg.TrustedProxies,
		PublicURL:         cfg.PublicURL,
		Now:               s.Now,
		PageWriteTimeout:  s.PageWriteTimeout,
		WorkspaceDeadline: s.WorkspaceDeadline,
		ExportStall:       s.ExportStall,
		PageTurnWait:      s.PageTurnWait,
		BacktestHold:      s.BacktestHold,
		TeamPageHold:      s.TeamPageHold,
		Digests:           a.Digests,
		Webhooks:          a.Webhooks,
		Applications:      a.Applications,
	})
	if err != nil {
		return nil, err
	}
	a.Meter.WatchHandlers(a.Handler.Stats)
	a.Meter.WatchDB(a.Store.PoolStats)
	a.Routes = a.Handler.Routes()
	if s.Routes != nil {
		s.Routes(a.Routes)
	}
	return a, nil
}

// loadAssets reads the embedded static files, or dir's when set: edits
// to CSS or scripts then show on restart, without a rebuild.
func loadAssets(dir string) (*static.Assets, error) {
	if dir != "" {
		return static.LoadFS(os.DirFS(dir))
	}
	return static.Load()
}

// openStore opens the analysts' workspace: SQLite in DataDir, or
// PostgreSQL. With StoreWait, a database not there now starts the
// dashboard without it (workspace pages say it is unavailable) while the
// store retries with backoff.
func (a *App) openStore(ctx context.Context, cfg Config, s Seams) error {
	wcfg := workspace.Config{DataDir: cfg.DataDir, DatabaseURL: cfg.DatabaseURL, Logger: cfg.Logger,
		Wait: cfg.StoreWait, Now: s.Now, Timeout: s.StoreTimeout}
	octx := ctx
	if cfg.StoreWait {
		var cancel context.CancelFunc
		octx, cancel = context.WithTimeout(ctx, firstConnect)
		defer cancel()
	}
	ws, err := workspace.Open(octx, wcfg)
	if err != nil {
		if errors.Is(err, workspace.ErrMisconfigured) {
			return fmt.Errorf("misconfiguration: %w", err)
		}
		return fmt.Errorf("opening the workspace database: %w", err)
	}
	a.Store = ws
	a.closers = append(a.closers, func() {
		if err := ws.Close(); err != nil {
			cfg.Logger.Error("closing the workspace database", "err", err)
		}
	})
	return nil
}

// startHealth starts the background checks of the service, the workspace
// database and the shared store, until Close.
func (a *App) startHealth(s Seams, sharedDown func() error, log *slog.Logger) {
	ping := a.Client.Ping
	if s.OnPing != nil {
		ping = func(ctx context.Context) error {
			s.OnPing()
			return a.Client.Ping(ctx)
		}
	}
	observe := a.Meter.ObserveProbe
	if s.Observe != nil {
		observe = func(name string, err error, took time.Duration) {
			a.Meter.ObserveProbe(name, err, took)
			s.Observe(name, err, took)
		}
	}
	a.Health = health.New(health.Options{Observe: observe, Logger: log}, health.Standard(health.Deps{
		Service: ping, Workspace: a.Store, FileCheck: a.Store.Engine() == workspace.SQLite,
		SharedStore: sharedDown, Every: s.HealthEvery,
	})...)
	hctx, stop := context.WithCancel(context.Background())
	a.closers = append(a.closers, stop)
	a.Health.Start(hctx)
}
