package handlers

import (
	"errors"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/labstack/echo/v5"

	"creditdash/internal/store"
	"creditdash/internal/views"
	"creditdash/templates"
)

// ownerPath is an account's owner form.
func ownerPath(account string) string { return "/accounts/" + url.PathEscape(account) + "/owner" }

// ownerForm is an assignment as posted: the owner typed, or unassign.
type ownerForm struct {
	owner    string
	unassign bool
	problem  string
}

// readOwnerForm checks the owner typed: a member of the team (a user name
// as the sign-in form takes one); "unassign" clears the owner instead.
func (h *Handler) readOwnerForm(c *echo.Context) ownerForm {
	f := ownerForm{owner: strings.TrimSpace(c.FormValue("owner")), unassign: c.FormValue("unassign") != ""}
	switch {
	case f.unassign:
		f.owner = ""
	case f.owner == "":
		f.problem = "Type the user name of the owner, or choose Unassign."
	case !plausibleUser(f.owner):
		f.problem = "An owner is a user name as one signs in with: up to 64 letters, digits and . _ - @ +."
		f.owner = views.Clip(f.owner, 200)
	default:
		f.problem = h.notMember(c, f.owner)
	}
	return f
}

// assignedURL is where an assignment lands: the worklist with its
// filters (read back through the filter, so nothing else passes) and what
// was done.
func assignedURL(c *echo.Context, n int, owner string) string {
	back, _ := url.Parse(c.FormValue("return"))
	f := views.WorklistFilter{}
	if back != nil && back.Path == "/worklist" {
		q := back.Query()
		f = parseWorklistFilter(q.Get("owner"), q.Get("reason"))
	}
	v := url.Values{}
	if f.Owner != "" {
		v.Set("owner", f.Owner)
	}
	if f.Reason != "" {
		v.Set("reason", string(f.Reason))
	}
	v.Set("assigned", strconv.Itoa(n))
	v.Set("to", owner)
	return "/worklist?" + v.Encode()
}

// submitOwner assigns one account's owner (logged); a bad name comes back
// on the account's review page with what was typed (422).
func (h *Handler) submitOwner(c *echo.Context) error {
	s, err := h.reviewed(c)
	if err != nil {
		return err
	}
	f := h.readOwnerForm(c)
	if f.problem != "" {
		return h.reviewPageOwner(c, s, http.StatusUnprocessableEntity, f.owner, f.problem)
	}
	n, err := h.store.AssignOwner(c.Request().Context(), h.analyst(c), []string{s.f.Account.Account}, f.owner, "assigned on the account's page")
	if err != nil {
		return accountsError(err)
	}
	return redirect(c, assignedURL(c, n, f.owner))
}

// submitBulkOwner assigns the owner of every account checked on the
// worklist in one change (each account logged); a bad name, no account
// or too many come back with the page as it was, boxes still checked
// (422).
func (h *Handler) submitBulkOwner(c *echo.Context) error {
	form, err := c.FormValues()
	if err != nil {
		return badInput("the form could not be read")
	}
	accounts := form["account"]
	f := h.readOwnerForm(c)
	switch {
	case len(accounts) == 0:
		f.problem = "Check at least one account to assign."
	case len(accounts) > store.MaxOwnerBatch:
		f.problem = "Assign at most " + strconv.Itoa(store.MaxOwnerBatch) + " accounts at once."
		accounts = accounts[:store.MaxOwnerBatch]
	}
	if f.problem == "" {
		n, err := h.store.AssignOwner(c.Request().Context(), h.analyst(c), accounts, f.owner, "assigned from the worklist")
		switch {
		case errors.Is(err, store.ErrNotFound):
			f.problem = "One of the accounts checked is not in the team's ledger any more; nothing was changed."
		case err != nil:
			return accountsError(err)
		default:
			return redirect(c, assignedURL(c, n, f.owner))
		}
	}
	back, _ := url.Parse(c.FormValue("return"))
	flt := views.WorklistFilter{}
	page := 1
	if back != nil && back.Path == "/worklist" {
		q := back.Query()
		flt = parseWorklistFilter(q.Get("owner"), q.Get("reason"))
		page, _ = strconv.Atoi(q.Get("page"))
	}
	p, err := h.worklistPage(c, flt, page)
	if err != nil {
		return err
	}
	p.OwnerValue, p.OwnerError = f.owner, f.problem
	p.Checked = map[string]bool{}
	for _, a := range accounts {
		p.Checked[a] = true
	}
	return h.render(c, http.StatusUnprocessableEntity, templates.Worklist(p))
}

// toReviewPage leads from an account's owner form, asked for with GET, to
// the account's page that holds it.
func toReviewPage(c *echo.Context) error {
	account, err := url.PathUnescape(c.Param("account"))
	if err != nil {
		return echo.ErrNotFound
	}
	return redirect(c, reviewPath(account))
}
