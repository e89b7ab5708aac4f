// Command simulator serves the stand-in credit-risk data service over HTTP,
// with generated (or loaded) demo data, for the dashboard, tests and load runs.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"

	"creditdash/internal/upstream/simulator"
)

// config is what the flags set.
type config struct {
	addr       string
	seed       int64
	asOf       time.Time
	sessionTTL time.Duration
	latency    time.Duration
	jitter     time.Duration
	errorRate  float64
	dataFile   string
	dumpFile   string
	bulk       int
	analysts   int
}

func main() {
	log := slog.New(slog.NewTextHandler(os.Stderr, nil))
	cfg, err := parseFlags(os.Args[1:])
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	if err := run(cfg, log, os.Stdout); err != nil {
		log.Error("simulator stopped", "err", err)
		os.Exit(1)
	}
}

func parseFlags(args []string) (config, error) {
	var cfg config
	fs := flag.NewFlagSet("simulator", flag.ContinueOnError)
	fs.StringVar(&cfg.addr, "addr", "127.0.0.1:8081", "address to listen on")
	fs.Int64Var(&cfg.seed, "seed", 1, "seed of the generated demo data")
	asOf := fs.String("asof", "", "latest month with data, YYYY-MM (default: last month)")
	fs.DurationVar(&cfg.sessionTTL, "session-ttl", 60*time.Minute, "lifetime of a session key")
	fs.DurationVar(&cfg.latency, "latency", 0, "added latency of every /v1 answer")
	fs.DurationVar(&cfg.jitter, "jitter", 0, "random extra latency, up to this much")
	fs.Float64Var(&cfg.errorRate, "error-rate", 0, "share (0..1) of /v1 requests answered with 500")
	fs.StringVar(&cfg.dataFile, "data", "", "load the dataset from this JSON file instead of generating it")
	fs.StringVar(&cfg.dumpFile, "dump", "", "write the generated dataset as JSON to this file and exit")
	fs.IntVar(&cfg.bulk, "bulk", 0, "add user bulk whose portfolio holds this many businesses made on the fly")
	fs.IntVar(&cfg.analysts, "analysts", 0, "add users load1..loadN, copies of demo, for load runs")
	if err := fs.Parse(args); err != nil {
		return cfg, err
	}
	if fs.NArg() > 0 {
		return cfg, fmt.Errorf("simulator: unexpected arguments %q", fs.Args())
	}
	if *asOf != "" {
		t, err := time.Parse("2006-01", *asOf)
		if err != nil {
			return cfg, fmt.Errorf("simulator: -asof must be YYYY-MM, not %q", *asOf)
		}
		cfg.asOf = t
	}
	switch {
	case cfg.errorRate < 0 || cfg.errorRate > 1:
		return cfg, errors.New("simulator: -error-rate must be between 0 and 1")
	case cfg.latency < 0 || cfg.jitter < 0 || cfg.sessionTTL <= 0:
		return cfg, errors.New("simulator: durations must not be negative, and -session-ttl above zero")
	case cfg.bulk < 0 || cfg.bulk > simulator.BulkMaxCount:
		return cfg, fmt.Errorf("simulator: -bulk must be between 0 and %d", simulator.BulkMaxCount)
	case cfg.analysts < 0 || cfg.analysts > simulator.MaxAnalysts:
		return cfg, fmt.Errorf("simulator: -analysts must be between 0 and %d", simulator.MaxAnalysts)
	case cfg.dataFile != "" && cfg.dumpFile != "":
		return cfg, errors.New("simulator: -data and -dump do not go together")
	}
	return cfg, nil
}

func run(cfg config, log *slog.Logger, out io.Writer) error {
	if cfg.dumpFile != "" {
		return dump(cfg)
	}
	ds, err := dataset(cfg)
	if err != nil {
		return err
	}
	if err := simulator.AddAnalysts(ds, cfg.analysts); err != nil {
		return err
	}
	srv := simulator.New(ds, simulator.Options{
		SessionTTL: cfg.sessionTTL,
		Latency:    cfg.latency,
		Jitter:     cfg.jitter,
		ErrorRate:  cfg.errorRate,
		Bulk:       cfg.bulk,
		Logger:     log,
	})
	ln, err := net.Listen("tcp", cfg.addr)
	if err != nil {
		return fmt.Errorf("simulator: listen: %w", err)
	}
	hs := &http.Server{
		Handler:           srv,
		ReadHeaderTimeout: 5 * time.Second,
		ReadTimeout:       30 * time.Second,
		// No WriteTimeout: it would cut a long download of the bulk
		// portfolio; a client that stops reading is dropped by IdleTimeout
		// and TCP instead.
		IdleTimeout: 2 * time.Minute,
		ErrorLog:    slog.NewLogLogger(log.Handler(), slog.LevelWarn),
	}
	banner(out, "http://"+ln.Addr().String(), cfg.bulk)
	log.Info("simulator listening", "addr", ln.Addr().String(), "businesses", len(ds.Businesses), "asof", ds.AsOf)

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	errc := make(chan error, 1)
	go func() { errc <- hs.Serve(ln) }()
	select {
	case err := <-errc:
		return fmt.Errorf("simulator: serve: %w", err)
	case <-ctx.Done():
	}
	log.Info("simulator shutting down")
	shut, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := hs.Shutdown(shut); err != nil {
		return fmt.Errorf("simulator: shutdown: %w", err)
	}
	return nil
}

// dataset loads -data or generates from -seed and -asof.
func dataset(cfg config) (*simulator.Dataset, error) {
	if cfg.dataFile == "" {
		return simulator.Generate(simulator.GenerateOptions{Seed: cfg.seed, AsOf: cfg.asOf}), nil
	}
	f, err := os.Open(cfg.dataFile)
	if err != nil {
		return nil, fmt.Errorf("simulator: %w", err)
	}
	defer f.Close()
	ds, err := simulator.LoadDataset(f)
	if err != nil {
		return nil, fmt.Errorf("simulator: load %s: %w", cfg.dataFile, err)
	}
	return ds, nil
}

// dump writes the generated dataset to -dump.
func dump(cfg config) error {
	ds := simulator.Generate(simulator.GenerateOptions{Seed: cfg.seed, AsOf: cfg.asOf})
	f, err := os.Create(cfg.dumpFile)
	if err != nil {
		return fmt.Errorf("simulator: %w", err)
	}
	if err := ds.WriteJSON(f); err != nil {
		f.Close()
		return fmt.Errorf("simulator: dump: %w", err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("simulator: dump: %w", err)
	}
	return nil
}

// banner tells a person where the service is, who can sign in and how.
func banner(w io.Writer, base string, bulk int) {
	fmt.Fprintf(w, "Stand-in credit-risk service on %s\n\n", base)
	fmt.Fprintln(w, "Users (password demo):")
	fmt.Fprintln(w, "  demo       API User (unlimited), Full Access, suppliers S-<id>")
	fmt.Fprintln(w, "  ordinary   Ordinary (10 requests/hour), Full Access")
	fmt.Fprintln(w, "  developer  API Developer (200 requests/hour), API-Only")
	fmt.Fprintln(w, "  trade      API User, trade providers TP-1 (C1-<id>) and TP-2 (C2-<id>)")
	fmt.Fprintln(w, "  secure     API User, two-factor sign-in: the code is logged as a warning")
	if bulk > 0 {
		fmt.Fprintf(w, "  bulk       API User, one folder of %d businesses\n", bulk)
	}
	fmt.Fprintf(w, `
Try it:
  KEY=$(curl -s -d Username=demo -d Password=demo %[1]s/v1/Users/Login \
        | sed -E 's/.*"SessionKey":"([^"]*)".*/\1/')
  curl -s -H "Authorization: Bearer $KEY" '%[1]s/v1/Business/CreditScoreHistory?id=1001'

Test hooks: GET %[1]s/_sim/requests, GET|POST %[1]s/_sim/faults, POST %[1]s/_sim/reset,
            GET %[1]s/_sim/otp?user=secure (the last code sent)
`, base)
}
