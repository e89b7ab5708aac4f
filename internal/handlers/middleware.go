package handlers

import (
	"context"
	"crypto/rand"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/labstack/echo/v5"
)

// requestID returns the id the logging middleware gave the request. It is
// read back from the answer's header, where the middleware put it, so that
// giving a request its id needs no copy of the request for a new context.
func requestID(c *echo.Context) string {
	return c.Response().Header().Get(echo.HeaderXRequestID)
}

// requestIDs numbers this process's requests: a random prefix per process
// (replicas and restarts do not repeat each other's ids) and a counter.
// An id needs to be unique, not secret, so no randomness per request.
var requestIDs = struct {
	prefix string
	n      atomic.Uint64
}{prefix: rand.Text()[:8] + "-"}

// newRequestID is the next id of this process.
func newRequestID() string {
	var b [32]byte
	out := append(b[:0], requestIDs.prefix...)
	return string(strconv.AppendUint(out, requestIDs.n.Add(1), 36))
}

// logRequests gives every request an id, turns a returned error into its
// page (so the logged status is the one sent), and logs one line per request.
func (h *Handler) logRequests(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c *echo.Context) error {
		start := time.Now()
		h.inFlight.Add(1)
		defer h.inFlight.Add(-1)
		r := c.Request()
		// Only a trusted proxy's id is taken (nginx's $request_id, so one
		// id names the request in both logs); anyone else's is replaced.
		id := ""
		if fromTrustedProxy(h.trusted, r) {
			id = r.Header.Get(echo.HeaderXRequestID)
		}
		if !validRequestID(id) {
			id = newRequestID()
		}
		c.Response().Header().Set(echo.HeaderXRequestID, id)

		if err := next(c); err != nil {
			h.handleError(c, err)
		}
		_, status := echo.ResolveResponseStatus(c.Response(), nil)
		level := slog.LevelInfo
		if status >= 500 {
			level = slog.LevelError
		}
		attrs := []slog.Attr{
			slog.String("request_id", id),
			slog.String("method", r.Method),
			slog.String("path", r.URL.Path),
			slog.Int("status", status),
			slog.Duration("duration", time.Since(start)),
		}
		if s, ok := sessionOf(c); ok {
			attrs = append(attrs, slog.String("user", s.User))
		}
		h.log.LogAttrs(c.Request().Context(), level, "request", attrs...)
		return nil
	}
}

// validRequestID accepts an incoming id only if it is short and plain, so a
// client cannot write arbitrary text into our logs.
func validRequestID(id string) bool {
	if id == "" || len(id) > 64 {
		return false
	}
	for _, c := range id {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_') {
			return false
		}
	}
	return true
}

// Bounds on what a request may carry. The server itself admits headers up
// to a megabyte, so that these answers, not Go's bare ones, carry the
// security headers.
const (
	maxHeaderBytes = 64 << 10  // far more than any browser sends
	maxBodyBytes   = 256 << 10 // a form: the longest note is 40 kB
)

// limitRequests refuses a request whose headers or body are larger than any
// page's forms need: 431 and 413, as pages.
func (h *Handler) limitRequests(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c *echo.Context) error {
		r := c.Request()
		size := len(r.RequestURI)
		for k, vs := range r.Header {
			for _, v := range vs {
				size += len(k) + len(v) + 4
			}
		}
		if size > maxHeaderBytes {
			return echo.NewHTTPError(http.StatusRequestHeaderFieldsTooLarge, "request headers too large")
		}
		limit := int64(maxBodyBytes)
		if r.Method == http.MethodPost && r.URL.Path == importPath {
			limit = maxUploadBodyBytes // a ledger file (accounts_import.go)
		}
		if r.ContentLength > limit {
			if limit == maxUploadBodyBytes {
				return echo.NewHTTPError(http.StatusRequestEntityTooLarge, "The file is over 10 MB; nothing was imported.")
			}
			return echo.NewHTTPError(http.StatusRequestEntityTooLarge, "request body too large")
		}
		r.Body = http.MaxBytesReader(c.Response(), r.Body, limit)
		return next(c)
	}
}

// secureHeaders sets the security headers of every response.
func (h *Handler) secureHeaders(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c *echo.Context) error {
		setSecurityHeaders(c.Response().Header(), h.secure)
		if !strings.HasPrefix(c.Request().URL.Path, "/static/") {
			// Pages carry account data and CSRF tokens: never stored.
			c.Response().Header().Set("Cache-Control", "no-store")
			_ = http.NewResponseController(c.Response()).SetWriteDeadline(time.Now().Add(h.writeTimeout))
		}
		return next(c)
	}
}

// contentSecurityPolicy is the one policy of every page: our own files
// only, no inline script or style of any kind, no framing, forms posting
// only to us. Pages have no inline script (a test keeps it so), so no
// nonce is needed and every page can be kept and served again as it is.
const contentSecurityPolicy = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; " +
	"font-src 'self'; connect-src 'self'; object-src 'none'; form-action 'self'; base-uri 'self'; frame-ancestors 'none'"

// setSecurityHeaders writes the headers every answer carries; hsts adds
// Strict-Transport-Security, for a dashboard served over TLS.
func setSecurityHeaders(hd http.Header, hsts bool) {
	hd.Set("Content-Security-Policy", contentSecurityPolicy)
	hd.Set("X-Content-Type-Options", "nosniff")
	hd.Set("X-Frame-Options", "DENY")
	hd.Set("Referrer-Policy", "same-origin")
	hd.Set("Cross-Origin-Opener-Policy", "same-origin")
	hd.Set("Permissions-Policy", "camera=(), microphone=(), geolocation=(), payment=()")
	if hsts {
		hd.Set("Strict-Transport-Security", "max-age=31536000; includeSubDomains")
	}
}

// loadSession reads the cookie once per request (a browser's cookie just
// decoded is kept a moment, see sessionmemo.go); a broken cookie is no
// session, and neither is one signed in before its user last signed out.
func (h *Handler) loadSession(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c *echo.Context) error {
		if s, token, ok := h.sessionMemo.load(c.Request()); ok && !h.revoked(c.Request().Context(), s) {
			st := stateOf(c)
			st.session, st.signedIn, st.csrf = s, true, token
		}
		return next(c)
	}
}

// revoked reports a session signed in before its user's last sign-out.
func (h *Handler) revoked(ctx context.Context, s Session) bool {
	at, ok := h.signOuts.SignedOut(ctx, s.User)
	return ok && !s.SignedInAt.After(at)
}

// requireSignIn sends signed-out visitors to the sign-in page, remembering
// the page they asked for so they land on it afterwards.
func (h *Handler) requireSignIn(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c *echo.Context) error {
		if _, ok := sessionOf(c); ok {
			return next(c)
		}
		return c.Redirect(http.StatusSeeOther, loginURL(returnPath(c.Request()), ""))
	}
}

// sessionOf returns the signed-in session, if any.
func sessionOf(c *echo.Context) (Session, bool) {
	if r, ok := c.Get(ctxRequest).(*request); ok && r.signedIn {
		return r.session, true
	}
	return Session{}, false
}

// loginURL builds /login with a safe next and an optional reason.
func loginURL(next, reason string) string {
	q := url.Values{}
	if n := safePath(next); n != "/" {
		q.Set("next", n)
	}
	if reason != "" {
		q.Set("reason", reason)
	}
	if len(q) == 0 {
		return "/login"
	}
	return "/login?" + q.Encode()
}

// mustSession is for handlers behind requireSignIn.
func mustSession(c *echo.Context) Session {
	s, ok := sessionOf(c)
	if !ok {
		panic(fmt.Sprintf("handlers: %s reached without a session", c.Request().URL.Path))
	}
	return s
}
