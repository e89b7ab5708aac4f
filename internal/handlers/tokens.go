package handlers

import (
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/labstack/echo/v5"

	"creditdash/internal/api"
	"creditdash/internal/roles"
	"creditdash/internal/store"
	"creditdash/internal/views"
	"creditdash/templates"
)

// defaultTokenDays is the expiry the creation form proposes.
const defaultTokenDays = 90

// showTokens is /settings/tokens: the member's personal access tokens for
// /api/v1 and the form that makes one.
func (h *Handler) showTokens(c *echo.Context) error {
	page := views.TokensPage{Form: views.TokenForm{Scope: store.ScopeRead,
		Expires: h.now().UTC().AddDate(0, 0, defaultTokenDays).Format(store.DateLayout)}}
	if c.QueryParam("revoked") != "" {
		page.Flash = "The token was revoked: it no longer opens the API."
	}
	return h.renderTokens(c, http.StatusOK, page)
}

// submitToken makes a token and shows its secret, on this answer only: the
// store keeps its hash. The page is never stored (SecureHeaders).
func (h *Handler) submitToken(c *echo.Context) error {
	f := views.TokenForm{Name: views.Clip(strings.TrimSpace(c.FormValue("name")), store.MaxTokenNameLen+20),
		Scope: c.FormValue("scope"), Expires: views.Clip(strings.TrimSpace(c.FormValue("expires")), 20)}
	a := h.analyst(c)
	now := h.now().UTC()
	expires, err := time.Parse(store.DateLayout, f.Expires)
	switch {
	case err != nil:
		f.DateError = "Give the last day the token works, as YYYY-MM-DD."
	case !expires.After(now):
		f.DateError = "The expiry is a day to come."
	case expires.Sub(now) > store.MaxTokenLifetime:
		f.DateError = "A token lasts at most 366 days; make a new one when it ends."
	}
	// The token works to the end of its last day (UTC), within the bound.
	expires = expires.Add(24*time.Hour - time.Second)
	if expires.Sub(now) > store.MaxTokenLifetime {
		expires = now.Add(store.MaxTokenLifetime)
	}
	switch f.Scope {
	case store.ScopeRead:
	case store.ScopeWrite:
		if !writes(h.rolesNow(c).Of(a.User).Role) {
			f.ScopeError = "Auditors read everything of the team and change nothing, so their tokens read only."
		}
	default:
		f.ScopeError = "Choose read or write."
	}
	if f.Name == "" {
		f.NameError = "Name the token after what will use it, such as “ERP nightly sync”."
	}
	if f.NameError != "" || f.ScopeError != "" || f.DateError != "" {
		return h.renderTokens(c, http.StatusUnprocessableEntity, views.TokensPage{Form: f})
	}
	secret, hash, prefix := api.NewSecret()
	t, err := h.store.CreateToken(c.Request().Context(), a, store.TokenSpec{Name: f.Name, Scope: f.Scope, Expires: expires,
		Hash: hash, Prefix: prefix})
	var ve *store.ValidationError
	switch {
	case errors.As(err, &ve) && ve.Field == "name":
		f.NameError = storeMessage(err)
	case errors.As(err, &ve) || errors.Is(err, store.ErrTokensFull):
		f.Error = storeMessage(err)
	case err != nil:
		return auditError(err)
	}
	if f.NameError != "" || f.Error != "" {
		return h.renderTokens(c, http.StatusUnprocessableEntity, views.TokensPage{Form: f})
	}
	showAt(c, views.TokensPath)
	page := views.TokensPage{Secret: secret, Made: t.Name, Form: views.TokenForm{Scope: store.ScopeRead,
		Expires: now.AddDate(0, 0, defaultTokenDays).Format(store.DateLayout)}}
	return h.renderTokens(c, http.StatusOK, page)
}

// writes says the role may change something through a token.
func writes(r roles.Role) bool { return r.May(roles.RequestLimit) || r.May(roles.ChangeAccounts) }

// submitRevokeToken revokes one of the member's tokens; another's is 404.
func (h *Handler) submitRevokeToken(c *echo.Context) error {
	id, err := rowID(c)
	if err != nil {
		return err
	}
	if _, err := h.store.RevokeToken(c.Request().Context(), h.analyst(c), id); err != nil {
		if errors.Is(err, store.ErrNotFound) {
			return echo.ErrNotFound
		}
		return auditError(err)
	}
	return redirect(c, views.TokensPath+"?revoked=1")
}

// renderTokens fills the page's list and renders it.
func (h *Handler) renderTokens(c *echo.Context, status int, page views.TokensPage) error {
	a := h.analyst(c)
	tokens, err := h.store.Tokens(c.Request().Context(), a)
	if err != nil {
		return workspaceError(fmt.Errorf("tokens: %w", err))
	}
	page.Rows = views.NewTokenRows(tokens, h.now())
	page.WriteAllowed = writes(h.rolesNow(c).Of(a.User).Role)
	page.Max = store.MaxActiveTokens
	flash := page.Flash
	page.Base = h.base(c, nil, "API tokens", views.NavNone)
	page.Flash = flash
	return h.render(c, status, templates.Tokens(page))
}
