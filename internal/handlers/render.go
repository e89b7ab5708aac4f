package handlers

import (
	"bytes"
	"net/http"
	"sync"

	"github.com/a-h/templ"
	"github.com/labstack/echo/v5"

	"creditdash/internal/views"
)

var bufPool = sync.Pool{New: func() any { return new(bytes.Buffer) }}

// render renders into a buffer first, so that a failing template becomes a
// clean error page instead of half a page. The page is rendered with a
// marker where the CSP nonce goes, cut there and compressed part by part
// (see splicedPage); a page whose data came whole from the cache is kept for
// the next identical request.
func (h *Handler) render(c *echo.Context, status int, page templ.Component) error {
	buf := bufPool.Get().(*bytes.Buffer)
	buf.Reset()
	defer func() {
		if buf.Cap() <= 1<<20 { // keep the pool from holding huge buffers
			bufPool.Put(buf)
		}
	}()
	h.finishChrome(c)
	ctx := templ.WithNonce(c.Request().Context(), h.marker)
	if err := page.Render(ctx, buf); err != nil {
		return err
	}
	sp := newSplicedPage(status, buf.Bytes(), []byte(h.marker), nonceLen)
	if key, ok := c.Get(ctxPageKey).(pageKey); ok {
		h.pages.Set(key, sp)
	}
	return h.writePage(c, sp)
}

// base fills the part of the view model every page shares.
func (h *Handler) base(c *echo.Context, title string, nav views.Nav) views.Base {
	b := views.Base{
		Title:  title,
		Nav:    nav,
		Assets: h.urls,
		URL:    c.Request().URL.RequestURI(),
		Now:    h.now(),
	}
	if s, ok := sessionOf(c); ok {
		b.User = s.User
		ch := &chrome{fresh: &views.Freshness{}, quota: &views.Quota{}}
		b.Freshness, b.Quota = ch.fresh, ch.quota
		c.Set(ctxChrome, ch)
	}
	b.CSRF, _ = c.Get(ctxCSRF).(string)
	return b
}

// redirect answers a form post with 303 so a reload does not resubmit it.
func redirect(c *echo.Context, to string) error {
	return c.Redirect(http.StatusSeeOther, to)
}
