package handlers_test

import (
	"net/http"
	"net/http/httptest"
	"net/url"
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
