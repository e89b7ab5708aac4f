package handlers_test

import (
	"net/http"
	"net/http/httptest"
	"testing"

	"creditdash/internal/apptest"
)

// BenchmarkWarmReport is the cost of a kept report page inside the server:
// middleware, session, cache reads and the splice of a fresh nonce. It
// leaves the network out, so it reads as the dashboard's own share of a
// warm page (see make bench for the whole).
func BenchmarkWarmReport(b *testing.B) {
	app := apptest.Start(b, apptest.Options{})
	u := app.SignIn(b, "demo")
	u.Get("/businesses/1001")
	cookies := u.Cookies()
	b.ReportAllocs()
	for b.Loop() {
		req := httptest.NewRequest(http.MethodGet, "/businesses/1001", nil)
		req.Header.Set("Accept-Encoding", "gzip")
		for _, c := range cookies {
			req.AddCookie(c)
		}
		rec := httptest.NewRecorder()
		app.Handler.ServeHTTP(rec, req)
		if rec.Code != http.StatusOK {
			b.Fatalf("status %d", rec.Code)
		}
	}
}

// BenchmarkStaticFile is the same for a static file, the yardstick.
func BenchmarkStaticFile(b *testing.B) {
	app := apptest.Start(b, apptest.Options{})
	u := app.NewUser(b)
	href, _ := u.Get("/login").Doc.Find(`link[rel="stylesheet"]`).Attr("href")
	b.ReportAllocs()
	for b.Loop() {
		req := httptest.NewRequest(http.MethodGet, href, nil)
		req.Header.Set("Accept-Encoding", "gzip")
		rec := httptest.NewRecorder()
		app.Handler.ServeHTTP(rec, req)
		if rec.Code != http.StatusOK {
			b.Fatalf("status %d", rec.Code)
		}
	}
}
