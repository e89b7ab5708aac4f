package handlers

import (
	"context"
	"errors"
	"net/http"
	"net/url"

	"github.com/a-h/templ"
	"github.com/labstack/echo/v5"

	"creditdash/internal/middleware"
	"creditdash/internal/session"
	"creditdash/internal/upstream"
	"creditdash/internal/upstream/cache"
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
	var tp upstream.TradeProviders
	var err error
	ld := h.load(c, one("providers", func(ctx context.Context, src Source) { tp, err = tradeProviders(ctx, src) }))
	if errors.Is(err, upstream.ErrSessionExpired) {
		return err
	}
	next := nextPage(c.QueryParam("next"))
	if err == nil {
		h.providers.learn(session.Must(c).User, tp)
	}
	return h.respond(c, ld, func() (int, templ.Component, error) {
		page := views.NewTradePage(h.base(c, ld, "Trade provider", views.NavSettings), tp, "")
		page.Next = next
		status := http.StatusOK
		if page.Problem = h.sectionProblem(c, err); page.Problem != nil {
			status = page.Problem.Status
		}
		page.Flash = views.ChosenFlash(tp, c.QueryParam("chosen"))
		return status, templates.Trade(page), nil
	})
}

// submitTradeProvider chooses a provider (form field provider) and goes back
// to the settings page with a confirmation; an id the account does not have
// re-renders the form with a message and status 400. The user's copies are
// forgotten after a change: the same CustomerId may then name another
// business.
func (h *Handler) submitTradeProvider(c *echo.Context) error {
	s := session.Must(c)
	form := readTradeProviderForm(c)
	tp, err := tradeProviders(c.Request().Context(), &h.cache.Reader(cache.Who{User: s.User, Key: s.Key}).User)
	if err == nil {
		h.providers.learn(s.User, tp)
	}
	refuse := func(msg string) error {
		page := views.NewTradePage(h.base(c, nil, "Trade provider", views.NavSettings), tp, form.Provider)
		page.Next = form.Next
		page.Error = msg
		return h.render(c, http.StatusBadRequest, templates.Trade(page))
	}
	// A failing service leaves the form as it was, the choice still
	// marked, with the problem and a link to try again.
	failed := func(err error) error {
		if errors.Is(err, upstream.ErrSessionExpired) {
			return err
		}
		page := views.NewTradePage(h.base(c, nil, "Trade provider", views.NavSettings), tp, form.Provider)
		page.Next = form.Next
		page.Problem = h.sectionProblem(c, err)
		p := *page.Problem
		if p.Status < http.StatusBadRequest { // the budget refused it: nothing was chosen
			p.Status = http.StatusTooManyRequests
		}
		h.setRetryAfter(c, p)
		return h.render(c, p.Status, templates.Trade(page))
	}
	if err != nil {
		return failed(err)
	}
	if fault := views.CheckProvider(tp, form.Provider); fault != "" {
		return refuse(fault)
	}
	if _, err := h.svc.SetTradeProvider(c.Request().Context(), s.Key, form.Provider); err != nil {
		var ue *upstream.Error
		if errors.Is(err, upstream.ErrBadRequest) && errors.As(err, &ue) && ue.Message != "" {
			return refuse(ue.Message)
		}
		return failed(err)
	}
	h.cache.ForgetUser(s.User)
	tp.Current = form.Provider
	h.providers.learn(s.User, tp)
	if form.Next != "" {
		// Back to the page that asked for a provider, which now opens.
		return redirect(c, form.Next)
	}
	return redirect(c, tradeProviderPath+"?chosen="+url.QueryEscape(form.Provider))
}

// nextPage is a page to return to after choosing a provider: a local path
// only, and "" when there is none (or it would lead back to sign-in).
func nextPage(raw string) string {
	if raw == "" {
		return ""
	}
	if p := middleware.SafePath(raw); p != "/" || raw == "/" {
		return p
	}
	return ""
}

// withNext is the trade-provider page that returns to page afterwards.
func withNext(page string) string {
	if page == "" {
		return tradeProviderPath
	}
	return tradeProviderPath + "?next=" + url.QueryEscape(page)
}

// tradeProviders asks the service; a service without the operation (404)
// is an account without trade providers.
func tradeProviders(ctx context.Context, src Source) (upstream.TradeProviders, error) {
	tp, err := src.TradeProviders(ctx)
	if errors.Is(err, upstream.ErrNotFound) {
		return upstream.TradeProviders{}, nil
	}
	return tp, err
}
