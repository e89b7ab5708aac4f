package middleware

import (
	"crypto/sha256"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/labstack/echo/v5"

	"creditdash/internal/upstream/cache"
)

// A page is sent kept, before its handler reads anything, only when it was
// remembered, its kept copy is still there and the cache still holds every
// copy it was read from (its extra ones included); anything else (another
// method, a page never kept, a copy changed) runs the handler.
func TestSendKeptFirst(t *testing.T) {
	pc, err := NewPageCache(1 << 20)
	if err != nil {
		t.Fatal(err)
	}
	first := func(c *echo.Context, gz bool) (PageKey, bool) {
		if c.Request().URL.Path == "/visitor" {
			return PageKey{}, false
		}
		return sha256.Sum256([]byte(c.Request().URL.Path)), true
	}
	fresh := true
	var asked []cache.Dep
	holds := func(deps []cache.Dep) bool { asked = deps; return fresh }
	runs := 0
	e := echo.New()
	e.Use(pc.SendKeptFirst(first, holds, slog.New(slog.DiscardHandler)))
	handler := func(c *echo.Context) error { runs++; return c.String(http.StatusOK, "built now") }
	e.Any("/report", handler)
	e.Any("/visitor", handler)
	e.Any("/gone", handler)
	get := func(method, path string) string {
		rec := httptest.NewRecorder()
		e.ServeHTTP(rec, httptest.NewRequest(method, path, nil))
		return rec.Body.String()
	}

	if get(http.MethodGet, "/report") != "built now" || runs != 1 {
		t.Fatalf("a page never remembered was not built (runs %d)", runs)
	}
	kept := PageKey{1}
	pc.Keep(kept, http.StatusOK, []byte("kept page"), false)
	report, _ := first(echo.NewContext(httptest.NewRequest(http.MethodGet, "/report", nil), nil), false)
	pc.RememberFirst(report, kept, make([]cache.Dep, 3), make([]cache.Dep, 2))

	if got := get(http.MethodGet, "/report"); got != "kept page" || runs != 1 {
		t.Errorf("GET /report while its copies are held: %q, handler ran %d times; want the kept page and no run", got, runs)
	}
	if len(asked) != 5 {
		t.Errorf("the cache was asked about %d copies, want the page's 3 and its 2 extra", len(asked))
	}
	if got := get(http.MethodPost, "/report"); got != "built now" || runs != 2 {
		t.Errorf("POST /report: %q; a form is never answered from the page cache", got)
	}
	if got := get(http.MethodGet, "/visitor"); got != "built now" || runs != 3 {
		t.Errorf("GET /visitor (never kept): %q", got)
	}
	gone, _ := first(echo.NewContext(httptest.NewRequest(http.MethodGet, "/gone", nil), nil), false)
	pc.RememberFirst(gone, PageKey{2}, nil, nil) // its page is not kept
	if got := get(http.MethodGet, "/gone"); got != "built now" || runs != 4 {
		t.Errorf("GET /gone, remembered but its page not kept: %q", got)
	}
	fresh = false
	if got := get(http.MethodGet, "/report"); got != "built now" || runs != 5 {
		t.Errorf("GET /report once a copy it was read from changed: %q, want it built again", got)
	}
}
