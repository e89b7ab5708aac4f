package handlers

import (
	"bytes"
	"context"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/a-h/templ"
	"github.com/labstack/echo/v5"

	"creditdash/internal/middleware"
	"creditdash/internal/session"
	"creditdash/internal/views"
	"creditdash/static"
)

// renderHTML renders a page into a pooled buffer, so that a failing
// template becomes a clean error page instead of half a page. The caller
// hands the buffer back with middleware.PutBuffer.
func renderHTML(c *echo.Context, page templ.Component) (*bytes.Buffer, error) {
	buf := middleware.GetBuffer()
	if err := page.Render(c.Request().Context(), buf); err != nil {
		middleware.PutBuffer(buf)
		return nil, err
	}
	return buf, nil
}

// render renders a page and sends it, gzipped when the browser accepts it.
func (h *Handler) render(c *echo.Context, status int, page templ.Component) error {
	html, err := renderHTML(c, page)
	if err != nil {
		return err
	}
	defer middleware.PutBuffer(html)
	return middleware.WriteHTML(c, status, html.Bytes())
}

// base builds the part of the view model every page shares, once the page
// knows its data: ld says when it was fetched and from which copies (nil
// for a page that shows no service data).
func (h *Handler) base(c *echo.Context, ld *loaded, title string, nav views.Nav) views.Base {
	now := h.now()
	b := views.Base{
		Title:  title,
		Nav:    nav,
		Assets: h.urls,
		URL:    pageURL(c).RequestURI(),
		Now:    now,
		CSRF:   session.Token(c),
	}
	s, ok := session.Of(c)
	if !ok {
		return b
	}
	b.User = s.User
	b.Role = string(h.rolesNow(c).Of(s.User).Role)
	counts := h.counts(c, ld)
	b.Workspace.Unread = counts.glance.Unread
	if m, ok := h.providers.mark(s.User); ok {
		b.TradeProviders = m.has
	}
	b.Waiting = counts.waiting
	if q, ok := h.cache.Quota(s.User); ok {
		b.Quota = &views.Quota{Limit: q.Limit, Remaining: q.Remaining, RenewsAt: q.RenewsAt(), Now: now}
	}
	if ld == nil {
		return b
	}
	b.Budget = budgetNotice(c, ld, now)
	if rep := ld.rd.Report(); !rep.FetchedAt.IsZero() {
		b.Freshness = &views.Freshness{FetchedAt: rep.FetchedAt, StaleSince: rep.StaleSince, StaleReason: rep.StaleReason,
			Now: now, Copies: rep.Copies, Page: b.URL}
	}
	return b
}

// redirect answers a form post with 303 so a reload does not resubmit it.
func redirect(c *echo.Context, to string) error {
	return c.Redirect(http.StatusSeeOther, to)
}

// budgetNotice is the page's one notice when sections wait for the limit
// to renew (they cost more than is left): their boxes then stay a line.
func budgetNotice(c *echo.Context, ld *loaded, now time.Time) *views.BudgetNotice {
	var n *views.BudgetNotice
	for _, o := range ld.offers {
		if o.left >= o.cost {
			continue
		}
		if n == nil {
			n = &views.BudgetNotice{RenewsAt: o.renewsAt, Renews: renewsText(c, o.renewsAt), Now: now}
		}
		n.Sections++
	}
	return n
}

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

// A data page is kept finished (middleware.PageCache) for as long as
// everything it shows stays the same; this file says what that is: the
// same user, form token, address, minute, quota, offers, the header's
// counts and the same cached copies of the service's data.

// respond is a data page's last step: it sends the kept copy of the page
// when one matches, and otherwise builds the page, renders it and keeps it.
// build runs only on a miss, so a warm page builds no views.
func (h *Handler) respond(c *echo.Context, ld *loaded, build func() (int, templ.Component, error)) error {
	gz := static.AcceptsGzip(c.Request())
	key, other, keep := h.pageKey(c, ld, gz)
	if keep {
		if p, ok := h.pages.Lookup(key, other, gz); ok {
			// Logged before the write, so the line is there once the page is.
			h.log.Debug("page served from the page cache", "request_id", middleware.RequestID(c))
			h.rememberFirst(c, ld, gz, key)
			return middleware.WritePage(c, p)
		}
	}
	status, page, err := build()
	if err != nil {
		return err
	}
	if keep && !ld.partial {
		// Keyed again: building may have moved what the key reads (a rule
		// that fired, scores recorded for the team), and the page shows
		// the state after.
		key, _, keep = h.pageKey(c, ld, gz)
	}
	if !keep || ld.partial {
		return h.render(c, status, page)
	}
	html, err := renderHTML(c, page)
	if err != nil {
		return err
	}
	defer middleware.PutBuffer(html)
	p := h.pages.Keep(key, status, html.Bytes(), gz)
	h.rememberFirst(c, ld, gz, key)
	return middleware.WritePage(c, p)
}

// pageKey hashes everything a page shows besides the service's data, and
// the exact copies of that data; key is the page's key in the encoding
// asked for (gzip or not), other the same page's in the other encoding.
// keep is false for a page that must not be kept: not a GET, or a call
// failed (a failure is never kept).
func (h *Handler) pageKey(c *echo.Context, ld *loaded, gz bool) (key, other middleware.PageKey, keep bool) {
	rep := ld.rd.Report()
	if c.Request().Method != "GET" || rep.Failed > 0 || rep.FetchedAt.IsZero() {
		return middleware.PageKey{}, middleware.PageKey{}, false
	}
	hs, ok := h.pageFields(c, ld)
	if !ok {
		return middleware.PageKey{}, middleware.PageKey{}, false
	}
	hs.Num(int64(rep.Fingerprint))
	hs.Num(int64(ld.also))
	hs.Field(ld.state)
	for _, o := range ld.offers {
		hs.Field(o.section)
		hs.Num(int64(o.cost))
		hs.Num(int64(o.left))
	}
	key, other = hs.Keys(gz)
	return key, other, true
}

// pageFields hashes what a page shows besides the service's data and the
// workspace state the page itself worked out (ld.state): the user, the
// address, the minute, the header's counts, the team's version, the
// quota. ok is false for a visitor not signed in.
func (h *Handler) pageFields(c *echo.Context, ld *loaded) (middleware.KeyHash, bool) {
	s, signedIn := session.Of(c)
	if !signedIn {
		return middleware.KeyHash{}, false
	}
	r := c.Request()
	hs := middleware.NewKeyHash()
	hs.Field(s.User)
	hs.Field(session.Token(c))
	hs.Field(c.Scheme())
	hs.Field(r.Host)
	hs.Field(r.URL.RequestURI())
	hs.Num(h.now().Truncate(time.Minute).Unix())
	g := h.counts(c, ld).glance // notes, watch state and unread alerts are shown too
	hs.Num(g.Changed)
	hs.Num(int64(g.Unread))
	hs.Num(int64(h.awaiting(c, ld))) // the header's decisions waiting
	hs.Num(h.teamOf(c, ld).version)  // the account tile, the team's known scores
	if !h.features.offered(s.User, featureSearch) {
		hs.Field("no-search")
	}
	if ck, err := c.Cookie(tzCookie); err == nil {
		hs.Field("tz") // renewal times are shown in it
		hs.Field(ck.Value)
	}
	if m, _ := h.providers.mark(s.User); m.has {
		hs.Field("trade-providers") // the navigation shows their page
	}
	if q, ok := h.cache.Quota(s.User); ok {
		hs.Num(int64(q.Limit))
		hs.Num(int64(q.Remaining))
		hs.Num(q.RenewsAt().Truncate(time.Minute).Unix())
	}
	return hs, true
}

// firstKey is the key a page's copies are remembered under (see
// middleware.PageCache.SendKeptFirst): everything its page key holds but
// what was read (pageFields).
func (h *Handler) firstKey(c *echo.Context, ld *loaded, gz bool) (middleware.PageKey, bool) {
	hs, ok := h.pageFields(c, ld)
	if !ok {
		return middleware.PageKey{}, false
	}
	key, _ := hs.Keys(gz)
	return key, true
}

// sendKeptFirst sends a GET page's kept copy before anything is read, when
// the cache still holds the copies it was read from.
func (h *Handler) sendKeptFirst() echo.MiddlewareFunc {
	first := func(c *echo.Context, gz bool) (middleware.PageKey, bool) { return h.firstKey(c, &loaded{}, gz) }
	return h.pages.SendKeptFirst(first, h.cache.Holds, h.log)
}

// rememberFirst notes the copies the page ld read, so its kept page under
// key is sent before them next time. A page that cannot be told kept from
// its copies alone is not noted: one that worked out workspace state of its
// own (ld.state), offered sections, showed an expired copy, or read more
// copies than a note holds.
func (h *Handler) rememberFirst(c *echo.Context, ld *loaded, gz bool, key middleware.PageKey) {
	rep := ld.rd.Report()
	if ld.state != "" || len(ld.offers) > 0 || !rep.StaleSince.IsZero() || len(rep.Deps) == 0 || ld.alsoLost {
		return
	}
	fk, ok := h.firstKey(c, ld, gz)
	if !ok {
		return
	}
	h.pages.RememberFirst(fk, key, rep.Deps, ld.alsoDeps)
}

// CleanUp drops kept pages whose minute is over, for an idle process.
func (h *Handler) CleanUp() { h.pages.CleanUp() }

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
	// error, links its retry to it (below).
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
