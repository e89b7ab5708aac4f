package health_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"creditdash/internal/health"
	"creditdash/internal/store"
)

// switchable is a dependency a test turns on and off.
type switchable struct {
	err   atomic.Pointer[error]
	calls atomic.Int32
}

func (s *switchable) set(err error) { s.err.Store(&err) }
func (s *switchable) run(context.Context) error {
	s.calls.Add(1)
	if p := s.err.Load(); p != nil {
		return *p
	}
	return nil
}

func TestReadinessFromTheLastChecks(t *testing.T) {
	service, workspace := &switchable{}, &switchable{}
	var logs bytes.Buffer
	var mu sync.Mutex
	observed := map[string]int{}
	m := health.New(health.Options{
		Logger: slog.New(slog.NewTextHandler(&syncWriter{w: &logs, mu: &mu}, nil)),
		Observe: func(name string, _ error, _ time.Duration) {
			mu.Lock()
			observed[name]++
			mu.Unlock()
		},
	},
		health.Check{Name: "service", Label: "the service", Every: 10 * time.Millisecond, Timeout: time.Second, Run: service.run},
		health.Check{Name: "workspace", Label: "the workspace database", Every: 10 * time.Millisecond, Timeout: time.Second,
			Run: workspace.run, Unready: func(err error) bool { return errors.Is(err, store.ErrCorrupt) }},
	)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	service.set(errors.New("connection refused"))
	m.Start(ctx)
	// Start ran every check once: the first probe has a real answer.
	if ready, detail := m.Readiness(); !ready || detail != "ready (degraded: the service is not answering)" {
		t.Errorf("service down: %v %q", ready, detail)
	}
	service.set(nil)
	workspace.set(fmt.Errorf("%w: /data/creditdash.db", store.ErrCorrupt))
	waitFor(t, func() bool { ready, _ := m.Readiness(); return !ready })
	if _, detail := m.Readiness(); detail != "not ready: the workspace database is failing (see the log)" {
		t.Errorf("corrupt workspace: %q", detail)
	}
	workspace.set(nil)
	waitFor(t, func() bool { _, d := m.Readiness(); return d == "ready" })
	m.Drain()
	if ready, detail := m.Readiness(); ready || detail != "not ready: shutting down" {
		t.Errorf("draining: %v %q", ready, detail)
	}
	mu.Lock()
	defer mu.Unlock()
	if observed["service"] < 2 || observed["workspace"] < 2 {
		t.Errorf("observed %v; want every check's results", observed)
	}
	for _, want := range []string{"the service is failing", "the service answers again", "/data/creditdash.db"} {
		if !strings.Contains(logs.String(), want) {
			t.Errorf("the log lacks %q:\n%s", want, logs.String())
		}
	}
	states := m.States()
	if len(states) != 2 || states[0].Name != "service" || states[0].Err != nil || states[0].At.IsZero() {
		t.Errorf("States = %+v", states)
	}
}

func waitFor(t *testing.T, ok func() bool) {
	t.Helper()
	deadline := time.Now().Add(3 * time.Second)
	for !ok() {
		if time.Now().After(deadline) {
			t.Fatal("the state did not change within 3 s")
		}
		time.Sleep(5 * time.Millisecond)
	}
}

type syncWriter struct {
	w  *bytes.Buffer
	mu *sync.Mutex
}

func (s *syncWriter) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.w.Write(p)
}
