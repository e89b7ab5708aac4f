package handlers

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/labstack/echo/v5"

	"creditdash/internal/credit"
	"creditdash/internal/session"
	"creditdash/internal/store"
	"creditdash/internal/upstream"
	"creditdash/internal/upstream/cache"
	"creditdash/internal/views"
	"creditdash/templates"
)

// Linking an account by hand (issue 43.3): a names-only file leaves an
// account "not linked" when its name matches none, or several, of the
// businesses the team knows, and an analyst or manager links it here,
// by a business id the service confirms or a business its name search
// finds. Both cost one request of the user's hourly budget, asked for.

// linkTarget is the route's account, from the newest ledger.
func (h *Handler) linkTarget(c *echo.Context) (credit.Figures, error) {
	account, err := url.PathUnescape(c.Param("account"))
	if err != nil {
		return credit.Figures{}, echo.ErrNotFound
	}
	all, err := h.teamFigures(c.Request().Context(), h.analyst(c), "")
	if err != nil {
		return credit.Figures{}, accountsError(err)
	}
	for _, f := range all {
		if f.Account.Account == account {
			return f, nil
		}
	}
	return credit.Figures{}, echo.ErrNotFound
}

// linkPage is the page for f, with nothing searched or typed yet.
func (h *Handler) linkPage(c *echo.Context, f credit.Figures) views.AccountLinkPage {
	p := views.AccountLinkPage{Account: f.Account.Account, Name: f.Name, Action: views.AccountLinkPath(f.Account.Account),
		SearchOffered: h.features.offered(session.Must(c).User, featureSearch)}
	if p.Name == "" {
		p.Name = "Account " + p.Account
	}
	if f.Linked() {
		p.LinkedID = strconv.FormatInt(int64(f.BusinessID), 10)
		p.LinkedTo = "/businesses/" + p.LinkedID
	}
	p.Base = h.base(c, nil, "Link account "+f.Account.Account, views.NavAccounts)
	return p
}

// showAccountLink is the link-by-hand page; with ?q= it lists the
// businesses the service finds by that name (one request, asked for).
func (h *Handler) showAccountLink(c *echo.Context) error {
	f, err := h.linkTarget(c)
	if err != nil {
		return err
	}
	p := h.linkPage(c, f)
	query := strings.TrimSpace(c.QueryParam("q"))
	if p.LinkedTo != "" {
		return h.render(c, http.StatusOK, templates.AccountLink(p))
	}
	if query == "" {
		// The account's name is offered in the box, not searched until
		// the user asks: opening the page costs no request.
		p.Query = p.Name
		return h.render(c, http.StatusOK, templates.AccountLink(p))
	}
	p.Query = query
	if !p.SearchOffered {
		return h.render(c, http.StatusOK, templates.AccountLink(p))
	}
	if utf8.RuneCountInString(query) > maxSearchLen {
		p.SearchProblem = views.SearchTooLong()
		return h.render(c, http.StatusBadRequest, templates.AccountLink(p))
	}
	var found []upstream.SearchResult
	var serr error
	h.load(c, section{name: "search", always: true, calls: []func(context.Context, Source){
		func(ctx context.Context, src Source) { found, serr = src.Search(ctx, query, searchResults+1) },
	}})
	if err := expiredAmong(serr); err != nil {
		return err
	}
	if errors.Is(serr, upstream.ErrNotFound) {
		// The service does not offer search to this user: hide it for a while.
		h.features.markMissing(session.Must(c).User, featureSearch)
		p.SearchOffered = false
		return h.render(c, http.StatusOK, templates.AccountLink(p))
	}
	p.SearchProblem = h.sectionProblem(c, serr)
	if len(found) > searchResults {
		found, p.MoreResults = found[:searchResults], true
	}
	p.Results = views.SearchRows(found)
	return h.render(c, http.StatusOK, templates.AccountLink(p))
}

// submitAccountLink links the account to the business typed or chosen,
// once the service confirms the id names a business; a malformed or
// unknown id comes back in the form with why (422), the typed text kept.
func (h *Handler) submitAccountLink(c *echo.Context) error {
	f, err := h.linkTarget(c)
	if err != nil {
		return err
	}
	p := h.linkPage(c, f)
	if p.LinkedTo != "" {
		return h.render(c, http.StatusConflict, templates.AccountLink(p))
	}
	typed := strings.TrimSpace(c.FormValue("business"))
	p.Business = views.Clip(typed, 40)
	id, perr := strconv.ParseInt(typed, 10, 32)
	if perr != nil || id <= 0 {
		p.BusinessError = "Type the business id as digits only, such as 1003 (the id shown on a business's report)."
		if typed == "" {
			p.BusinessError = "Type the business id, or search by name below."
		}
		return h.render(c, http.StatusUnprocessableEntity, templates.AccountLink(p))
	}
	var ident upstream.Identification
	var ierr error
	h.load(c, section{name: "ident", always: true, calls: []func(context.Context, Source){
		func(ctx context.Context, src Source) {
			ident, ierr = src.IdentificationGroup(ctx, upstream.ByID(int32(id)))
		},
	}})
	if err := expiredAmong(ierr); err != nil {
		return err
	}
	switch {
	case errors.Is(ierr, upstream.ErrNotFound):
		p.BusinessError = "No business " + strconv.FormatInt(id, 10) + ": the service knows no business of that id. Check the id, or search by name below."
		return h.render(c, http.StatusUnprocessableEntity, templates.AccountLink(p))
	case ierr != nil:
		// Not checked, so not linked: the service failed or the hour's
		// requests ran out. The box says which and when to try again.
		p.Problem = h.sectionProblem(c, ierr)
		status := http.StatusServiceUnavailable
		if errors.Is(ierr, cache.ErrBudgetSpent) || errors.Is(ierr, upstream.ErrRateLimited) {
			status = http.StatusTooManyRequests
		}
		return h.render(c, status, templates.AccountLink(p))
	}
	err = h.store.LinkAccountByHand(c.Request().Context(), h.analyst(c), f.Account.Account, int32(id), ident.BusinessName)
	if errors.Is(err, store.ErrAlreadyLinked) {
		// Linked by someone else meanwhile: show whose link stands.
		if f, err = h.linkTarget(c); err != nil {
			return err
		}
		return h.render(c, http.StatusConflict, templates.AccountLink(h.linkPage(c, f)))
	}
	if err != nil {
		return accountsError(err)
	}
	return redirect(c, "/accounts?handlinked="+url.QueryEscape(f.Account.Account))
}
