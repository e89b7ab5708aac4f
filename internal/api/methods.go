package api

import (
	"net/http"
	"strings"

	"github.com/labstack/echo/v5"
)

// methods are the methods a path of the API may be asked for an Allow
// header: those of RFC 9110 that a resource could take.
var methods = []string{http.MethodGet, http.MethodHead, http.MethodPost, http.MethodPut, http.MethodPatch, http.MethodDelete}

// routeMissing answers what the router found no route for under Prefix.
// The API's catch-all keeps such paths from the pages' (a redirect to sign
// in), but it also catches a known path asked with another method, which
// Echo's router would answer 405 without it. So the router is asked, for
// each method, whether the path has a route of it: if any, the answer is
// 405 with Allow naming them (RFC 9110 15.5.6), OPTIONS included (the API
// takes no preflight: a browser page never calls it); if none, 404. Both
// are problems, as every failure.
func routeMissing(c *echo.Context) error {
	allow := allowed(c)
	if allow == "" {
		return problem(http.StatusNotFound, "There is no such path in /api/v1; openapi.json lists them.")
	}
	c.Response().Header().Set(echo.HeaderAllow, allow)
	return problem(http.StatusMethodNotAllowed, "%s %s is not an operation of /api/v1: this path takes %s (openapi.json lists each).",
		c.Request().Method, c.Request().URL.Path, allow)
}

// allowed is the methods the router has a route of for the request's
// path, comma-separated, "" for none. It routes a copy of the request per
// method through the app's own router, so it cannot disagree with it (HEAD
// is there when the router answers HEAD for a GET).
func allowed(c *echo.Context) string {
	e := c.Echo()
	if e == nil {
		return ""
	}
	var found []string
	for _, m := range methods {
		if m == c.Request().Method {
			continue
		}
		r := c.Request().Clone(c.Request().Context())
		r.Method = m
		probe := e.NewContext(r, nil)
		e.Router().Route(probe)
		if info := probe.RouteInfo(); info.Method != "" && info.Method != echo.RouteNotFound &&
			info.Name != echo.NotFoundRouteName && info.Name != echo.MethodNotAllowedRouteName {
			found = append(found, m)
		}
	}
	return strings.Join(found, ", ")
}
