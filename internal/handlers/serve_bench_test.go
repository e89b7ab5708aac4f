package handlers_test

import (
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"creditdash/internal/apptest"
)

// BenchmarkWarmReport is the cost of a kept report page inside the server,
// with gzip and without: middleware, session, cache reads and the splice of a fresh nonce. It
// leaves the network out, so it reads as the dashboard's own share of a
// warm page (see make bench for the whole). The analyst watches the
// business and has a note on it, so the page carries the workspace (watch
// state, notes, unread count) as an analyst's report does.
func BenchmarkWarmReport(b *testing.B) {
	app := apptest.Start(b, apptest.Options{})
	u := app.SignIn(b, "demo")
	tok := u.Token("/businesses/1001")
	for path, form := range map[string]url.Values{
		"/businesses/1001/watch": {"_csrf": {tok}, "name": {"Westbridge Department Stores Inc"}},
		"/businesses/1001/notes": {"_csrf": {tok}, "text": {"Risk fell from 7 to 2 over the year.\nAsk for the latest statements."}},
	} {
		if p := u.PostForm(path, form); p.Status != http.StatusSeeOther {
			b.Fatalf("POST %s: status %d", path, p.Status)
		}
	}
	cookies := u.Cookies()
	get := func(enc string) *httptest.ResponseRecorder {
		req := httptest.NewRequest(http.MethodGet, "/businesses/1001", nil)
		req.Header.Set("Accept-Encoding", enc)
		for _, c := range cookies {
			req.AddCookie(c)
		}
		rec := httptest.NewRecorder()
		app.Handler.ServeHTTP(rec, req)
		if rec.Code != http.StatusOK {
			b.Fatalf("status %d", rec.Code)
		}
		return rec
	}
	if p := u.Get("/businesses/1001"); p.Doc.Find(`.watch-form button[aria-pressed="true"]`).Length() != 1 ||
		!strings.Contains(p.Text(".note-list .note-text"), "Ask for the latest statements.") {
		b.Fatal("the report shows no watch state or note")
	}
	for _, enc := range []string{"gzip", "identity"} {
		b.Run(enc, func(b *testing.B) {
			get(enc)
			b.ReportAllocs()
			for b.Loop() {
				get(enc)
			}
		})
	}
}

// BenchmarkStaticFile is the same for a static file, the yardstick.
func BenchmarkStaticFile(b *testing.B) {
	app := apptest.Start(b, apptest.Options{})
	u := app.NewUser(b)
	href, _ := u.Get("/login").Doc.Find(`link[rel="stylesheet"]`).Attr("href")
	for _, enc := range []string{"gzip", "identity"} {
		b.Run(enc, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				req := httptest.NewRequest(http.MethodGet, href, nil)
				req.Header.Set("Accept-Encoding", enc)
				rec := httptest.NewRecorder()
				app.Handler.ServeHTTP(rec, req)
				if rec.Code != http.StatusOK {
					b.Fatalf("status %d", rec.Code)
				}
			}
		})
	}
}

// BenchmarkBuiltPage is a page built from copies the cache holds: each
// request names a new address (an unused query parameter), so the page
// cache has no kept page for it, while every service answer is already
// cached. What it measures is the page's own work under make loadtest's
// mix, without the service calls: the middleware, the workspace's reads,
// the view models and charts, the templates and gzip. make loadtest's CPU
// per page view moves with the machine's other load by more than most
// changes to this work save; this benchmark shows them.
func BenchmarkBuiltPage(b *testing.B) {
	app := apptest.Start(b, apptest.Options{})
	u := app.SignIn(b, "demo")
	cookies := u.Cookies()
	calls := func() (n int) {
		for _, c := range app.Sim.Requests()["demo"] {
			n += c
		}
		return n
	}
	n := 0
	for _, page := range []struct{ name, path string }{
		{"overview", "/businesses/1001"},
		{"payments", "/businesses/1001/payments"},
		{"financials", "/businesses/1001/financials"},
		{"home", "/"},
		{"scores", "/portfolio/scores"},
	} {
		b.Run(page.name, func(b *testing.B) {
			get := func() {
				n++
				req := httptest.NewRequest(http.MethodGet, page.path+"?v="+strconv.Itoa(n), nil)
				req.Header.Set("Accept-Encoding", "gzip")
				for _, c := range cookies {
					req.AddCookie(c)
				}
				rec := httptest.NewRecorder()
				app.Handler.ServeHTTP(rec, req)
				if rec.Code != http.StatusOK || rec.Header().Get("Content-Encoding") != "gzip" {
					b.Fatalf("GET %s: status %d, encoding %q", page.path, rec.Code, rec.Header().Get("Content-Encoding"))
				}
			}
			get() // the service's answers reach the cache
			before := calls()
			b.ReportAllocs()
			for b.Loop() {
				get()
			}
			if extra := calls() - before; extra != 0 {
				b.Fatalf("%s asked the service %d more times once its answers were cached", page.name, extra)
			}
		})
	}
}
