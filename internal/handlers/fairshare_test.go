package handlers_test

import (
	"context"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"creditdash/internal/apptest"
	"creditdash/internal/upstream"
	"creditdash/internal/upstream/cache"
)

// heldExports is a service whose exports send their first line and then
// hold until released, as a huge export would.
type heldExports struct {
	*upstream.Client
	release chan struct{}
	started chan struct{}
}

func (h heldExports) Download(ctx context.Context, key string, dq upstream.DownloadQuery) (*upstream.Download, error) {
	r, w := io.Pipe()
	go func() {
		_, _ = w.Write([]byte("BusinessId,BusinessName\n"))
		h.started <- struct{}{}
		<-h.release
		_, _ = w.Write([]byte("1001,North\n"))
		w.Close()
	}()
	return &upstream.Download{Body: r, ContentType: "text/csv", Size: -1}, nil
}

// One user holds at most two exports at once; a third is told to wait,
// and other users are not held up.
func TestAThirdExportOfOneUserIsTurnedBack(t *testing.T) {
	held := heldExports{release: make(chan struct{}), started: make(chan struct{}, 4)}
	app := apptest.Start(t, apptest.Options{Wrap: func(c *upstream.Client) cache.Upstream { held.Client = c; return held }})
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
type oddExports struct {
	*upstream.Client
	body string
}

func (o oddExports) Download(context.Context, string, upstream.DownloadQuery) (*upstream.Download, error) {
	return &upstream.Download{Body: io.NopCloser(strings.NewReader(o.body)), Size: int64(len(o.body))}, nil
}

// An empty export, or one that is not its format, is an error page, never
// a file the user would keep.
func TestEmptyOrUndecodableExportIsAnErrorPage(t *testing.T) {
	for _, c := range []struct{ format, body string }{
		{"csv", ""}, {"csv", "   \n"}, {"csv", "<html><body>Server error</body></html>"},
		{"json", "BusinessId,Name"}, {"xml", `{"Success":false}`}, {"csv", "\xff\xfe\xfd"},
	} {
		app := apptest.Start(t, apptest.Options{Wrap: func(cl *upstream.Client) cache.Upstream { return oddExports{cl, c.body} }})
		p := app.SignIn(t, "demo").Get("/portfolio/export?format=" + c.format)
		if p.Status != http.StatusBadGateway || p.Header.Get("Content-Disposition") != "" {
			t.Errorf("%s export of %q: status %d, disposition %q; want a 502 page", c.format, c.body, p.Status, p.Header.Get("Content-Disposition"))
		}
	}
}

// endlessExport is a service export that never ends, noting when the
// dashboard lets go of it.
type endlessExport struct {
	*upstream.Client
	closed chan struct{}
}

func (e endlessExport) Download(context.Context, string, upstream.DownloadQuery) (*upstream.Download, error) {
	return &upstream.Download{Body: &endless{closed: e.closed}, Size: -1}, nil
}

type endless struct {
	closed chan struct{}
	once   sync.Once
}

func (e *endless) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = 'x'
	}
	return len(p), nil
}

func (e *endless) Close() error { e.once.Do(func() { close(e.closed) }); return nil }

// A browser that stops reading an export is cut after the stall limit, and
// the service's export is let go with it.
func TestExportThatIsNotReadIsCut(t *testing.T) {
	ex := endlessExport{closed: make(chan struct{})}
	app := apptest.Start(t, apptest.Options{ExportStall: 200 * time.Millisecond,
		Wrap: func(c *upstream.Client) cache.Upstream { ex.Client = c; return ex }})
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
