package handlers

import (
	"net/http"
	"strconv"
	"strings"

	"github.com/labstack/echo/v5"

	"creditdash/internal/middleware"
	"creditdash/internal/session"
	"creditdash/internal/store"
	"creditdash/internal/upstream"
	"creditdash/internal/upstream/cache"
	"creditdash/internal/views"
	"creditdash/templates"
)

// The dashboard's posted forms, each read into a struct and checked before
// anything acts on it. A check answers a fault from views, which holds
// the words people read; the handler re-renders the form with it.

// Bounds on what the sign-in form accepts, before anything reaches the service.
const (
	maxUsernameLen = 128
	maxPasswordLen = 256
)

// loginForm is the sign-in form.
type loginForm struct {
	Username string
	Password string
	Next     string
}

func readLoginForm(c *echo.Context) loginForm {
	return loginForm{
		Username: strings.TrimSpace(c.FormValue("username")),
		Password: c.FormValue("password"),
		Next:     middleware.SafePath(c.FormValue("next")),
	}
}

// validate checks the form before the service is asked.
func (f loginForm) validate() views.LoginFault {
	switch {
	case f.Username == "" || f.Password == "":
		return views.LoginMissing
	case len(f.Username) > maxUsernameLen || len(f.Password) > maxPasswordLen:
		return views.LoginTooLong
	}
	return views.LoginOK
}

// verifyForm is the second step of a two-factor sign-in.
type verifyForm struct {
	// Code is the one-time code with the spaces people type between its
	// groups taken out.
	Code     string
	Remember bool
}

func readVerifyForm(c *echo.Context) verifyForm {
	return verifyForm{
		Code:     strings.ReplaceAll(strings.TrimSpace(c.FormValue("code")), " ", ""),
		Remember: c.FormValue("remember") != "",
	}
}

// validate checks the code's shape, so a typo never costs one of the
// service's limited attempts.
func (f verifyForm) validate() views.VerifyFault {
	if f.Code == "" {
		return views.VerifyMissing
	}
	if len(f.Code) < 4 || len(f.Code) > 10 {
		return views.VerifyMalformed
	}
	for _, r := range f.Code {
		if r < '0' || r > '9' {
			return views.VerifyMalformed
		}
	}
	return views.VerifyOK
}

// plausibleUser reports whether a typed user name looks like one, so it may
// be logged: people type passwords into the user-name field too.
func plausibleUser(name string) bool { return store.ValidUserName(name) }

// refreshForm is a page's Refresh button: the page to return to and the
// cached copies it was built from.
type refreshForm struct {
	Page   string
	Copies []string
}

// readRefreshForm reads the form; anything but well-formed copy tokens is
// dropped, and no more than a page can list are kept.
func readRefreshForm(c *echo.Context) refreshForm {
	f := refreshForm{Page: middleware.SafePath(c.FormValue("page"))}
	values, _ := c.FormValues()
	for _, t := range values["copy"] {
		if len(f.Copies) == cache.MaxCopies {
			break
		}
		if cache.ValidToken(t) {
			f.Copies = append(f.Copies, t)
		}
	}
	return f
}

// tradeProviderForm is the trade-provider choice.
type tradeProviderForm struct {
	Provider string
	// Next is the page that asked for a provider, to return to; "" stays
	// on the settings page.
	Next string
}

func readTradeProviderForm(c *echo.Context) tradeProviderForm {
	return tradeProviderForm{Provider: strings.TrimSpace(c.FormValue("provider")), Next: nextPage(c.FormValue("next"))}
}

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
