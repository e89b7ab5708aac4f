package handlers_test

import (
	"context"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"creditdash/internal/apptest"
)

// heldHeaders is a service whose business headers wait until released, so
// that report pages stay in preparation.
type heldHeaders struct {
	release chan struct{}
	started chan struct{}
}

func (h heldHeaders) serve(w http.ResponseWriter, r *http.Request, next http.Handler) {
	h.started <- struct{}{}
	<-h.release
	next.ServeHTTP(w, r)
}

// One analyst's crowd of pages waits for its own turns: the seventh report
// at once says the dashboard is busy, with the session kept, while another
// analyst's page, a form and the downloads of the same analyst go through.
func TestACrowdOfOneUsersPagesWaitsItsTurn(t *testing.T) {
	held := heldHeaders{release: make(chan struct{}), started: make(chan struct{}, 8)}
	app := apptest.Start(t, apptest.Options{PageTurnWait: 300 * time.Millisecond,
		StandIn: intercept("/v1/Business/IdentificationGroup", held.serve)})
	// Released on the way out too, so that a failure cannot leave the
	// server waiting on the held pages.
	var once sync.Once
	release := func() { once.Do(func() { close(held.release) }) }
	t.Cleanup(release)
	u := app.SignIn(t, "demo")
	// The portfolio's calls tell the quota: while it is unknown, the held
	// header would be the call the others wait for.
	token := u.Token("/portfolio")
	var wg sync.WaitGroup
	statuses := make([]int, 6)
	for i := range statuses {
		wg.Go(func() {
			resp, err := u.Client().Get(app.URL + "/businesses/" + strconv.Itoa(1001+i))
			if err != nil {
				t.Error(err)
				return
			}
			resp.Body.Close()
			statuses[i] = resp.StatusCode
		})
	}
	for range statuses {
		select {
		case <-held.started:
		case <-time.After(5 * time.Second):
			t.Fatal("the six reports did not start")
		}
	}

	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, app.URL+"/businesses/1007", nil)
	if err != nil {
		t.Fatal(err)
	}
	p := u.Do(req) // without turns, it would hang with the others until the deadline
	if p.Status != http.StatusServiceUnavailable || p.Header.Get("Retry-After") != "5" ||
		!strings.Contains(p.Text("h1"), "The dashboard is busy") || !strings.Contains(p.Body, `href="/businesses/1007"`) {
		t.Errorf("a seventh report at once: status %d, Retry-After %q, heading %q; want 503 with a way to try again",
			p.Status, p.Header.Get("Retry-After"), p.Text("h1"))
	}
	if p := app.SignIn(t, "developer").Get("/portfolio"); p.Status != http.StatusOK {
		t.Errorf("another analyst's page beside the crowd: status %d", p.Status)
	}
	watch := u.PostForm("/businesses/1001/watch", url.Values{"_csrf": {token}, "name": {"North"}})
	if watch.Status != http.StatusSeeOther {
		t.Errorf("a form beside the crowd: status %d, want 303", watch.Status)
	}
	for _, path := range []string{"/notes.csv", "/portfolio/export?format=csv"} {
		if p := u.Get(path); p.Status != http.StatusOK {
			t.Errorf("download %s beside the crowd: status %d", path, p.Status)
		}
	}

	release()
	wg.Wait()
	for i, s := range statuses {
		if s != http.StatusOK {
			t.Errorf("held report %d: status %d", i, s)
		}
	}
	if p := u.Get("/businesses/1007"); p.Status != http.StatusOK {
		t.Errorf("the busy report once the crowd is served: status %d; the session must be kept", p.Status)
	}
}
