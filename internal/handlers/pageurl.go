package handlers

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/labstack/echo/v5"

	"creditdash/internal/middleware"
)

// The address a page stands for is the one piece of page state kept on
// the request (below) rather than passed: the error handler, which
// Echo calls with the context and the error only, links its retry there,
// and so do the budget's "Load" links and the Base of any page a form's
// handler renders. A handler that answers for another address says so
// once, before loading, with showAt, showWithout or standFor.

// showAt makes a page answered to a POST stand for the page at path: its
// links to refresh, retry, load a section or share point there, not at the
// form's own address, which has no page.
func showAt(c *echo.Context, path string) { standFor(c, &url.URL{Path: path}) }

// standFor makes the page answered stand for the address u.
func standFor(c *echo.Context, u *url.URL) { stateOf(c).page = u }

// showWithout makes the page stand for its address without the query
// parameter name: a one-time word such as ?export=limited is said once,
// and the page's Refresh, retry and share links do not carry it on.
func showWithout(c *echo.Context, name string) {
	u := *c.Request().URL
	q := u.Query()
	if !q.Has(name) {
		return
	}
	q.Del(name)
	u.RawQuery = q.Encode()
	standFor(c, &u)
}

// pageURL is the address of the page being answered: the request's own,
// unless a form's handler named its page with showAt.
func pageURL(c *echo.Context) *url.URL {
	if r, ok := c.Get(ctxRequest).(*request); ok && r.page != nil {
		return r.page
	}
	return c.Request().URL
}

// returnPath is where to come back to after signing in: the page itself
// for a GET. A form's address has no page, so after a POST it is the page
// the form was sent from, when the browser names one on this site, else
// the home page.
func returnPath(r *http.Request) string {
	if r.Method == http.MethodGet || r.Method == http.MethodHead {
		return r.URL.RequestURI()
	}
	if from, err := url.Parse(r.Referer()); err == nil && from.Host == r.Host && from.Path != "" {
		return from.RequestURI()
	}
	return "/"
}

// cameFrom is the page of this site the browser says the user came from,
// as a local path, for the error page's way back; "" when it names none,
// another site, or the page itself. The Referer is the visitor's to
// write, so its path goes through middleware.SafePath like every other
// path from a request (no open redirect).
func cameFrom(r *http.Request) string {
	from, err := url.Parse(r.Referer())
	if err != nil || from.Host != r.Host || from.Path == "" || (from.Scheme != "http" && from.Scheme != "https") {
		return ""
	}
	p := middleware.SafePath(from.RequestURI())
	if p == "/" {
		return "" // refused, or the home page, which the error page links anyway
	}
	if (r.Method == http.MethodGet || r.Method == http.MethodHead) && p == r.URL.RequestURI() {
		return ""
	}
	return p
}

// request is the handlers' value in Echo's per-request store (the session
// keeps its own, see internal/session): what derives from the request
// itself, each a typed field behind its accessor (pageURL, wsCtx). What a page
// shows is not here: drafts, the header's counts, the team's supplier
// category and other page state are arguments or the page's own values
// (noteDraft, loaded.counts, loaded.state, paymentsLoad.own).
type request struct {
	// page is the address a form's answer stands for (showAt,
	// showWithout); nil for the request's own address. It stays here
	// because the error handler, which receives only the context and the
	// error, links its retry to it (pageurl.go).
	page *url.URL
	// ws is the context the request's workspace reads share (wsCtx): one
	// deadline for the whole request, like the request's own context,
	// which every store read already takes from here.
	ws context.Context
}

// ctxRequest is the key of the request's state in Echo's store.
const ctxRequest = "request"

// stateOf is the request's state, made on first use.
func stateOf(c *echo.Context) *request {
	if r, ok := c.Get(ctxRequest).(*request); ok {
		return r
	}
	r := &request{}
	c.Set(ctxRequest, r)
	return r
}

// tzCookie carries the analyst's time zone, as js/tz.js reads it from the
// browser.
const tzCookie = "creditdash_tz"

// analystZone is the time zone the analyst's browser reported, or nil when
// it did not (or sent a name Go does not know): times are then in UTC
// alone.
func analystZone(c *echo.Context) *time.Location {
	ck, err := c.Cookie(tzCookie)
	if err != nil {
		return nil
	}
	name, err := url.QueryUnescape(ck.Value)
	if err != nil || name == "" || len(name) > 64 || name == "UTC" || strings.ContainsAny(name, ". \\") {
		return nil
	}
	loc, err := time.LoadLocation(name)
	if err != nil {
		return nil
	}
	return loc
}
