package handlers

import (
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
