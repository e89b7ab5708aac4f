package static

import (
	"bytes"
	"compress/gzip"
	"io"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"testing/fstest"
)

// TestLoadFSMatchesEmbedded checks that a folder holding the same files as
// the embedded copy yields the same hashed URLs, so STATIC_DIR changes
// nothing but where the bytes come from.
func TestLoadFSMatchesEmbedded(t *testing.T) {
	embedded, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	copied := fstest.MapFS{}
	err = fs.WalkDir(files, ".", func(name string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		body, err := fs.ReadFile(files, name)
		copied[name] = &fstest.MapFile{Data: body}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	fromDir, err := LoadFS(copied)
	if err != nil {
		t.Fatal(err)
	}
	for name := range embedded.byName {
		if got, want := fromDir.URL(name), embedded.URL(name); got != want {
			t.Errorf("URL(%q) = %q, want %q", name, got, want)
		}
	}
}

func TestLoadFSServesHashedAndPlainNames(t *testing.T) {
	page := strings.Repeat("<p>a page of text that compresses well</p>\n", 100)
	a, err := LoadFS(fstest.MapFS{
		"bench/page.html": {Data: []byte(page)},
		"notes.md":        {Data: []byte("not served")},
	})
	if err != nil {
		t.Fatal(err)
	}
	if a.Has("notes.md") {
		t.Error("a .md file was loaded")
	}
	cases := []struct {
		path, cacheControl string
	}{
		{a.URL("bench/page.html"), "public, max-age=31536000, immutable"},
		{Prefix + "bench/page.html", "no-cache"},
	}
	for _, tc := range cases {
		req := httptest.NewRequest(http.MethodGet, tc.path, nil)
		req.Header.Set("Accept-Encoding", "gzip")
		rec := httptest.NewRecorder()
		a.ServeHTTP(rec, req)
		if rec.Code != http.StatusOK || rec.Header().Get("Cache-Control") != tc.cacheControl {
			t.Errorf("GET %s: status %d, Cache-Control %q; want 200, %q", tc.path, rec.Code, rec.Header().Get("Cache-Control"), tc.cacheControl)
			continue
		}
		if rec.Header().Get("Content-Encoding") != "gzip" {
			t.Errorf("GET %s: not gzipped", tc.path)
			continue
		}
		zr, err := gzip.NewReader(bytes.NewReader(rec.Body.Bytes()))
		if err != nil {
			t.Fatal(err)
		}
		if body, _ := io.ReadAll(zr); string(body) != page {
			t.Errorf("GET %s: body differs from the file", tc.path)
		}
	}
}

func TestLoadFSRefusesAnEmptyFolder(t *testing.T) {
	if _, err := LoadFS(fstest.MapFS{"README.md": {Data: []byte("x")}}); err == nil {
		t.Error("an empty folder loaded without error")
	}
}
