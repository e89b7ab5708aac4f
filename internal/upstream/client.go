// Package upstream is the typed client of the credit-risk data service. It is
// the only package that knows the service's wire format: paths, parameter
// names, the envelope and the status codes. Callers see Go types and the
// typed errors of errors.go.
package upstream

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// Defaults for Options left at zero.
const (
	DefaultTimeout = 10 * time.Second
	// DefaultMaxConns keeps 128 idle connections and opens at most 256:
	// a team of 200 analysts has some 400 calls in flight at 50 ms each,
	// and no one user holds more than eight (see handlers' fair shares).
	DefaultMaxConns     = 128
	DefaultMaxBodyBytes = 16 << 20
	// DefaultMaxDownloads is how many exports stream from the service at
	// once, in their own pool.
	DefaultMaxDownloads = 16
	// DefaultMinDownloadRate is the slowest an export may arrive, in bytes
	// a second over each DefaultDownloadRateWindow; slower, it is aborted.
	DefaultMinDownloadRate    = 1 << 10
	DefaultDownloadRateWindow = 30 * time.Second
)

// Options tunes a Client. Zero values take the defaults above.
type Options struct {
	// Timeout bounds each call; for Download it bounds the wait for the
	// headers and each pause between chunks of the body, not the whole body.
	Timeout time.Duration
	// MaxConns sizes the keep-alive pool to the service: the most calls the
	// dashboard makes at once.
	MaxConns int
	// MaxBodyBytes caps a JSON answer; a bigger one is an ErrMalformed.
	MaxBodyBytes int64
	// MaxDownloads bounds the exports streaming at once; they have their
	// own connections, so pages never wait behind them.
	MaxDownloads int
	// MinDownloadRate and DownloadRateWindow: an export that brings fewer
	// than MinDownloadRate bytes a second over a window is aborted.
	MinDownloadRate    int
	DownloadRateWindow time.Duration
	// Transport replaces the tuned transport (tests); it then serves the
	// downloads too.
	Transport http.RoundTripper
	// Observe, when set, is told of every JSON call: its operation, its
	// error (nil on success) and how long it took. Metrics use it.
	Observe func(op string, err error, took time.Duration)
}

// Client calls the service. It is safe for concurrent use.
type Client struct {
	base      *url.URL
	http      *http.Client
	downloads *http.Client
	timeout   time.Duration
	maxBody   int64
	minRate   int
	window    time.Duration
	observe   func(op string, err error, took time.Duration)
}

// New returns a client of the service at baseURL (scheme and host, and an
// optional path prefix before /v1).
func New(baseURL string, opts Options) (*Client, error) {
	u, err := url.Parse(baseURL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("upstream: service URL %q must be an absolute http or https URL", baseURL)
	}
	u.Path = strings.TrimSuffix(u.Path, "/")
	u.RawQuery, u.Fragment = "", ""
	if opts.Timeout <= 0 {
		opts.Timeout = DefaultTimeout
	}
	if opts.MaxConns <= 0 {
		opts.MaxConns = DefaultMaxConns
	}
	if opts.MaxBodyBytes <= 0 {
		opts.MaxBodyBytes = DefaultMaxBodyBytes
	}
	if opts.MaxDownloads <= 0 {
		opts.MaxDownloads = DefaultMaxDownloads
	}
	if opts.MinDownloadRate <= 0 {
		opts.MinDownloadRate = DefaultMinDownloadRate
	}
	if opts.DownloadRateWindow <= 0 {
		opts.DownloadRateWindow = DefaultDownloadRateWindow
	}
	rt, drt := opts.Transport, opts.Transport
	if rt == nil {
		rt = newTransport(opts.Timeout, opts.MaxConns)
		drt = newTransport(opts.Timeout, opts.MaxDownloads/2)
	}
	return &Client{
		base:      u,
		http:      newHTTPClient(rt),
		downloads: newHTTPClient(drt),
		timeout:   opts.Timeout,
		maxBody:   opts.MaxBodyBytes,
		minRate:   opts.MinDownloadRate,
		window:    opts.DownloadRateWindow,
		observe:   opts.Observe,
	}, nil
}

// newHTTPClient has no Client.Timeout: it would cut long downloads; every
// call gets a context deadline instead.
func newHTTPClient(rt http.RoundTripper) *http.Client {
	return &http.Client{
		Transport: rt,
		CheckRedirect: func(*http.Request, []*http.Request) error {
			// The Authorization header must never follow a redirect.
			return http.ErrUseLastResponse
		},
	}
}

// newTransport is a keep-alive pool sized for the dashboard's fan-out. The
// transport asks for gzip and decompresses on its own.
func newTransport(timeout time.Duration, conns int) *http.Transport {
	dialer := &net.Dialer{Timeout: 5 * time.Second, KeepAlive: 30 * time.Second}
	return &http.Transport{
		Proxy:                 http.ProxyFromEnvironment,
		DialContext:           dialer.DialContext,
		ForceAttemptHTTP2:     true,
		MaxIdleConns:          conns * 2,
		MaxIdleConnsPerHost:   conns,
		MaxConnsPerHost:       conns * 2,
		IdleConnTimeout:       90 * time.Second,
		TLSHandshakeTimeout:   5 * time.Second,
		ResponseHeaderTimeout: timeout,
		ExpectContinueTimeout: time.Second,
	}
}

// Timeout is the per-call limit the client applies.
func (c *Client) Timeout() time.Duration { return c.timeout }

// endpoint builds the URL of path with the given query and the format choice.
func (c *Client) endpoint(path string, q query) string {
	u := *c.base
	u.Path += path
	v := q.values()
	v.Set(paramType, responseFormat)
	u.RawQuery = v.Encode()
	return u.String()
}

// transportError wraps a failure to get an answer at all.
func transportError(ctx context.Context, op string, err error) error {
	if cause := context.Cause(ctx); cause != nil && errors.Is(err, context.Canceled) {
		err = cause
	}
	return &Error{Op: op, Kind: ErrUnavailable, Err: err}
}
