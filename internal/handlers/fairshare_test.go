package handlers_test

import (
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"creditdash/internal/apptest"
)

// heldExports is a service whose exports send their first line and then
// hold until released, as a huge export would.
type heldExports struct {
	release chan struct{}
	started chan struct{}
}

func (h heldExports) serve(w http.ResponseWriter, _ *http.Request, _ http.Handler) {
	w.Header().Set("Content-Type", "text/csv")
	_, _ = w.Write([]byte("BusinessId,BusinessName\n"))
	http.NewResponseController(w).Flush()
	h.started <- struct{}{}
	<-h.release
	_, _ = w.Write([]byte("1001,North\n"))
}

// One user holds at most two exports at once; a third is told to wait,
// and other users are not held up.
func TestAThirdExportOfOneUserIsTurnedBack(t *testing.T) {
	held := heldExports{release: make(chan struct{}), started: make(chan struct{}, 4)}
	app := apptest.Start(t, apptest.Options{StandIn: intercept("/v1/Portfolio/Download", held.serve)})
	u := app.SignIn(t, "demo")
	var wg sync.WaitGroup
	for range 2 {
		wg.Go(func() {
			resp, err := u.Client().Get(app.URL + "/portfolio/export?format=csv")
			if err != nil {
				t.Error(err)
				return
			}
			_, _ = io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
		})
	}
	for range 2 {
		select {
		case <-held.started:
		case <-time.After(5 * time.Second):
			t.Fatal("the two exports did not start")
		}
	}
	p := u.Get("/portfolio/export?format=csv")
	if p.Status != http.StatusSeeOther || p.Location() != "/portfolio?export=busy" {
		t.Errorf("third export: status %d to %q, want 303 back to the portfolio", p.Status, p.Location())
	}
	if flash := u.Get("/portfolio?export=busy").Text(".flash"); !strings.Contains(flash, "already have 2 exports") {
		t.Errorf("the portfolio says %q", flash)
	}
	if p := u.Get("/businesses/1001"); p.Status != http.StatusOK {
		t.Errorf("a page beside two running exports: status %d", p.Status)
	}
	close(held.release)
	wg.Wait()
	if p := u.Get("/portfolio/export?format=csv"); p.Status != http.StatusOK {
		t.Errorf("an export after the others finished: status %d", p.Status)
	}
}

// oddExports answers every export with the same body.
func oddExports(body string) func(http.Handler) http.Handler {
	return intercept("/v1/Portfolio/Download", func(w http.ResponseWriter, _ *http.Request, _ http.Handler) {
		w.Header()["Content-Type"] = nil // no type, and none sniffed
		w.Header().Set("Content-Length", strconv.Itoa(len(body)))
		_, _ = io.WriteString(w, body)
	})
}

// An empty export, or one that is not its format, is an error page, never
// a file the user would keep.
func TestEmptyOrUndecodableExportIsAnErrorPage(t *testing.T) {
	for _, c := range []struct{ format, body string }{
		{"csv", ""}, {"csv", "   \n"}, {"csv", "<html><body>Server error</body></html>"},
		{"json", "BusinessId,Name"}, {"xml", `{"Success":false}`}, {"csv", "\xff\xfe\xfd"},
	} {
		app := apptest.Start(t, apptest.Options{StandIn: oddExports(c.body)})
		p := app.SignIn(t, "demo").Get("/portfolio/export?format=" + c.format)
		if p.Status != http.StatusBadGateway || p.Header.Get("Content-Disposition") != "" {
			t.Errorf("%s export of %q: status %d, disposition %q; want a 502 page", c.format, c.body, p.Status, p.Header.Get("Content-Disposition"))
		}
	}
}

// endlessExport is a service export that never ends, noting when the
// dashboard lets go of it.
type endlessExport struct {
	closed chan struct{}
}

func (e endlessExport) serve(w http.ResponseWriter, r *http.Request, _ http.Handler) {
	defer close(e.closed)
	w.Header().Set("Content-Type", "text/csv")
	chunk := []byte(strings.Repeat("x", 32<<10))
	for r.Context().Err() == nil {
		if _, err := w.Write(chunk); err != nil {
			return
		}
	}
}

// A browser that stops reading an export is cut after the stall limit, and
// the service's export is let go with it.
func TestExportThatIsNotReadIsCut(t *testing.T) {
	ex := endlessExport{closed: make(chan struct{})}
	app := apptest.Start(t, apptest.Options{ExportStall: 200 * time.Millisecond,
		StandIn: intercept("/v1/Portfolio/Download", ex.serve)})
	u := app.SignIn(t, "demo")
	resp, err := u.Client().Get(app.URL + "/portfolio/export?format=csv")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close() // never read
	select {
	case <-ex.closed:
	case <-time.After(10 * time.Second):
		t.Fatal("an unread export still holds the service after 10 s")
	}
}
