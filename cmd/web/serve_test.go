package main

import (
	"context"
	"io"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"creditdash/internal/handlers"
	"creditdash/internal/health"
)

// slowServer serves a handler that takes `took` per request, counting the
// requests in flight, and returns its address and the serve's result.
func slowServer(t *testing.T, ctx context.Context, took, grace time.Duration, logs io.Writer) (addr string, mon *health.Monitor, done chan error) {
	t.Helper()
	var inFlight atomic.Int64
	mon = health.New(health.Options{})
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		inFlight.Add(1)
		defer inFlight.Add(-1)
		w.WriteHeader(http.StatusOK)
		_, _ = w.Write([]byte("start\n"))
		w.(http.Flusher).Flush()
		time.Sleep(took)
		_, _ = w.Write([]byte("end\n"))
	})}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	done = make(chan error, 1)
	d := drainer{mon, func() handlers.Stats {
		return handlers.Stats{InFlight: inFlight.Load(), ExportsInFlight: inFlight.Load()}
	}}
	go func() { done <- serve(ctx, srv, ln, d, grace, slog.New(slog.NewTextHandler(logs, nil))) }()
	return ln.Addr().String(), mon, done
}

// A stop lets a long request (an export) finish within the grace: it
// reads to its end, /readyz's source turned "shutting down" first, and
// serve returns nil.
func TestStopLetsWorkInFlightFinish(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	var logs syncBuffer
	addr, mon, done := slowServer(t, ctx, 1500*time.Millisecond, 4*time.Second, &logs)
	body := make(chan string, 1)
	started := make(chan struct{})
	go func() {
		resp, err := http.Get("http://" + addr)
		if err != nil {
			body <- err.Error()
			return
		}
		defer resp.Body.Close()
		buf := make([]byte, 6)
		_, _ = io.ReadFull(resp.Body, buf)
		close(started)
		rest, _ := io.ReadAll(resp.Body)
		body <- string(buf) + string(rest)
	}()
	<-started
	cancel()
	time.Sleep(50 * time.Millisecond)
	if ready, _ := mon.Readiness(); ready {
		t.Error("/readyz's source still ready after the stop began")
	}
	if got := <-body; got != "start\nend\n" {
		t.Errorf("the request in flight got %q; want it whole", got)
	}
	if err := <-done; err != nil {
		t.Errorf("serve: %v", err)
	}
	if !strings.Contains(logs.String(), "everything in flight finished") {
		t.Errorf("log:\n%s", logs.String())
	}
}

// Past the grace the rest is cut, logged with what was cut, and the stop
// is still not an error (exit 0).
func TestStopPastTheGraceLogsWhatWasCut(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	var logs syncBuffer
	addr, _, done := slowServer(t, ctx, 10*time.Second, 400*time.Millisecond, &logs)
	started := make(chan struct{})
	go func() {
		resp, err := http.Get("http://" + addr)
		if err == nil {
			buf := make([]byte, 6)
			_, _ = io.ReadFull(resp.Body, buf)
			close(started)
			_, _ = io.ReadAll(resp.Body)
			resp.Body.Close()
		}
	}()
	<-started
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("serve: %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("serve did not stop after its grace")
	}
	if l := logs.String(); !strings.Contains(l, "shutdown grace ran out") || !strings.Contains(l, "requests_cut=1") || !strings.Contains(l, "exports_cut=1") {
		t.Errorf("log:\n%s", l)
	}
}
