package main

import (
	"context"
	"errors"
	"log/slog"
	"net"
	"net/http"
	"time"

	"creditdash/internal/handlers"
	"creditdash/internal/health"
)

// drainer is what a shutdown flips and reports: the readiness the
// balancers read, and the handlers' work in flight.
type drainer struct {
	health *health.Monitor
	stats  func() handlers.Stats
}

// readyFlipWait is how long a stopping replica keeps its listener open
// after /readyz turned 503 (a quarter of the grace at most), so balancers
// that probe it every few seconds stop sending before connections are
// refused.
const readyFlipWait = 5 * time.Second

// serve answers on ln until ctx ends, then stops within grace: /readyz
// turns 503 first; after a moment the listener closes while pages and
// exports in flight finish. What the grace cuts is logged; a stop is not
// a failure, so it returns nil either way. It returns an error only when
// serving itself fails.
func serve(ctx context.Context, srv *http.Server, ln net.Listener, d drainer, grace time.Duration, log *slog.Logger) error {
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	began := time.Now()
	d.health.Drain()
	s := d.stats()
	log.Info("stopping: /readyz answers 503; pages and exports in flight may finish", "grace", grace,
		"requests", s.InFlight, "exports", s.ExportsInFlight)
	select {
	case <-time.After(min(readyFlipWait, grace/4)):
	case err := <-errc:
		return err
	}
	sctx, cancel := context.WithTimeout(context.Background(), grace-time.Since(began))
	defer cancel()
	err := srv.Shutdown(sctx)
	if errors.Is(err, context.DeadlineExceeded) {
		s := d.stats()
		log.Warn("stopped: the shutdown grace ran out and cut what was still running", "grace", grace,
			"requests_cut", s.InFlight, "exports_cut", s.ExportsInFlight)
		_ = srv.Close()
		return nil
	}
	if err != nil {
		return err
	}
	log.Info("stopped: everything in flight finished", "took", time.Since(began))
	return nil
}
