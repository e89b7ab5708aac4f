package handlers

import (
	"time"

	"bytes"
	"net/http"

	"github.com/a-h/templ"
	"github.com/labstack/echo/v5"

	"creditdash/internal/middleware"
	"creditdash/internal/session"
	"creditdash/internal/views"
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
	b.Role = string(h.roles.Of(s.User).Role)
	counts := h.counts(c, ld)
	b.Workspace.Unread = counts.glance.Unread
	if m, ok := h.providers.mark(s.User); ok {
		b.TradeProviders = m.has
	}
	b.Decisions, b.Waiting = true, counts.waiting
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
