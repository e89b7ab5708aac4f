package main

import (
	"context"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"path/filepath"
	"strings"
	"time"

	"creditdash/internal/figures"
)

// loadSecret seals the dashboard's cookies during a run; nothing outlives it.
const loadSecret = "loadtest-secret-not-for-production-0123456789"

// password is every stand-in user's.
const password = "demo"

// startDashboard runs bin/web against the stand-in on a free port with
// short cache lifetimes (so that the after-idle memory is read once the
// entries are gone) and its whole output in dir/name.log, at the log level
// it ships with.
func startDashboard(ctx context.Context, o options, serviceURL, dir, name string) (*dashboard, error) {
	metricsAddr, err := figures.FreeAddr()
	if err != nil {
		return nil, err
	}
	web, err := figures.StartDashboard(ctx, figures.Dashboard{Name: "web " + name, Bin: o.web,
		LogPath: filepath.Join(dir, name+".log"),
		// /healthz, not /readyz: the latter calls the service, and the
		// counters should hold only what the load made.
		Ready: "/healthz",
		Env: []string{
			"UPSTREAM_URL=" + serviceURL,
			"SESSION_SECRET=" + loadSecret,
			"COOKIE_SECURE=false",
			"CACHE_TTL=" + o.ttl.String(),
			"NEWS_TTL=" + o.ttl.String(),
			// Expired copies are kept for outages; here they go with the
			// lifetime, so after-idle memory shows what expiry gives back.
			"CACHE_KEEP_STALE=" + o.ttl.String(),
			"METRICS_ADDR=" + metricsAddr,
			// Its CPU profile gives figure 1 the CPU per page view by part.
			"PPROF=true",
		}})
	if err != nil {
		return nil, err
	}
	return &dashboard{Child: web, metrics: "http://" + metricsAddr + "/metrics", ops: "http://" + metricsAddr}, nil
}

// dashboard is a running bin/web and where its metrics and profiles are.
type dashboard struct {
	*figures.Child
	metrics string
	ops     string // the operators' listener
}

// browser is one visitor: a cookie jar and a keep-alive connection or two,
// as a browser tab has; redirects are not followed, so a page that sends
// the visitor back to sign-in counts as what it is.
type browser struct {
	base string
	http *http.Client
}

func newBrowser(base string, timeout time.Duration) *browser {
	jar, _ := cookiejar.New(nil)
	return &browser{base: base, http: &http.Client{
		Jar:     jar,
		Timeout: timeout,
		Transport: &http.Transport{
			MaxIdleConnsPerHost: 2,
			DisableCompression:  true,
		},
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}}
}

// close drops the visitor's idle connections.
func (b *browser) close() { b.http.CloseIdleConnections() }

// signIn signs user in through the dashboard's form.
func (b *browser) signIn(ctx context.Context, user string) error {
	return figures.SignIn(ctx, b.http, b.base, user, password)
}

// cookieHeader is the visitor's cookies as a Cookie header, for requests
// written by hand.
func (b *browser) cookieHeader() string {
	u, _ := url.Parse(b.base)
	var parts []string
	for _, c := range b.http.Jar.Cookies(u) {
		parts = append(parts, c.Name+"="+c.Value)
	}
	return strings.Join(parts, "; ")
}

// outcome is one request: its status (0 when it got no answer) and time
// from sending to the last byte of the body, which is read and dropped.
type outcome struct {
	status   int
	location string // path of a redirect's Location, query left out
	retry    bool   // the answer carried Retry-After
	elapsed  time.Duration
	err      error
}

// get asks for a page as a browser does, gzip accepted; the compressed
// body is read and dropped undecoded, since a browser decodes on its own
// machine and not on the dashboard's cores.
func (b *browser) get(ctx context.Context, path string) outcome {
	return fetch(ctx, b.http, b.base+path, "Accept-Encoding", "gzip")
}

// fetch GETs url with one header set (Authorization for the service,
// Accept-Encoding for the dashboard), reading the whole body.
func fetch(ctx context.Context, client *http.Client, url, header, value string) outcome {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return outcome{err: err}
	}
	req.Header.Set(header, value)
	return send(client, req)
}

// send makes req, reading the whole answer and timing it.
func send(client *http.Client, req *http.Request) outcome {
	t0 := time.Now()
	resp, err := client.Do(req)
	if err != nil {
		return outcome{err: err, elapsed: time.Since(t0)}
	}
	_, err = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	loc, _, _ := strings.Cut(resp.Header.Get("Location"), "?")
	return outcome{status: resp.StatusCode, location: loc, retry: resp.Header.Get("Retry-After") != "",
		elapsed: time.Since(t0), err: err}
}
