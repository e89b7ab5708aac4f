package handlers

import (
	"time"

	"bytes"
	"net/http"
	"sync"

	"github.com/a-h/templ"
	"github.com/labstack/echo/v5"

	"creditdash/internal/views"
	"creditdash/static"
)

var bufPool = sync.Pool{New: func() any { return new(bytes.Buffer) }}

// renderHTML renders a page into a pooled buffer, so that a failing
// template becomes a clean error page instead of half a page. The caller
// hands the buffer back with putBuffer.
func renderHTML(c *echo.Context, page templ.Component) (*bytes.Buffer, error) {
	buf := getBuffer()
	if err := page.Render(c.Request().Context(), buf); err != nil {
		putBuffer(buf)
		return nil, err
	}
	return buf, nil
}

// getBuffer is an empty buffer from the pool.
func getBuffer() *bytes.Buffer {
	buf := bufPool.Get().(*bytes.Buffer)
	buf.Reset()
	return buf
}

// putBuffer hands a buffer back to the pool.
func putBuffer(buf *bytes.Buffer) {
	if buf.Cap() <= 1<<20 { // keep the pool from holding huge buffers
		bufPool.Put(buf)
	}
}

// render renders a page and sends it, gzipped when the browser accepts it.
func (h *Handler) render(c *echo.Context, status int, page templ.Component) error {
	html, err := renderHTML(c, page)
	if err != nil {
		return err
	}
	defer putBuffer(html)
	if static.AcceptsGzip(c.Request()) {
		gz := getBuffer()
		defer putBuffer(gz)
		gzipInto(gz, html.Bytes())
		return writeKept(c, &keptPage{status: status, body: gz.Bytes(), gz: true})
	}
	return writeKept(c, &keptPage{status: status, body: html.Bytes()})
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
		CSRF:   csrfToken(c),
	}
	s, ok := sessionOf(c)
	if !ok {
		return b
	}
	b.User = s.User
	b.Role = string(h.roles.Of(s.User).Role)
	counts := h.counts(c, ld)
	b.Workspace.Unread = counts.glance.Unread
	if m, ok := h.providers.mark(s.User); ok {
		b.TradeProviders = m.has
	}
	b.Decisions, b.Waiting = h.decisions != nil, counts.waiting
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

// csrfToken is the token this request's forms carry.
func csrfToken(c *echo.Context) string {
	if r, ok := c.Get(ctxRequest).(*request); ok {
		return r.csrf
	}
	return ""
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
