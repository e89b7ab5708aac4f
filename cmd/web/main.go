// Command web is the credit analysts' dashboard. Without UPSTREAM_URL it runs
// the built-in stand-in of the credit-risk service with demo data.
package main

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"runtime/debug"
	"strconv"
	"syscall"
	"time"

	"creditdash/internal/handlers"
	"creditdash/internal/metrics"
	"creditdash/internal/shared"
	workspace "creditdash/internal/store"
	"creditdash/internal/upstream"
	"creditdash/internal/upstream/cache"
	"creditdash/internal/upstream/simulator"
	"creditdash/static"
)

func main() {
	if len(os.Args) == 2 && os.Args[1] == "-healthcheck" {
		os.Exit(healthcheck(os.Getenv("LISTEN_ADDR")))
	}
	if err := run(os.Args[1:], os.Getenv, os.Stdout, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "web:", err)
		os.Exit(1)
	}
}

// memoryHeadroom is what Go's heap may use beyond CACHE_MB: requests in
// flight, buffers, the runtime. CACHE_MB itself holds the copies of the
// service's answers, the finished pages and the decoded sessions.
// Resident memory adds about 20 MiB of the program's own code and the SQLite page caches (9 MiB at
// most), and the soft limit is overshot while the collector catches up,
// so under make loadtest's 200 analysts 24 MiB keeps the process within
// CACHE_MB + 64 MiB (peak 124 MiB at CACHE_MB=64), where 32 MiB peaked at
// 131 and 40 at 149; the tighter limit costs about a seventh of the pages
// per second there (763 against 886), the collector running more often.
const memoryHeadroom = 24 << 20

// pageBytes is the share of the cache's bound given to finished pages: a
// sixteenth (4 MiB of the default 64, some 600 gzipped pages), at most
// 32 MiB. Under make loadtest's 200 analysts with gzip, as browsers ask,
// a quarter filled and left the collector no room under the soft limit:
// a sixteenth cost the dashboard a sixth less CPU per page (three runs
// each, 3.4/2.9/3.3 ms against 4.0/3.4/4.0).
func pageBytes(cacheBytes uint64) uint64 { return min(cacheBytes/16, 32<<20) }

// sessionBytes is the share of the cache's bound given to decoded
// sessions (see handlers' session memo): a sixty-fourth, at most 1 MiB.
// Counted inside CACHE_MB like the pages, so the bound still holds.
func sessionBytes(cacheBytes uint64) uint64 {
	return max(min(cacheBytes/64, handlers.DefaultSessionMemoBytes), 4<<10)
}

// run wires config -> service client -> sessions -> handlers -> server, and
// serves until SIGINT or SIGTERM.
func run(args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	cfg, err := loadConfig(args, getenv, stderr)
	if err != nil {
		return err
	}
	log := newLogger(cfg, stderr)
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()

	serviceURL := cfg.UpstreamURL
	if cfg.demo() {
		// The stand-in logs a line per request; quieter than the
		// dashboard unless debugging.
		simLevel := max(cfg.LogLevel, slog.LevelWarn)
		if cfg.LogLevel <= slog.LevelDebug {
			simLevel = cfg.LogLevel
		}
		simLog := newLogger(config{LogFormat: cfg.LogFormat, LogLevel: simLevel}, stderr).With("component", "stand-in")
		stopSim, addr, err := startStandIn(cfg, simLog)
		if err != nil {
			return err
		}
		defer stopSim()
		serviceURL = "http://" + addr
		if len(cfg.SessionSecrets) == 0 {
			cfg.SessionSecrets = []string{rand.Text() + rand.Text()}
			log.Warn("demo mode: no SESSION_SECRET, so cookie keys were generated; sign-ins end when the process stops")
		}
	}

	meter := metrics.New()
	client, err := upstream.New(serviceURL, upstream.Options{Timeout: cfg.UpstreamTimeout, Observe: meter.ObserveCall})
	if err != nil {
		return err
	}
	// Every page reads through the cache: per user, a lifetime per kind of
	// data, older copies when the service cannot answer.
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
	var degraded func() error      // nil: no shared store
	if cfg.RedisURL != "" {
		// Replicas share answers, budgets, sign-outs and sign-in attempts;
		// this process's cache stays in front as the first level.
		sh, err := shared.Open(cfg.RedisURL, shared.Options{Prefix: sharedPrefix(workspaceService(cfg, serviceURL)),
			Logger: log.With("component", "shared-store")})
		if err != nil {
			return err
		}
		// Unreachable now, it is picked up when it answers (logged).
		defer sh.Close()
		cacheOpts.Second, cacheOpts.Book = sh, shared.NewBook(sh, cache.NewBook(nil))
		signOuts = shared.NewSignOuts(sh, handlers.NewMemorySignOuts(cfg.SessionLifetime), cfg.SessionLifetime)
		attempts = shared.NewAttempts(sh, handlers.NewMemoryAttempts(nil, handlers.ThrottleWindow))
		degraded = sh.Degraded
		meter.WatchSharedStore(sh.Errors)
	}
	store, err := cache.New(client, cacheOpts)
	if err != nil {
		return err
	}
	meter.WatchCache(store.Stats)
	sessions, err := handlers.NewSessionStore(cfg.SessionSecrets, cfg.CookieSecure, cfg.SessionLifetime)
	if err != nil {
		return err
	}
	loadAssets := static.Load
	if cfg.StaticDir != "" {
		// A development aid: edits to CSS or scripts show on restart,
		// without a rebuild.
		loadAssets = func() (*static.Assets, error) { return static.LoadFS(os.DirFS(cfg.StaticDir)) }
	}
	assets, err := loadAssets()
	if err != nil {
		return err
	}
	// The analyst's workspace: SQLite in DATA_DIR, or PostgreSQL.
	ws, err := workspace.Open(ctx, workspace.Config{DataDir: cfg.DataDir, DatabaseURL: cfg.DatabaseURL, Logger: log})
	if err != nil {
		return fmt.Errorf("opening the workspace database: %w", err)
	}
	defer func() {
		if err := ws.Close(); err != nil {
			log.Error("closing the workspace database", "err", err)
		}
	}()
	h, err := handlers.New(handlers.Config{
		Workspace:        ws,
		ServiceURL:       workspaceService(cfg, serviceURL),
		Service:          client,
		Cache:            store,
		Sessions:         sessions,
		Assets:           assets,
		Logger:           log,
		Ready:            client.Ping,
		CookieSecure:     cfg.CookieSecure,
		PageCacheBytes:   pageBytes(cfg.CacheBytes),
		SessionMemoBytes: sessionBytes(cfg.CacheBytes),
		SessionLifetime:  cfg.SessionLifetime,
		SignOuts:         signOuts,
		Attempts:         attempts,
		Degraded:         degraded,
		Meter:            meter,
		TrustedProxies:   cfg.TrustedProxies,
	})
	if err != nil {
		return err
	}

	ln, err := net.Listen("tcp", cfg.ListenAddr)
	if err != nil {
		return err
	}
	srv := &http.Server{
		Handler:           h.Routes(),
		ReadHeaderTimeout: 5 * time.Second,
		ReadTimeout:       30 * time.Second,
		// No WriteTimeout: pages get a per-request deadline in the
		// middleware, and downloads may stream for minutes.
		IdleTimeout: 2 * time.Minute,
		// Go's own 431 carries no security headers: the handlers refuse
		// past 64 kB themselves, with them.
		MaxHeaderBytes: 1 << 20,
		ErrorLog:       slog.NewLogLogger(log.Handler(), slog.LevelWarn),
	}
	if cfg.MetricsAddr != "" {
		stopMetrics, err := serveMetrics(cfg.MetricsAddr, meter, log)
		if err != nil {
			return err
		}
		defer stopMetrics()
	}
	go tidy(ctx, store, h)
	announce(stdout, cfg, ln.Addr().String())
	log.Info("listening", "addr", ln.Addr().String(), "service", describeService(cfg), "shared_store", cfg.RedisURL != "")

	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	log.Info("shutting down")
	shutdownCtx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := srv.Shutdown(shutdownCtx); err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// startStandIn serves the stand-in service with demo data on a loopback port.
func startStandIn(cfg config, log *slog.Logger) (stop func(), addr string, err error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, "", fmt.Errorf("starting the stand-in service: %w", err)
	}
	data := simulator.Generate(simulator.GenerateOptions{Seed: cfg.DemoSeed})
	sim := simulator.New(data, simulator.Options{Logger: log})
	srv := &http.Server{Handler: sim, ReadHeaderTimeout: 5 * time.Second}
	go func() {
		if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			log.Error("stand-in service stopped", "err", err)
		}
	}()
	return func() { _ = srv.Close() }, ln.Addr().String(), nil
}

func newLogger(cfg config, w io.Writer) *slog.Logger {
	opts := &slog.HandlerOptions{Level: cfg.LogLevel}
	if cfg.LogFormat == "json" {
		return slog.New(slog.NewJSONHandler(w, opts))
	}
	return slog.New(slog.NewTextHandler(w, opts))
}

func describeService(cfg config) string {
	if cfg.demo() {
		return "built-in stand-in with demo data"
	}
	return cfg.UpstreamURL
}

// announce prints where the dashboard is and, in demo mode, how to sign in.
func announce(w io.Writer, cfg config, addr string) {
	fmt.Fprintf(w, "\nCreditDash is running at http://%s\n", addr)
	if cfg.demo() {
		fmt.Fprintln(w, "Demo mode: the built-in stand-in service answers with generated data.")
		fmt.Fprintln(w, "Sign in as demo / demo (also: ordinary, developer, trade, and secure with a two-factor code that is printed here; the password is always demo).")
	}
	fmt.Fprintln(w, "Stop with Ctrl+C.")
}

// sharedPrefix scopes the shared store's keys to one credit-risk service,
// named as the workspace names it: deployments on different services may
// share one Redis without sharing answers, budgets or sign-outs (a user
// name is another account at another service).
func sharedPrefix(service string) string {
	sum := sha256.Sum256([]byte(service))
	return "creditdash:" + hex.EncodeToString(sum[:6]) + ":"
}

// workspaceService names the service in the workspace's keys. The
// stand-in listens on a new port at every start, so it is named by its
// seed instead: the demo user's workspace survives a restart.
func workspaceService(cfg config, serviceURL string) string {
	if cfg.demo() {
		return "stand-in:seed=" + strconv.FormatInt(cfg.DemoSeed, 10)
	}
	return serviceURL
}
