package handlers

import (
	"context"
	"net/http"
	"net/url"
	"time"

	"creditdash/internal/middleware"
	"creditdash/internal/session"
	"github.com/labstack/echo/v5"
)

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

// signInTime is the sign-in time a new session of user records (see
// session.SignInTime).
func (h *Handler) signInTime(ctx context.Context, user string) time.Time {
	return session.SignInTime(ctx, h.signOuts, h.now(), user)
}

// requireSignIn sends signed-out visitors to the sign-in page, remembering
// the page they asked for so they land on it afterwards.
func (h *Handler) requireSignIn(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c *echo.Context) error {
		if _, ok := session.Of(c); ok {
			return next(c)
		}
		return c.Redirect(http.StatusSeeOther, loginURL(returnPath(c.Request()), ""))
	}
}

// loginURL builds /login with a safe next and an optional reason.
func loginURL(next, reason string) string {
	q := url.Values{}
	if n := middleware.SafePath(next); n != "/" {
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
