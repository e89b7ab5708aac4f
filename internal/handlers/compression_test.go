package handlers_test

import (
	"compress/gzip"
	"io"
	"net/http"
	"strings"
	"testing"

	"creditdash/internal/apptest"
)

// Pages are gzipped for browsers that accept it; exports never are, so a
// long download streams as it arrives.
func TestPagesAreCompressedAndDownloadsAreNot(t *testing.T) {
	app := apptest.Start(t, apptest.Options{})
	u := app.SignIn(t, "demo")
	get := func(path string) *http.Response {
		t.Helper()
		req, _ := http.NewRequest(http.MethodGet, app.URL+path, nil)
		req.Header.Set("Accept-Encoding", "gzip") // set by hand: the client then leaves the body alone
		resp, err := u.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { resp.Body.Close() })
		return resp
	}
	page := get("/businesses/1001")
	if page.Header.Get("Content-Encoding") != "gzip" {
		t.Fatalf("GET /businesses/1001: Content-Encoding %q, want gzip", page.Header.Get("Content-Encoding"))
	}
	zr, err := gzip.NewReader(page.Body)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(zr)
	if !strings.Contains(string(body), "</html>") {
		t.Error("the gzipped page does not decode to a whole page")
	}
	export := get("/portfolio/export?format=csv")
	if export.StatusCode != http.StatusOK || export.Header.Get("Content-Encoding") != "" {
		t.Errorf("export: status %d, Content-Encoding %q; want 200 and none", export.StatusCode, export.Header.Get("Content-Encoding"))
	}
}
