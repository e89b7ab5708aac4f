package handlers

import (
	"net/http"
	"slices"

	"github.com/labstack/echo/v5"

	"creditdash/internal/middleware"
	"creditdash/internal/session"
	"creditdash/internal/views"
	"creditdash/templates"
)

// Signed-in GETs asked for from another site answer with a page that
// offers the same request as a button (see session.SameSiteGETs); this
// file says what each such page says.

// crossSite says what a guarded GET would do, for its stand-in page.
type crossSite struct {
	title, why, button string
}

// sameSiteOnly guards one GET with its own message.
func (h *Handler) sameSiteOnly(what crossSite) echo.MiddlewareFunc {
	return session.SameSiteOnly(func(c *echo.Context) error { return h.offerButton(c, what) })
}

// sameSitePages guards every signed-in GET; the messages of crossSitePages
// say what the better-known ones would do.
func (h *Handler) sameSitePages() echo.MiddlewareFunc {
	return session.SameSiteGETs(func(c *echo.Context) error {
		what, ok := crossSitePages[c.Path()]
		if !ok {
			what = crossSitePage
		}
		return h.offerButton(c, what)
	})
}

// offerButton answers a guarded GET from another site with the stand-in
// page: the same path and query as a form whose button asks again.
func (h *Handler) offerButton(c *echo.Context, what crossSite) error {
	r := c.Request()
	v := views.CrossSitePage{Title: what.title, Why: what.why, Button: what.button, Path: middleware.SafePath(r.URL.Path)}
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

// The guarded GETs' messages.
var (
	crossSiteExport = crossSite{
		title:  "Download the export?",
		why:    "The export uses one request of your hourly budget.",
		button: "Download",
	}
	crossSiteReport = crossSite{
		title:  "Open the report?",
		why:    "A link from another site led here. Opening the report may use requests of your hourly budget and records the scores it shows for your team.",
		button: "Open the report",
	}
	crossSitePage = crossSite{
		title:  "Open the page?",
		why:    "A link from another site led here. Pages may use requests of your hourly budget or remember what you have seen, so the dashboard asks first.",
		button: "Open the page",
	}
	// crossSitePages are the messages of the pages linked to most, by
	// route; any other signed-in page gets crossSitePage.
	crossSitePages = map[string]crossSite{
		"/": {
			title:  "Open the home page?",
			why:    "The home page remembers the scores you have seen, to show what changed on your next visit.",
			button: "Open the home page",
		},
		"/businesses/:id":                   crossSiteReport,
		"/businesses/:id/payments":          crossSiteReport,
		"/businesses/:id/financials":        crossSiteReport,
		"/businesses/:id/officers":          crossSiteReport,
		"/customers/:customerId":            crossSiteReport,
		"/customers/:customerId/payments":   crossSiteReport,
		"/customers/:customerId/financials": crossSiteReport,
		"/customers/:customerId/officers":   crossSiteReport,
		"/suppliers/:supplierId":            crossSiteReport,
		"/suppliers/:supplierId/payments":   crossSiteReport,
		"/suppliers/:supplierId/financials": crossSiteReport,
		"/suppliers/:supplierId/officers":   crossSiteReport,
	}
)
