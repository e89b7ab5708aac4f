package session

import (
	"net/http"

	"github.com/labstack/echo/v5"
)

// Signed-in GETs spend the analyst's hourly budget or write the
// workspace: a report costs requests and records the scores it saw, the
// home page writes "last seen" marks, an export costs a request. A session
// cookie goes along with a top-level navigation from any site
// (SameSite=Lax), so another site could make a visitor's browser spend or
// write by linking there. Browsers say where a request came from in
// Sec-Fetch-Site: from another site, a signed-in GET answers with a page
// that offers the same request as a button (the caller's offer), and does nothing until it is
// pressed here. Every signed-in page is guarded, so a page added later is
// too; browsers that send no Sec-Fetch-Site (and links opened from other
// programs, "none") are let through.

// FromAnotherSite says whether the browser says the request came from a
// page of another site.
func FromAnotherSite(r *http.Request) bool {
	site := r.Header.Get("Sec-Fetch-Site")
	return site == "cross-site" || site == "same-site"
}

// SameSiteOnly guards one GET as described above: from another site, offer
// answers instead.
func SameSiteOnly(offer echo.HandlerFunc) echo.MiddlewareFunc {
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c *echo.Context) error {
			if !FromAnotherSite(c.Request()) {
				return next(c)
			}
			return offer(c)
		}
	}
}

// SameSiteGETs guards every GET behind it as described above: from another
// site, offer answers instead.
func SameSiteGETs(offer echo.HandlerFunc) echo.MiddlewareFunc {
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c *echo.Context) error {
			r := c.Request()
			if r.Method != http.MethodGet || !FromAnotherSite(r) {
				return next(c)
			}
			return offer(c)
		}
	}
}
