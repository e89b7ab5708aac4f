package handlers

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"strings"

	"github.com/labstack/echo/v5"

	"creditdash/internal/upstream"
	"creditdash/internal/views"
	"creditdash/templates"
)

// tradeProviderPath is the settings page; the 409 page of a CustomerId
// lookup links here too (see classify).
const tradeProviderPath = "/settings/trade-provider"

// showTradeProvider lists the account's trade providers and the current
// one. After a choice, ?chosen= carries the confirmation through the
// redirect; it is shown only if it names the provider now current, so a
// hand-made link confirms nothing.
func (h *Handler) showTradeProvider(c *echo.Context) error {
	s := mustSession(c)
	var tp upstream.TradeProviders
	var err error
	if h.loadSections(c, s.Key, one("providers", func(ctx context.Context) { tp, err = h.tradeProviders(ctx, s.Key) })) {
		return nil
	}
	if errors.Is(err, upstream.ErrSessionExpired) {
		return err
	}
	page := views.NewTradePage(h.base(c, "Trade provider", views.NavSettings), tp, "")
	status := http.StatusOK
	if page.Problem = h.sectionProblem(c, err); page.Problem != nil {
		status = page.Problem.Status
	}
	page.Flash = views.ChosenFlash(tp, c.QueryParam("chosen"))
	return h.render(c, status, templates.Trade(page))
}

// submitTradeProvider chooses a provider (form field provider) and goes back
// to the settings page with a confirmation; an id the account does not have
// re-renders the form with a message and status 400.
func (h *Handler) submitTradeProvider(c *echo.Context) error {
	s := mustSession(c)
	picked := strings.TrimSpace(c.FormValue("provider"))
	tp, err := h.tradeProviders(c.Request().Context(), s.Key)
	if err != nil {
		return err
	}
	refuse := func(msg string) error {
		page := views.NewTradePage(h.base(c, "Trade provider", views.NavSettings), tp, picked)
		page.Error = msg
		return h.render(c, http.StatusBadRequest, templates.Trade(page))
	}
	switch {
	case len(tp.Providers) == 0:
		return refuse("Your account has no trade providers to choose from.")
	case picked == "":
		return refuse("Choose one of the trade providers below.")
	case !views.HasProvider(tp, picked):
		return refuse("“" + clipInput(picked, 64) + "” is not one of your account's trade providers; choose one below.")
	}
	if _, err := h.svc.SetTradeProvider(c.Request().Context(), s.Key, picked); err != nil {
		var ue *upstream.Error
		if errors.Is(err, upstream.ErrBadRequest) && errors.As(err, &ue) && ue.Message != "" {
			return refuse(ue.Message)
		}
		return err
	}
	return redirect(c, tradeProviderPath+"?chosen="+url.QueryEscape(picked))
}

// tradeProviders asks the service; a service without the operation (404)
// is an account without trade providers.
func (h *Handler) tradeProviders(ctx context.Context, key string) (upstream.TradeProviders, error) {
	tp, err := h.svc.TradeProviders(ctx, key)
	if errors.Is(err, upstream.ErrNotFound) {
		return upstream.TradeProviders{}, nil
	}
	return tp, err
}
