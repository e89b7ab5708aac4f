package handlers

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/a-h/templ"
	"github.com/labstack/echo/v5"
	"github.com/maypok86/otter/v2"

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

// providerBook remembers, per user, what the dashboard last learnt of the
// account's trade providers: whether it has any (so the navigation offers
// the trade-provider page only to accounts that can use it) and which one
// is current (so a CustomerId the service does not know is told under which
// provider it was looked for). It is learnt from reads the pages make
// anyway, never asked for on its own: an Ordinary account's ten requests
// an hour are worth more than a menu entry. Bounded and forgetting, per
// replica; an account not yet known shows no entry until a customer id or
// the page itself teaches it.
type providerBook struct {
	marks *otter.Cache[string, providerMark]
}

// providerMark is what is known of one account's trade providers.
type providerMark struct {
	has bool
	// current and name are the chosen provider's id and name; "" when
	// none is chosen or it is not known.
	current, name string
}

// Bounds of the book.
const (
	providerMemory   = 12 * time.Hour
	maxProviderMarks = 100_000
)

func newProviderBook() *providerBook {
	return &providerBook{marks: otter.Must(&otter.Options[string, providerMark]{
		MaximumSize:      maxProviderMarks,
		ExpiryCalculator: otter.ExpiryWriting[string, providerMark](providerMemory),
	})}
}

// learn notes the account's providers as the service listed them.
func (b *providerBook) learn(user string, tp upstream.TradeProviders) {
	m := providerMark{has: len(tp.Providers) > 0, current: tp.Current}
	for _, p := range tp.Providers {
		if p.ID == tp.Current {
			m.name = providerName(p)
		}
	}
	b.marks.Set(user, m)
}

// needsChoice notes an account the service said has several providers and
// none chosen.
func (b *providerBook) needsChoice(user string) {
	b.marks.Set(user, providerMark{has: true})
}

// mark is what is known of user's providers.
func (b *providerBook) mark(user string) (providerMark, bool) {
	return b.marks.GetIfPresent(user)
}

// providerName is a provider's name, or its id when the service sent none.
func providerName(p upstream.TradeProvider) string {
	if p.Name != "" {
		return p.Name
	}
	return p.ID
}

// inTradeTerms words a problem met while opening a customer id in the
// account's trade-provider terms: "choose a provider" leads back to this
// page once chosen, and a customer id the service does not know says
// under which provider it was looked for, or that none is known.
func (h *Handler) inTradeTerms(c *echo.Context, p *views.Problem, err error) {
	s, ok := session.Of(c)
	if !ok {
		return
	}
	if isTradeProviderProblem(err) {
		h.providers.needsChoice(s.User)
		if c.Request().Method == http.MethodGet {
			p.ActionURL = withNext(pageURL(c).RequestURI())
		}
		return
	}
	if p.Status != http.StatusNotFound || !strings.HasPrefix(c.Request().URL.Path, "/customers/") {
		return
	}
	id, _ := pathParam(c, "customerId")
	id = views.Clip(id, 64)
	p.Title = "Customer id not found"
	m, known := h.providers.mark(s.User)
	switch {
	case known && m.current != "":
		p.Message = fmt.Sprintf("The credit-risk service has no customer “%s” under your trade provider %s (%s). Customer ids belong to one provider: if this one is another provider's, choose that provider first.", id, m.name, m.current)
		p.ActionURL, p.ActionText = withNext(pageURL(c).RequestURI()), "Choose another trade provider"
	case known && !m.has:
		p.Message = fmt.Sprintf("The credit-risk service has no customer “%s”, and your account has no trade providers: customer ids are for accounts with one. Open the business by its business id or supplier id.", id)
	default:
		p.Message = fmt.Sprintf("The credit-risk service has no customer “%s” under the trade provider your account has chosen. Customer ids belong to one provider: check which is chosen.", id)
		p.ActionURL, p.ActionText = withNext(pageURL(c).RequestURI()), "See your trade providers"
	}
}

// featureBook remembers, per user, the optional operations the service
// answered 404 for (Search, say), so the page stops offering them for a
// while. It is per user because access models differ, and it forgets, so
// one transient 404 hides nothing for long.
type featureBook struct {
	missing *otter.Cache[string, bool]
}

// Bounds of the book: how long a 404 is believed, and how many are kept.
const (
	featureMemory   = 10 * time.Minute
	maxFeatureMarks = 100_000
)

// The optional operations the book knows.
const (
	featureSearch  = upstream.OpSearch
	featureIdent   = upstream.OpIdentificationGroup
	featureMembers = upstream.OpPortfolioBusinesses
)

func newFeatureBook() *featureBook {
	c := otter.Must(&otter.Options[string, bool]{
		MaximumSize:      maxFeatureMarks,
		ExpiryCalculator: otter.ExpiryWriting[string, bool](featureMemory),
	})
	return &featureBook{missing: c}
}

// markMissing notes that the service said it lacks op for user.
func (b *featureBook) markMissing(user, op string) { b.missing.Set(user+"\x00"+op, true) }

// offered reports whether op may be offered to user.
func (b *featureBook) offered(user, op string) bool {
	_, missing := b.missing.GetIfPresent(user + "\x00" + op)
	return !missing
}

// gate returns how a page's reads are made for user: straight through the
// cache, or, for an operation the service lately said it lacks, answered
// "not found" without asking again.
func (b *featureBook) gate(user string) func(*cache.Reader) Source {
	var absent []string
	for _, op := range []string{featureIdent, featureMembers} {
		if !b.offered(user, op) {
			absent = append(absent, op)
		}
	}
	return func(r *cache.Reader) Source { return r.User.Without(absent...) }
}
