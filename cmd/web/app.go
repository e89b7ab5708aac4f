package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"runtime/debug"
	"time"

	"creditdash/internal/handlers"
	"creditdash/internal/health"
	"creditdash/internal/metrics"
	"creditdash/internal/shared"
	workspace "creditdash/internal/store"
	"creditdash/internal/upstream"
	"creditdash/internal/upstream/cache"
	"creditdash/static"
)

// app is a started dashboard: what serving, the operators' listener and
// the shutdown need.
type app struct {
	handler *handlers.Handler
	health  *health.Monitor
	meter   *metrics.Metrics
	build   buildInfo
	cfg     config
	store   *workspace.Store
	shared  *shared.Store
	started time.Time
	closers []func()
}

// close releases what start opened, last first.
func (a *app) close() {
	for i := len(a.closers) - 1; i >= 0; i-- {
		a.closers[i]()
	}
}

// firstConnect bounds the workspace database's first attempt at start;
// past it the dashboard starts degraded and keeps trying in the background.
const firstConnect = 10 * time.Second

// start wires config -> service client -> caches -> sessions -> workspace
// -> health -> handlers. Only misconfigurations fail it: a workspace
// database that does not answer starts the dashboard degraded, a shared
// store that does not answer leaves the replica working alone.
func start(ctx context.Context, cfg config, getenv func(string) string, log *slog.Logger) (a *app, err error) {
	a = &app{build: currentBuild(), cfg: cfg, started: time.Now()}
	defer func() {
		if err != nil {
			a.close()
		}
	}()
	serviceURL := cfg.UpstreamURL
	var demo *handlers.Demo // first-run help, in demo mode only
	if cfg.demo() {
		// The stand-in logs a line per request; quieter than the
		// dashboard unless debugging.
		simCfg := cfg
		simCfg.LogLevel = max(cfg.LogLevel, slog.LevelWarn)
		if cfg.LogLevel <= slog.LevelDebug {
			simCfg.LogLevel = cfg.LogLevel
		}
		stopSim, addr, help, err := startStandIn(cfg, newLogger(simCfg, logOutput(log)).With("component", "stand-in"))
		if err != nil {
			return nil, err
		}
		a.closers = append(a.closers, stopSim)
		demo = help
		serviceURL = "http://" + addr
		if len(cfg.SessionSecrets) == 0 {
			cfg.SessionSecrets = []string{demoSecret()}
			log.Warn("demo mode: no SESSION_SECRET, so cookie keys were generated; sign-ins end when the process stops")
		}
	}

	a.meter = metrics.New()
	a.meter.SetBuild(a.build.Version, a.build.Revision, a.build.GoVersion)
	client, err := upstream.New(serviceURL, upstream.Options{Timeout: cfg.UpstreamTimeout, Observe: a.meter.ObserveCall})
	if err != nil {
		return nil, err
	}
	// The cache's bound is a bound on resident memory only if the
	// collector runs before the heap doubles: a soft limit of the cache,
	// the page cache and room for requests, unless GOMEMLIMIT says otherwise.
	if getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(int64(cfg.CacheBytes) + memoryHeadroom)
	}
	cacheOpts := cache.Options{
		TTLs: map[cache.Kind]time.Duration{
			cache.KindReport: cfg.CacheTTL, cache.KindPortfolio: cfg.CacheTTL, cache.KindAccount: cfg.CacheTTL,
			cache.KindNews: cfg.NewsTTL, cache.KindSearch: cfg.NewsTTL,
		},
		MaxBytes:  cfg.CacheBytes - pageBytes(cfg.CacheBytes) - sessionBytes(cfg.CacheBytes),
		KeepStale: cfg.KeepStale,
		FetchWait: cfg.UpstreamTimeout,
	}
	var signOuts handlers.SignOuts // nil: in memory
	var attempts handlers.Attempts // nil: in memory
	var sharedDown func() error    // nil: no shared store
	if cfg.RedisURL != "" {
		// Replicas share answers, budgets, sign-outs and sign-in attempts;
		// this process's cache stays in front as the first level.
		sh, err := shared.Open(cfg.RedisURL, shared.Options{Prefix: sharedPrefix(workspaceService(cfg, serviceURL)),
			Logger: log.With("component", "shared-store")})
		if err != nil {
			return nil, err
		}
		// Unreachable now, it is picked up when it answers (logged).
		a.closers = append(a.closers, sh.Close)
		a.shared = sh
		cacheOpts.Second, cacheOpts.Book = sh, shared.NewBook(sh, cache.NewBook(nil))
		signOuts = shared.NewSignOuts(sh, handlers.NewMemorySignOuts(cfg.SessionLifetime), cfg.SessionLifetime)
		attempts = shared.NewAttempts(sh, handlers.NewMemoryAttempts(nil, handlers.ThrottleWindow))
		sharedDown = sh.Degraded
		a.meter.WatchSharedStore(sh.Errors, sh.Degraded)
	}
	store, err := cache.New(client, cacheOpts)
	if err != nil {
		return nil, err
	}
	a.meter.WatchCache(store.Stats)
	sessions, err := handlers.NewSessionStore(cfg.SessionSecrets, cfg.CookieSecure, cfg.SessionLifetime)
	if err != nil {
		return nil, err
	}
	loadAssets := static.Load
	if cfg.StaticDir != "" {
		// A development aid: edits to CSS or scripts show on restart,
		// without a rebuild.
		loadAssets = func() (*static.Assets, error) { return static.LoadFS(os.DirFS(cfg.StaticDir)) }
	}
	assets, err := loadAssets()
	if err != nil {
		return nil, err
	}
	// The analyst's workspace: SQLite in DATA_DIR, or PostgreSQL. Not
	// there now, the dashboard starts without it (workspace pages say it
	// is unavailable) and the store retries with backoff.
	octx, cancel := context.WithTimeout(ctx, firstConnect)
	ws, err := workspace.Open(octx, workspace.Config{DataDir: cfg.DataDir, DatabaseURL: cfg.DatabaseURL, Logger: log, Wait: true})
	cancel()
	if err != nil {
		if errors.Is(err, workspace.ErrMisconfigured) {
			return nil, fmt.Errorf("misconfiguration: %w", err)
		}
		return nil, fmt.Errorf("opening the workspace database: %w", err)
	}
	a.store = ws
	a.closers = append(a.closers, func() {
		if err := ws.Close(); err != nil {
			log.Error("closing the workspace database", "err", err)
		}
	})
	a.health = health.New(health.Options{Observe: a.meter.ObserveProbe, Logger: log}, health.Standard(health.Deps{
		Service: client.Ping, Workspace: ws, FileCheck: ws.Engine() == workspace.SQLite, SharedStore: sharedDown,
	})...)
	hctx, stopHealth := context.WithCancel(context.Background())
	a.closers = append(a.closers, stopHealth)
	a.health.Start(hctx)

	go recordRoles(hctx, ws, workspaceService(cfg, serviceURL), cfg.Roles, log)

	a.handler, err = handlers.New(handlers.Config{
		Workspace:          ws,
		Audit:              ws,
		Notes:              ws,
		Accounts:           ws,
		Decisions:          ws,
		Worklists:          ws,
		SampleLedgers:      cfg.demo(),
		Demo:               demo,
		Rules:              ws,
		SupplierCategories: ws,
		Roles:              cfg.Roles,
		ServiceURL:         workspaceService(cfg, serviceURL),
		Service:            client,
		Cache:              store,
		Sessions:           sessions,
		Assets:             assets,
		Logger:             log,
		Health:             a.health,
		CookieSecure:       cfg.CookieSecure,
		PageCacheBytes:     pageBytes(cfg.CacheBytes),
		SessionMemoBytes:   sessionBytes(cfg.CacheBytes),
		SessionLifetime:    cfg.SessionLifetime,
		SignOuts:           signOuts,
		Attempts:           attempts,
		Meter:              a.meter,
		TrustedProxies:     cfg.TrustedProxies,
		PublicURL:          cfg.PublicURL,
	})
	if err != nil {
		return nil, err
	}
	a.meter.WatchHandlers(a.handler.Stats)
	a.meter.WatchDB(ws.PoolStats)
	tctx, stopTidy := context.WithCancel(context.Background())
	a.closers = append(a.closers, stopTidy)
	go tidy(tctx, store, a.handler)
	return a, nil
}
