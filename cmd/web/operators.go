package main

import (
	"context"
	"errors"
	"log/slog"
	"net"
	"net/http"
	"os"
	"time"

	"creditdash/internal/shared"
	"creditdash/internal/views"
	"creditdash/templates"
)

// Replicas tell the shared store they are there every heartbeatEvery; one
// not heard of for replicaTTL is no longer counted.
const (
	heartbeatEvery = 10 * time.Second
	replicaTTL     = time.Minute
)

// serveOperators serves /metrics and the operator page /status (and Go's
// profiles under PPROF) on METRICS_ADDR's own listener, so none of it is
// reachable through the dashboard's public address.
func serveOperators(ln net.Listener, a *app, log *slog.Logger) (stop func()) {
	mux := http.NewServeMux()
	mux.Handle("GET /metrics", a.meter.Handler())
	mux.HandleFunc("GET /status", a.showStatus)
	mux.Handle("GET /{$}", http.RedirectHandler("/status", http.StatusSeeOther))
	if a.cfg.Pprof {
		// Only when asked (PPROF): a profile costs CPU while it runs.
		mux.HandleFunc("GET /debug/pprof/profile", serveCPUProfile)
		mux.HandleFunc("GET /debug/pprof/heap", serveHeapProfile)
	}
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 5 * time.Second, WriteTimeout: 30 * time.Second,
		ErrorLog: slog.NewLogLogger(log.Handler(), slog.LevelWarn)}
	go func() {
		if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			log.Error("operators' listener stopped", "err", err)
		}
	}()
	log.Info("operators' listener: /metrics and /status", "addr", ln.Addr().String())
	return func() {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		_ = srv.Shutdown(ctx)
	}
}

// showStatus renders the operator page from the background checks, the
// shared store's replicas and the counters: it asks no dependency itself
// but the shared store, within a second.
func (a *app) showStatus(w http.ResponseWriter, r *http.Request) {
	now := time.Now()
	ready, detail := a.health.Readiness()
	in := views.StatusInput{
		Version: a.build.Version, Revision: a.build.Revision, GoVersion: a.build.GoVersion,
		Started: a.started, Now: now, Ready: ready, ReadyDetail: detail,
		Service: describeService(a.cfg), Workspace: describeWorkspace(a.cfg),
	}
	for _, s := range a.health.States() {
		in.Checks = append(in.Checks, views.StatusCheckInput{Label: s.Label, Err: s.Err, At: s.At, Since: s.Since, Took: s.Took})
	}
	if a.shared != nil {
		in.ReplicasKnown = true
		ctx, cancel := context.WithTimeout(r.Context(), time.Second)
		replicas, err := a.shared.Replicas(ctx, replicaTTL)
		cancel()
		in.ReplicasErr = err
		for _, rp := range replicas {
			in.Replicas = append(in.Replicas, views.StatusReplicaInput{Name: rp.Name, LastSeen: rp.LastSeen})
		}
	}
	in.BudgetRefusals, in.ServiceRefusals = a.meter.RefusalsLastHour()
	st := a.handler.Stats()
	in.InFlight, in.Exports, in.PagesWaiting = st.InFlight, st.ExportsInFlight, st.PagesWaiting
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Cache-Control", "no-store")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Content-Security-Policy", "default-src 'none'; frame-ancestors 'none'")
	_ = templates.StatusPage(views.NewStatusPage(in)).Render(r.Context(), w)
}

// heartbeat tells the shared store this replica is there until ctx ends.
func heartbeat(ctx context.Context, sh *shared.Store, name string) {
	t := time.NewTicker(heartbeatEvery)
	defer t.Stop()
	for {
		hctx, cancel := context.WithTimeout(ctx, time.Second)
		_ = sh.Heartbeat(hctx, name, replicaTTL) // down: counted by the store
		cancel()
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// replicaName names this replica among the others: its host (a
// container's id) and listening address.
func replicaName(listen string) string {
	host, err := os.Hostname()
	if err != nil {
		host = "unknown-host"
	}
	return host + " " + listen
}
