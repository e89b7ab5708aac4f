package handlers

import (
	"net/http"
	"slices"

	"github.com/labstack/echo/v5"

	"creditdash/internal/views"
	"creditdash/templates"
)

// Signed-in GETs spend the analyst's hourly budget or write the
// workspace: a report costs requests and records the scores it saw, the
// home page writes "last seen" marks, an export costs a request. A session
// cookie goes along with a top-level navigation from any site
// (SameSite=Lax), so another site could make a visitor's browser spend or
// write by linking there. Browsers say where a request came from in
// Sec-Fetch-Site: from another site, a signed-in GET answers with a page
// that offers the same request as a button, and does nothing until it is
// pressed here. Every signed-in page is guarded, so a page added later is
// too; browsers that send no Sec-Fetch-Site (and links opened from other
// programs, "none") are let through.

// crossSite says what a guarded GET would do, for its stand-in page.
type crossSite struct {
	title, why, button string
}

// fromAnotherSite says whether the browser says the request came from a
// page of another site.
func fromAnotherSite(r *http.Request) bool {
	site := r.Header.Get("Sec-Fetch-Site")
	return site == "cross-site" || site == "same-site"
}

// sameSiteOnly guards one GET as described above.
func (h *Handler) sameSiteOnly(what crossSite) echo.MiddlewareFunc {
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c *echo.Context) error {
			if !fromAnotherSite(c.Request()) {
				return next(c)
			}
			return h.offerButton(c, what)
		}
	}
}

// sameSitePages guards every signed-in GET as described above; the
// messages of crossSitePages say what the better-known ones would do.
func (h *Handler) sameSitePages(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c *echo.Context) error {
		r := c.Request()
		if r.Method != http.MethodGet || !fromAnotherSite(r) {
			return next(c)
		}
		what, ok := crossSitePages[c.Path()]
		if !ok {
			what = crossSitePage
		}
		return h.offerButton(c, what)
	}
}

// offerButton answers a guarded GET from another site with the stand-in
// page: the same path and query as a form whose button asks again.
func (h *Handler) offerButton(c *echo.Context, what crossSite) error {
	r := c.Request()
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
