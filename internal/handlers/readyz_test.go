package handlers_test

import (
	"net/http"
	"sync"
	"testing"
	"time"

	"creditdash/internal/apptest"
)

// /readyz is public: any number of hits ask the service at most once per
// few seconds, and answer from the last check.
func TestReadyAsksTheServiceAtMostOncePerInterval(t *testing.T) {
	clock := newClock(time.Now())
	app := apptest.Start(t, apptest.Options{Now: clock.Now})
	u := app.NewUser(t)
	app.Sim.Reset()
	var wg sync.WaitGroup
	for range 50 {
		wg.Go(func() {
			if p := u.Get("/readyz"); p.Status != http.StatusOK {
				t.Errorf("GET /readyz: status %d", p.Status)
			}
		})
	}
	wg.Wait()
	if n := app.Pings(); n != 1 {
		t.Errorf("50 readiness checks asked the service %d times, want 1", n)
	}
	app.StopService()
	if p := u.Get("/readyz"); p.Status != http.StatusOK {
		t.Errorf("within the interval the last answer holds: status %d", p.Status)
	}
	clock.Advance(6 * time.Second)
	if p := u.Get("/readyz"); p.Status != http.StatusServiceUnavailable {
		t.Errorf("after the interval with the service down: status %d, want 503", p.Status)
	}
	if p := u.Get("/healthz"); p.Status != http.StatusOK {
		t.Errorf("liveness with the service down: status %d, want 200", p.Status)
	}
}
