package handlers

import (
	"creditdash/internal/session"
	"github.com/labstack/echo/v5"
)

// submitRefresh is a page's Refresh button: it forgets the cached copies the
// page was built from, for this user only, and goes back to the page, which
// then fetches them again. The page path passes the same check as
// sign-in's next, so the form can send no one elsewhere.
func (h *Handler) submitRefresh(c *echo.Context) error {
	s := session.Must(c)
	form := readRefreshForm(c)
	h.cache.Forget(s.User, form.Copies)
	return redirect(c, form.Page)
}
