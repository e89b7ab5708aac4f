package handlers

import (
	"context"
	"errors"
	"fmt"
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

// The account's record (issue 43): an account added by hand, the ERP's
// limits requested through the usual rules, and a replaced ledger put
// back.

// maxAdoptedAtOnce bounds the limit requests one click makes.
const maxAdoptedAtOnce = 100

// showNewAccount shows the form that adds an account by hand.
func (h *Handler) showNewAccount(c *echo.Context) error {
	page := views.NewAccountPage{BusinessID: views.Clip(strings.TrimSpace(c.QueryParam("business")), 12)}
	page.Base = h.base(c, nil, "Add an account", views.NavAccounts)
	return h.render(c, http.StatusOK, templates.NewAccount(page))
}

// submitNewAccount adds the account and goes to its business's report,
// where its panel offers the limit request.
func (h *Handler) submitNewAccount(c *echo.Context) error {
	field := func(name string, n int) string { return views.Clip(strings.TrimSpace(c.FormValue(name)), n) }
	page := views.NewAccountPage{Account: field("account", 80), Name: field("name", 220), BusinessID: field("business_id", 20),
		Owner: field("owner", 260), Reason: field("reason", store.MaxRequestReasonLen+100)}
	page.Base = h.base(c, nil, "Add an account", views.NavAccounts)
	id, err := strconv.ParseInt(page.BusinessID, 10, 32)
	switch {
	case page.BusinessID == "":
		page.BusinessError = "Give the business's id at the service: the number in its report's address, such as 1001."
	case err != nil || id <= 0:
		page.BusinessError = "“" + page.BusinessID + "” is not a business id; give the number in the report's address, such as 1001."
	}
	if page.Account == "" {
		page.AccountError = "Give the account's number: the team's own customer number."
	}
	if page.Name == "" {
		page.NameError = "Give the customer's name."
	}
	if page.Reason == "" {
		page.ReasonError = "Say why the account is added, such as “new customer, first order expected”."
	} else if utf8.RuneCountInString(page.Reason) > store.MaxRequestReasonLen {
		page.ReasonError = "Keep the reason to 2,000 characters."
	}
	page.OwnerError = h.notMember(c, page.Owner)
	if page.AccountError != "" || page.NameError != "" || page.BusinessError != "" || page.ReasonError != "" || page.OwnerError != "" {
		return h.render(c, http.StatusUnprocessableEntity, templates.NewAccount(page))
	}
	err = h.store.AddAccount(c.Request().Context(), h.analyst(c), store.NewAccount{Account: page.Account, Name: page.Name,
		BusinessID: int32(id), Owner: page.Owner, Reason: page.Reason})
	var ve *store.ValidationError
	switch {
	case errors.As(err, &ve):
		msg := storeMessage(err)
		switch ve.Field {
		case "account":
			page.AccountError = msg
		case "name":
			page.NameError = msg
		case "owner":
			page.OwnerError = msg
		case "business", "business_id":
			page.BusinessError = msg
		case "reason":
			page.ReasonError = msg
		default:
			page.Error = msg
		}
		return h.render(c, http.StatusUnprocessableEntity, templates.NewAccount(page))
	case errors.Is(err, store.ErrAccountsFull):
		page.Error = storeMessage(err)
		return h.render(c, http.StatusUnprocessableEntity, templates.NewAccount(page))
	case err != nil:
		return accountsError(err)
	}
	return redirect(c, views.BusinessPath(upstream.ByID(int32(id)), views.TabOverview)+"#account")
}

// submitERPLimits requests, for up to maxAdoptedAtOnce accounts whose
// newest ledger gives an ERP limit other than the limit in force, that
// ERP limit: each a limit request of the analyst's, approved at once
// within their authority and otherwise waiting for a second pair of eyes,
// each audited as any request. Accounts with a request already waiting
// are left out.
func (h *Handler) submitERPLimits(c *echo.Context) error {
	ctx, a := c.Request().Context(), h.analyst(c)
	reason := strings.TrimSpace(c.FormValue("reason"))
	if reason == "" {
		return badInput("Say why the ERP's limits should be the team's: the reason is kept with each request.")
	}
	if utf8.RuneCountInString(reason) > 1500 {
		return badInput("Keep the reason to 1,500 characters.")
	}
	all, err := h.teamFigures(ctx, a, "")
	if err != nil {
		return accountsError(err)
	}
	authority := float64(h.rolesNow(c).Of(a.User).Authority)
	waiting, err := h.store.PendingAccounts(ctx, a)
	if err != nil {
		return decisionsError(err)
	}
	rule, err := h.activePolicy(c)
	if err != nil {
		return decisionsError(err)
	}
	asked, approved := 0, 0
	for _, f := range all {
		if asked == maxAdoptedAtOnce {
			break
		}
		if !f.Account.ERPDiffers() || waiting[f.Account.Account] {
			continue
		}
		inForce := "none"
		if f.Account.Limit != nil {
			inForce = views.Amount(*f.Account.Limit)
		}
		r, err := h.store.RequestLimit(ctx, a, store.RequestSpec{Account: f.Account.Account, Amount: *f.ERPLimit, Authority: authority,
			Reason: fmt.Sprintf("ERP limit %s in the ledger of %s (in force: %s). %s", views.Amount(*f.ERPLimit), f.AsOf, inForce, reason),
			Policy: rule.atOnce(&f)})
		if errors.Is(err, store.ErrRequestsFull) {
			break
		}
		if err != nil {
			return decisionsError(err)
		}
		asked++
		if r.Status == store.StatusApproved {
			approved++
		}
	}
	return redirect(c, "/accounts?requested="+strconv.Itoa(asked)+"&approved="+strconv.Itoa(approved))
}

// erpFlash says what submitERPLimits did.
func erpFlash(requested, approved int) string {
	msg := views.Plural(requested, "limit request") + " made for the ERP's limits: " + strconv.Itoa(approved) + " approved at once within your authority"
	if w := requested - approved; w > 0 {
		msg += ", " + strconv.Itoa(w) + " waiting for a second pair of eyes on the decisions page"
	}
	return msg + "."
}

// submitRestoreVersion puts a kept version of a ledger back as its date's
// ledger and goes to the accounts.
func (h *Handler) submitRestoreVersion(c *echo.Context) error {
	id, err := rowID(c)
	if err != nil {
		return err
	}
	v, err := h.store.RestoreVersion(c.Request().Context(), h.analyst(c), id)
	if errors.Is(err, store.ErrNotFound) {
		return badInput("That ledger is no longer kept (the team keeps %d replaced ledgers per date); nothing was restored.", store.MaxVersionsPerDate)
	}
	if err != nil {
		return accountsError(err)
	}
	return redirect(c, "/accounts?restored="+v.AsOf)
}

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
