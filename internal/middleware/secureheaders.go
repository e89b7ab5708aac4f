package middleware

import (
	"net/http"
	"strings"
	"time"

	"github.com/labstack/echo/v5"
)

// SecureHeaders sets the security headers of every response; hsts adds
// Strict-Transport-Security, for a dashboard served over TLS. Pages (all
// but /static/) are never stored and get writeTimeout to be written.
func SecureHeaders(hsts bool, writeTimeout time.Duration) echo.MiddlewareFunc {
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c *echo.Context) error {
			setSecurityHeaders(c.Response().Header(), hsts)
			if !strings.HasPrefix(c.Request().URL.Path, "/static/") {
				// Pages carry account data and CSRF tokens: never stored.
				c.Response().Header().Set("Cache-Control", "no-store")
				_ = http.NewResponseController(c.Response()).SetWriteDeadline(time.Now().Add(writeTimeout))
			}
			return next(c)
		}
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
