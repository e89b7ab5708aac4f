package main

import (
	"context"
	"log/slog"
	"runtime/debug"
	"time"

	dashboard "creditdash/internal/app"
	"creditdash/internal/applications"
	"creditdash/internal/handlers"
	"creditdash/internal/health"
	"creditdash/internal/metrics"
	"creditdash/internal/shared"
)

// app is a started dashboard: what serving, the operators' listener and
// the shutdown need.
type app struct {
	handler *handlers.Handler
	health  *health.Monitor
	meter   *metrics.Metrics
	build   buildInfo
	cfg     config
	shared  *shared.Store
	started time.Time
	closers []func()
	// built is the dashboard internal/app built.
	built *dashboard.App
}

// close releases what start opened, last first.
func (a *app) close() {
	for i := len(a.closers) - 1; i >= 0; i-- {
		a.closers[i]()
	}
}

// start runs the stand-in in demo mode, then has internal/app build the
// dashboard as the tests build it. Only misconfigurations fail it: a
// workspace database that does not answer starts the dashboard degraded,
// a shared store that does not answer leaves the replica working alone.
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
	// CACHE_MB bounds resident memory only if the collector runs before
	// the heap doubles: it is the heap's soft limit, unless GOMEMLIMIT says
	// otherwise, and the caches leave the collector its room within it
	// (app's collectorBytes). Resident memory adds about 40 MiB: the
	// program's own code and data, the SQLite page caches (9 MiB at most),
	// goroutine stacks, and the overshoot while the collector catches up.
	if getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(int64(cfg.CacheBytes))
	}
	built, err := dashboard.New(ctx, dashboard.Config{
		ServiceURL:          serviceURL,
		Service:             workspaceService(cfg, serviceURL),
		UpstreamTimeout:     cfg.UpstreamTimeout,
		CacheTTL:            cfg.CacheTTL,
		NewsTTL:             cfg.NewsTTL,
		KeepStale:           cfg.KeepStale,
		CacheBytes:          cfg.CacheBytes,
		RedisURL:            cfg.RedisURL,
		SessionSecrets:      cfg.SessionSecrets,
		SessionLifetime:     cfg.SessionLifetime,
		CookieSecure:        cfg.CookieSecure,
		DataDir:             cfg.DataDir,
		DatabaseURL:         cfg.DatabaseURL,
		StoreWait:           true,
		Roles:               cfg.Roles,
		TrustedProxies:      cfg.TrustedProxies,
		PublicURL:           cfg.PublicURL,
		StaticDir:           cfg.StaticDir,
		Demo:                demo,
		SampleLedgers:       cfg.demo(),
		SMTPURL:             cfg.SMTPURL,
		DigestFrom:          cfg.DigestFrom,
		DigestTick:          cfg.DigestTick,
		Outbox:              cfg.demo(),
		WebhookAllowPrivate: cfg.WebhookAllowPrivate,
		Applications:        applications.Settings{LinkLife: cfg.ApplyLinkLife, MinFill: cfg.ApplyMinFill},
		MailURL:             mailURL(cfg, log),
		Logger:              log,
	})
	if err != nil {
		return nil, err
	}
	a.closers = append(a.closers, built.Close)
	a.built, a.handler, a.health, a.meter, a.shared = built, built.Handler, built.Health, built.Meter, built.Shared
	a.meter.SetBuild(a.build.Version, a.build.Revision, a.build.GoVersion)
	tctx, stopTidy := context.WithCancel(context.Background())
	a.closers = append(a.closers, stopTidy)
	go tidy(tctx, built.Cache, a.handler)
	return a, nil
}

// mailURL is where the links in digest mails lead: PUBLIC_URL, else the
// listening address (said in the log, since a mail has no request to take
// a host from).
func mailURL(cfg config, log *slog.Logger) string {
	if cfg.PublicURL != "" {
		return cfg.PublicURL
	}
	u := "http://" + cfg.ListenAddr
	log.Warn("digest: no PUBLIC_URL, so links in mails lead to " + u)
	return u
}
