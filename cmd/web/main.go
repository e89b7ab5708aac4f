// Command web is the credit analysts' dashboard. Without UPSTREAM_URL it runs
// the built-in stand-in of the credit-risk service with demo data.
package main

import (
	// The analysts' time zones (renewal times) in a binary built without
	// the system's zone files, as the container image is.
	_ "time/tzdata"

	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"strconv"
	"syscall"
	"time"

	"creditdash/internal/handlers"
	"creditdash/internal/upstream/simulator"
	"creditdash/internal/views"
)

func main() {
	if len(os.Args) == 2 && os.Args[1] == "-healthcheck" {
		os.Exit(healthcheck(os.Getenv("LISTEN_ADDR")))
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Getenv, os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// run reads the config, checks every setting, binds the listeners, starts
// the dashboard and serves until ctx ends (SIGINT or SIGTERM), then drains.
// It returns the exit code; every line it writes to stderr is a log line
// in LOG_FORMAT, the first and the last included.
func run(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) int {
	cfg, err := loadConfig(args, getenv, stdout)
	if errors.Is(err, errHelp) {
		return 0
	}
	if err != nil {
		bootLogger(args, getenv, stderr).Error("web: invalid configuration; nothing was started", "err", err)
		return 2
	}
	if cfg.ShowVersion {
		b := currentBuild()
		fmt.Fprintf(stdout, "web %s (revision %s, %s)\n", b.Version, b.Revision, b.GoVersion)
		return 0
	}
	log := newLogger(cfg, stderr)
	// Bound before anything is connected: an address in use is found at
	// once, not after the migrations ran.
	ln, err := net.Listen("tcp", cfg.ListenAddr)
	if err != nil {
		log.Error("web: cannot listen on LISTEN_ADDR", "addr", cfg.ListenAddr, "err", err)
		return 1
	}
	var opsLn net.Listener
	if cfg.MetricsAddr != "" {
		if opsLn, err = net.Listen("tcp", cfg.MetricsAddr); err != nil {
			ln.Close()
			log.Error("web: cannot listen on METRICS_ADDR", "addr", cfg.MetricsAddr, "err", err)
			return 1
		}
	}
	a, err := start(ctx, cfg, getenv, log)
	if err != nil {
		ln.Close()
		if opsLn != nil {
			opsLn.Close()
		}
		log.Error("web: cannot start", "err", err)
		return 1
	}
	defer a.close()
	if a.shared != nil {
		hctx, stopBeat := context.WithCancel(context.Background())
		defer stopBeat()
		go heartbeat(hctx, a.shared, replicaName(ln.Addr().String()))
	}
	if opsLn != nil {
		stopOps := serveOperators(opsLn, a, log)
		defer stopOps()
	}
	if cfg.LogFormat == "text" {
		announce(stdout, cfg, ln.Addr().String())
	}
	log.Info("listening", "addr", ln.Addr().String(), "url", "http://"+ln.Addr().String(), "version", a.build.Version,
		"service", describeService(cfg), "workspace", describeWorkspace(cfg), "shared_store", cfg.RedisURL != "",
		"shutdown_grace", cfg.ShutdownGrace, "demo_sign_in", demoHint(cfg))
	srv := &http.Server{
		Handler:           a.built.Routes,
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
	if err := serve(ctx, srv, ln, drainer{a.health, a.handler.Stats}, cfg.ShutdownGrace, log); err != nil {
		log.Error("web: serving failed", "err", err)
		return 1
	}
	return 0
}

// startStandIn serves the stand-in service with demo data on a loopback
// port; its data and server also give the sign-in pages their demo help.
func startStandIn(cfg config, log *slog.Logger) (stop func(), addr string, demo *handlers.Demo, err error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, "", nil, fmt.Errorf("starting the stand-in service: %w", err)
	}
	data := simulator.Generate(simulator.GenerateOptions{Seed: cfg.DemoSeed})
	sim := simulator.New(data, simulator.Options{Logger: log})
	srv := &http.Server{Handler: sim, ReadHeaderTimeout: 5 * time.Second}
	go func() {
		if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			log.Error("stand-in service stopped", "err", err)
		}
	}()
	return func() { _ = srv.Close() }, ln.Addr().String(), demoHelp(data, sim), nil
}

// demoHelp is what the sign-in pages tell a first visitor in demo mode:
// the stand-in's accounts and, on the code form, the code it "sent".
func demoHelp(data *simulator.Dataset, sim *simulator.Server) *handlers.Demo {
	d := &handlers.Demo{Password: simulator.DemoPassword, Code: sim.LastCode}
	for _, u := range data.Users {
		d.Accounts = append(d.Accounts, views.DemoAccount{Name: u.Username, About: u.Describe()})
	}
	return d
}

// describeService names the service for the log, its password redacted.
func describeService(cfg config) string {
	if cfg.demo() {
		return "built-in stand-in with demo data"
	}
	return redactURL(cfg.UpstreamURL)
}

// describeWorkspace names the workspace database for the log, redacted.
func describeWorkspace(cfg config) string {
	if cfg.DatabaseURL != "" {
		return redactURL(cfg.DatabaseURL)
	}
	return "sqlite in " + cfg.DataDir
}

// demoHint is how to sign in, in demo mode.
func demoHint(cfg config) string {
	if !cfg.demo() {
		return ""
	}
	return "demo / demo"
}

// announce prints where the dashboard is and, in demo mode, how to sign in
// (text logs only: with LOG_FORMAT=json the "listening" line says it).
func announce(w io.Writer, cfg config, addr string) {
	fmt.Fprintf(w, "\nCreditDash is running at http://%s\n", addr)
	if cfg.demo() {
		fmt.Fprintln(w, "Demo mode: the built-in stand-in service answers with generated data.")
		fmt.Fprintln(w, "Sign in as demo / demo (also: ordinary, developer, trade, and secure, whose two-factor code the code page shows; the password is always demo).")
	}
	fmt.Fprintln(w, "Stop with Ctrl+C.")
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

// demoSecret is a cookie key for a demo run without SESSION_SECRET.
func demoSecret() string { return rand.Text() + rand.Text() }
