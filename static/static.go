// Package static embeds the dashboard's CSS, scripts and vendored browser
// libraries, and serves them under content-hashed URLs that browsers may
// cache for a year.
package static

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"mime"
	"net/http"
	"path"
	"strings"
)

//go:embed css img js all:vendor
var files embed.FS

// Prefix is the URL path under which assets are served.
const Prefix = "/static/"

// Assets is the set of embedded files, hashed and compressed once at start.
type Assets struct {
	byName map[string]*asset // "css/app.css"
	byPath map[string]*asset // "css/app.3f2a9c1b0d.css"
}

type asset struct {
	hashedPath  string
	contentType string
	etag        string
	body        []byte
	gzipped     []byte // nil when compression does not pay
}

// Load reads, hashes and compresses every embedded file.
func Load() (*Assets, error) {
	return LoadFS(files)
}

// LoadFS reads, hashes and compresses every file of fsys the way Load does
// with the embedded copy, so a folder on disk (os.DirFS) can stand in for it
// during development.
func LoadFS(fsys fs.FS) (*Assets, error) {
	a := &Assets{byName: map[string]*asset{}, byPath: map[string]*asset{}}
	err := fs.WalkDir(fsys, ".", func(name string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || strings.HasSuffix(name, ".md") {
			return err
		}
		body, err := fs.ReadFile(fsys, name)
		if err != nil {
			return err
		}
		sum := sha256.Sum256(body)
		hash := hex.EncodeToString(sum[:5])
		ext := path.Ext(name)
		as := &asset{
			hashedPath:  strings.TrimSuffix(name, ext) + "." + hash + ext,
			contentType: contentType(ext),
			etag:        `"` + hash + `"`,
			body:        body,
			gzipped:     compress(body),
		}
		a.byName[name] = as
		a.byPath[as.hashedPath] = as
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("static: %w", err)
	}
	if len(a.byName) == 0 {
		// A mistyped folder that happens to exist would otherwise fail
		// later, far from the cause, on the first missing stylesheet.
		return nil, errors.New("static: no files to serve")
	}
	return a, nil
}

func contentType(ext string) string {
	if ct := mime.TypeByExtension(ext); ct != "" {
		return ct
	}
	return "application/octet-stream"
}

// compress gzips text-like bodies, keeping the result only when it is
// meaningfully smaller.
func compress(body []byte) []byte {
	if len(body) < 512 {
		return nil
	}
	var buf bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	zw.Write(body)
	zw.Close()
	if buf.Len() > len(body)*9/10 {
		return nil
	}
	return buf.Bytes()
}

// URL returns the content-hashed URL of an embedded file such as
// "css/app.css". An unknown name panics: it is a programming error that
// every page would show.
func (a *Assets) URL(name string) string {
	as, ok := a.byName[name]
	if !ok {
		panic("static: no asset " + name)
	}
	return Prefix + as.hashedPath
}

// Has reports whether a file was embedded (vendor files exist only after
// the build has fetched them).
func (a *Assets) Has(name string) bool {
	_, ok := a.byName[name]
	return ok
}

// ServeHTTP serves a hashed asset with a year-long immutable cache life, or
// an unhashed name with revalidation, gzipped when the browser accepts it.
func (a *Assets) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	name := strings.TrimPrefix(r.URL.Path, Prefix)
	as, hashed := a.byPath[name]
	if !hashed {
		as = a.byName[name]
	}
	if as == nil {
		http.NotFound(w, r)
		return
	}
	h := w.Header()
	h.Set("Content-Type", as.contentType)
	h.Set("ETag", as.etag)
	h.Set("X-Content-Type-Options", "nosniff")
	if hashed {
		h.Set("Cache-Control", "public, max-age=31536000, immutable")
	} else {
		h.Set("Cache-Control", "no-cache")
	}
	if r.Header.Get("If-None-Match") == as.etag {
		w.WriteHeader(http.StatusNotModified)
		return
	}
	body := as.body
	if as.gzipped != nil {
		h.Add("Vary", "Accept-Encoding")
		if AcceptsGzip(r) {
			h.Set("Content-Encoding", "gzip")
			body = as.gzipped
		}
	}
	h.Set("Content-Length", fmt.Sprint(len(body)))
	w.WriteHeader(http.StatusOK)
	if r.Method != http.MethodHead {
		w.Write(body)
	}
}

// AcceptsGzip reports whether the request's Accept-Encoding allows gzip.
func AcceptsGzip(r *http.Request) bool {
	for _, part := range strings.Split(r.Header.Get("Accept-Encoding"), ",") {
		enc, q, _ := strings.Cut(strings.TrimSpace(part), ";")
		if strings.TrimSpace(enc) == "gzip" && strings.ReplaceAll(q, " ", "") != "q=0" {
			return true
		}
	}
	return false
}
