package handlers_test

import (
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"creditdash/internal/apptest"
)

// waitReadyz polls /readyz until its body holds want (the background
// checks run every 50 ms in tests), and returns the last answer.
func waitReadyz(t *testing.T, u *apptest.User, want string) *apptest.Page {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for {
		p := u.Get("/readyz")
		if strings.Contains(p.Body, want) || time.Now().After(deadline) {
			return p
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// /readyz is public and answers from the background checks: a crowd of
// probes asks the service nothing more. The service down leaves the
// replica ready (degraded): cached reports still answer, and every
// replica would otherwise drop out together.
func TestReadyDoesNotDependOnTheService(t *testing.T) {
	app := apptest.Start(t, apptest.Options{})
	u := app.NewUser(t)
	before := app.Pings()
	start := time.Now()
	var wg sync.WaitGroup
	for range 50 {
		wg.Go(func() {
			if p := u.Get("/readyz"); p.Status != http.StatusOK || p.Body != "ready\n" {
				t.Errorf("GET /readyz: %d %q", p.Status, p.Body)
			}
		})
	}
	wg.Wait()
	if n, most := app.Pings()-before, int(time.Since(start)/(50*time.Millisecond))+2; n > most {
		t.Errorf("50 probes made %d service checks; the background makes at most %d in that time", n, most)
	}
	app.StopService()
	p := waitReadyz(t, u, "credit-risk service is not answering")
	if p.Status != http.StatusOK || !strings.Contains(p.Body, "degraded") {
		t.Errorf("/readyz with the service down: %d %q; want 200, degraded", p.Status, p.Body)
	}
	if p := u.Get("/healthz"); p.Status != http.StatusOK {
		t.Errorf("liveness with the service down: status %d, want 200", p.Status)
	}
}

// A shutdown flips /readyz to 503 first, while pages still answer.
func TestReadyFailsWhileDraining(t *testing.T) {
	app := apptest.Start(t, apptest.Options{})
	u := app.SignIn(t, "demo")
	app.Health.Drain()
	if p := u.Get("/readyz"); p.Status != http.StatusServiceUnavailable || !strings.Contains(p.Body, "shutting down") {
		t.Errorf("/readyz while draining: %d %q; want 503 saying so", p.Status, p.Body)
	}
	if p := u.Get("/businesses/1001"); p.Status != http.StatusOK {
		t.Errorf("a page while draining: status %d, want 200", p.Status)
	}
	if p := u.Get("/healthz"); p.Status != http.StatusOK {
		t.Errorf("liveness while draining: status %d, want 200", p.Status)
	}
}
