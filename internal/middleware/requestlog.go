package middleware

import (
	"crypto/rand"
	"log/slog"
	"net/netip"
	"strconv"
	"sync/atomic"
	"time"

	"github.com/labstack/echo/v5"

	"creditdash/internal/session"
)

// RequestID returns the id the logging middleware gave the request. It is
// read back from the answer's header, where the middleware put it, so that
// giving a request its id needs no copy of the request for a new context.
func RequestID(c *echo.Context) string {
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

// RequestLog is the request log: who writes it, whose request ids are
// believed, and the requests being answered now.
type RequestLog struct {
	Log *slog.Logger
	// Trusted are the reverse proxies whose X-Request-ID is taken.
	Trusted []netip.Prefix
	// HandleError turns a returned error into its page, so the logged
	// status is the one sent.
	HandleError func(*echo.Context, error)
	// InFlight counts the requests being answered.
	InFlight *atomic.Int64
}

// Middleware gives every request an id, turns a returned error into its
// page, and logs one line per request.
func (l RequestLog) Middleware(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c *echo.Context) error {
		start := time.Now()
		l.InFlight.Add(1)
		defer l.InFlight.Add(-1)
		r := c.Request()
		// Only a trusted proxy's id is taken (nginx's $request_id, so one
		// id names the request in both logs); anyone else's is replaced.
		id := ""
		if FromTrustedProxy(l.Trusted, r) {
			id = r.Header.Get(echo.HeaderXRequestID)
		}
		if !validRequestID(id) {
			id = newRequestID()
		}
		c.Response().Header().Set(echo.HeaderXRequestID, id)

		if err := next(c); err != nil {
			l.HandleError(c, err)
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
		if s, ok := session.Of(c); ok {
			attrs = append(attrs, slog.String("user", s.User))
		}
		l.Log.LogAttrs(c.Request().Context(), level, "request", attrs...)
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
