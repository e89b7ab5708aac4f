package main

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/cookiejar"
	"os"
	"time"

	"creditdash/internal/figures"
)

// benchSecret seals the dashboard's cookies during a run; nothing outlives it.
const benchSecret = "bench-secret-not-for-production-0123456789"

// startDashboard runs bin/web against the stand-in on a free port, serving
// static files from staticDir when it is not empty, its output in logPath
// (and its warnings on stderr), and waits for /readyz.
func startDashboard(ctx context.Context, bin, serviceURL, staticDir, logPath string) (*figures.Child, error) {
	return figures.StartDashboard(ctx, figures.Dashboard{Name: "web", Bin: bin, LogPath: logPath, Ready: "/readyz",
		Env: []string{
			"UPSTREAM_URL=" + serviceURL,
			"SESSION_SECRET=" + benchSecret,
			"COOKIE_SECURE=false",
			"LOG_LEVEL=warn",
			"STATIC_DIR=" + staticDir,
		},
		// Its warnings are worth seeing next to the table.
		Echo: os.Stderr})
}

// browser is one signed-in visitor: a cookie jar and keep-alive
// connections, redirects left unfollowed so each request is timed alone.
type browser struct {
	base string
	http *http.Client
}

// newBrowser makes a visitor of the dashboard at base. conns sizes the
// keep-alive pool for that many concurrent requests.
func newBrowser(base string, conns int) *browser {
	jar, _ := cookiejar.New(nil)
	return &browser{base: base, http: &http.Client{
		Jar: jar,
		Transport: &http.Transport{
			MaxIdleConns:        conns,
			MaxIdleConnsPerHost: conns,
			// Accept-Encoding is set by hand, as a browser sends it, and
			// bodies are counted as they come over the wire.
			DisableCompression: true,
		},
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}}
}

// signIn signs user in through the dashboard's form.
func (b *browser) signIn(ctx context.Context, user, password string) error {
	return figures.SignIn(ctx, b.http, b.base, user, password)
}

// response is what a request brought back, body as sent (compressed when
// the server chose gzip).
type response struct {
	status  int
	header  http.Header
	body    []byte
	elapsed time.Duration // from sending to the last byte of the body
}

// get requests path, asking for gzip like a browser when gzip is set.
func (b *browser) get(ctx context.Context, path string, gzip bool) (response, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, b.base+path, nil)
	if err != nil {
		return response{}, err
	}
	if gzip {
		req.Header.Set("Accept-Encoding", "gzip")
	}
	t0 := time.Now()
	resp, err := b.http.Do(req)
	if err != nil {
		return response{}, fmt.Errorf("bench: GET %s: %w", path, err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		return response{}, fmt.Errorf("bench: GET %s: %w", path, err)
	}
	return response{status: resp.StatusCode, header: resp.Header, body: body, elapsed: time.Since(t0)}, nil
}

// getOK is get that also insists on a 200.
func (b *browser) getOK(ctx context.Context, path string, gzip bool) (response, error) {
	r, err := b.get(ctx, path, gzip)
	if err == nil && r.status != http.StatusOK {
		err = fmt.Errorf("bench: GET %s: status = %d, want 200 (signed out? location %q)", path, r.status, r.header.Get("Location"))
	}
	return r, err
}
