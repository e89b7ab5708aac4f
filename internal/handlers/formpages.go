package handlers

import (
	"net/http"
	"strconv"

	"github.com/labstack/echo/v5"

	"creditdash/internal/session"
	"creditdash/internal/upstream"
	"creditdash/internal/views"
	"creditdash/templates"
)

// A form's address is in the address bar after a refused form (422), so
// pressing Enter there, or opening it from history, asks for it with GET.
// These answer such a GET with the form's page, changing nothing, instead
// of "Page not found".

// goTo leads to a fixed page.
func goTo(path string) echo.HandlerFunc {
	return func(c *echo.Context) error { return redirect(c, path) }
}

// toReport leads from a business's form to its report, at anchor.
func toReport(anchor string) tab {
	return func(c *echo.Context, ref upstream.BusinessRef) error {
		return redirect(c, views.BusinessPath(ref, views.TabOverview)+anchor)
	}
}

// toRow leads from a form on one of the analyst's rows to that row's page,
// prefix plus the id plus suffix; the page itself checks whose row it is.
func toRow(prefix, suffix string) echo.HandlerFunc {
	return func(c *echo.Context) error {
		id, err := rowID(c)
		if err != nil {
			return err
		}
		return redirect(c, prefix+strconv.FormatInt(id, 10)+suffix)
	}
}

// showSignOut asks before signing out; without a session there is
// nothing to end, so it leads to the sign-in form.
func (h *Handler) showSignOut(c *echo.Context) error {
	if _, ok := session.Of(c); !ok {
		return redirect(c, "/login")
	}
	return h.render(c, http.StatusOK, templates.SignOut(h.base(c, nil, "Sign out", views.NavNone)))
}
