package handlers

import (
	"net/http"
	"net/netip"

	"github.com/labstack/echo/v5"
)

// siteURL is the dashboard's address as browsers reach it, for the
// absolute links it hands out (share links, notes.csv): PUBLIC_URL when
// set, since behind a balancer or TLS terminator the request's own scheme
// and Host may name the replica rather than the site; otherwise the
// request's.
func (h *Handler) siteURL(c *echo.Context) string {
	if h.publicURL != "" {
		return h.publicURL
	}
	return c.Scheme() + "://" + c.Request().Host
}

// fromTrustedProxy tells whether the request's connection comes from one
// of TrustedProxies: only their headers (X-Request-ID) are believed.
func fromTrustedProxy(trusted []netip.Prefix, r *http.Request) bool {
	if len(trusted) == 0 {
		return false
	}
	ap, err := netip.ParseAddrPort(r.RemoteAddr)
	if err != nil {
		return false
	}
	addr := ap.Addr().Unmap()
	for _, p := range trusted {
		if p.Contains(addr) {
			return true
		}
	}
	return false
}
