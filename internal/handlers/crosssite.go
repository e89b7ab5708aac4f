package handlers

import (
	"net/http"
	"slices"

	"github.com/labstack/echo/v5"

	"creditdash/internal/views"
	"creditdash/templates"
)

// Some GETs spend the analyst's hourly budget or write the workspace: an
// export costs a request, the home page writes "last seen" marks. A
// session cookie goes along with a top-level navigation from any site
// (SameSite=Lax), so another site could make a visitor's browser spend
// or write by linking there. Browsers say where a request came from in
// Sec-Fetch-Site: from another site, these GETs answer with a page that
// offers the same request as a button, and do nothing until it is
// pressed here. Browsers that send no Sec-Fetch-Site are let through.

// crossSite says what a guarded GET would do, for its stand-in page.
type crossSite struct {
	title, why, button string
}

// sameSiteOnly guards a GET as described above.
func (h *Handler) sameSiteOnly(what crossSite) echo.MiddlewareFunc {
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c *echo.Context) error {
			r := c.Request()
			if site := r.Header.Get("Sec-Fetch-Site"); site != "cross-site" && site != "same-site" {
				return next(c)
			}
			v := views.CrossSitePage{Title: what.title, Why: what.why, Button: what.button, Path: safePath(r.URL.Path)}
			q := r.URL.Query()
			names := make([]string, 0, len(q))
			for name := range q {
				names = append(names, name)
			}
			slices.Sort(names)
			for _, name := range names {
				for _, value := range q[name] {
					v.Fields = append(v.Fields, views.Field{Name: name, Value: value})
				}
			}
			return h.render(c, http.StatusForbidden, templates.CrossSite(h.base(c, nil, what.title, views.NavNone), v))
		}
	}
}

// The guarded GETs.
var (
	crossSiteExport = crossSite{
		title:  "Download the export?",
		why:    "The export uses one request of your hourly budget.",
		button: "Download",
	}
	crossSiteHome = crossSite{
		title:  "Open the home page?",
		why:    "The home page remembers the scores you have seen, to show what changed on your next visit.",
		button: "Open the home page",
	}
)
