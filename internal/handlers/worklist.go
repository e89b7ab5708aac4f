package handlers

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"
	"unsafe"

	"github.com/labstack/echo/v5"

	"creditdash/internal/credit"
	"creditdash/internal/session"
	"creditdash/internal/store"
	"creditdash/internal/views"
	"creditdash/templates"
)

// worklistPageSize is how many lines one page of /worklist lists.
const worklistPageSize = 50

// worklist works out every account of the newest ledger that needs
// something, largest expected loss first, from what the team keeps under
// its version (below), with the same figures and schedule as
// /accounts and /reviews.
//
// ctx bounds the read: the page's request (the store bounds it too, as
// for /accounts), or the home page's workspace deadline, so a slow
// worklist hides the home page's box instead of holding the page.
func (h *Handler) worklist(ctx context.Context, c *echo.Context) ([]credit.WorkItem, error) {
	a := h.analyst(c)
	ts, err := h.teamNow(ctx, a)
	if err != nil {
		return nil, accountsError(err)
	}
	b, err := h.teamWorkBase(ctx, ts)
	if err != nil {
		return nil, accountsError(err)
	}
	return b.items(h.now(), a.User, h.deciderAuthority(c, session.Must(c).User)), nil
}

// parseWorklistFilter reads the page's filters; unknown values are
// ignored, as /accounts ignores them.
func parseWorklistFilter(owner, reason string) views.WorklistFilter {
	var f views.WorklistFilter
	if owner == "me" || owner == "unassigned" {
		f.Owner = owner
	}
	if r := credit.WorkReason(reason); slices.Contains(credit.WorkReasons, r) {
		f.Reason = r
	}
	return f
}

// showWorklist is /worklist.
func (h *Handler) showWorklist(c *echo.Context) error {
	q := c.Request().URL.Query()
	f := parseWorklistFilter(q.Get("owner"), q.Get("reason"))
	page, _ := strconv.Atoi(q.Get("page"))
	p, err := h.worklistPage(c, f, page)
	if err != nil {
		return err
	}
	if n, err := strconv.Atoi(q.Get("assigned")); err == nil && n >= 0 {
		to := views.Clip(q.Get("to"), 64)
		if to == "" {
			p.Flash = views.Plural(n, "account") + " left without an owner; the change is in the audit trail."
		} else {
			p.Flash = views.Plural(n, "account") + " assigned to " + to + "; each change is in the audit trail."
		}
	}
	return h.render(c, http.StatusOK, templates.Worklist(p))
}

// worklistPage builds the page for the filter and page number.
func (h *Handler) worklistPage(c *echo.Context, f views.WorklistFilter, n int) (views.WorklistPage, error) {
	p := views.WorklistPage{Filter: f, PDNote: credit.PDAssumption, MaxAssign: store.MaxOwnerBatch}
	items, err := h.worklist(c.Request().Context(), c)
	if err != nil {
		return p, err
	}
	dates, err := h.store.LedgerDates(c.Request().Context(), h.analyst(c))
	if err != nil {
		return p, accountsError(err)
	}
	if len(dates) > 0 {
		p.AsOf = dates[0]
	}
	user := session.Must(c).User
	p.Base = h.base(c, nil, "Worklist", views.NavWorklist)
	p.CanAssign = p.Role != "auditor"
	p.Return = "/worklist" + f.Query(n)
	byOwner := views.WorklistFilter{Owner: f.Owner}
	byReason := views.WorklistFilter{Reason: f.Reason}
	reasons := make([]int, len(credit.WorkReasons))
	owners := make([]int, 3) // everyone, me, unassigned
	var kept []*credit.WorkItem
	for i := range items {
		w := &items[i]
		if byOwner.Keep(w, user) {
			for i, r := range credit.WorkReasons {
				if w.Has(r) {
					reasons[i]++
				}
			}
		}
		if byReason.Keep(w, user) {
			owners[0]++
			if w.Owner == user {
				owners[1]++
			}
			if w.Owner == "" {
				owners[2]++
			}
		}
		if f.Keep(w, user) {
			kept = append(kept, w)
		}
	}
	for i, r := range credit.WorkReasons {
		g := views.WorklistFilter{Owner: f.Owner, Reason: r}
		p.Reasons = append(p.Reasons, views.WorkCount{Label: views.ReasonLabel(r), N: reasons[i], URL: "/worklist" + g.Query(1), Current: f.Reason == r})
	}
	for i, o := range []struct{ key, label string }{{"", "Everyone's"}, {"me", "Mine"}, {"unassigned", "Unassigned"}} {
		g := views.WorklistFilter{Owner: o.key, Reason: f.Reason}
		p.Owners = append(p.Owners, views.WorkCount{Label: o.label, N: owners[i], URL: "/worklist" + g.Query(1), Current: f.Owner == o.key})
	}
	p.All = views.WorkCount{Label: "Every reason", N: owners[0], URL: "/worklist" + views.WorklistFilter{Owner: f.Owner}.Query(1), Current: f.Reason == ""}
	p.Matching = len(kept)
	p.Pager = views.NewPager(n, worklistPageSize, len(kept), func(page int) string { return "/worklist" + f.Query(page) })
	if p.Pager.FirstRow > 0 {
		for _, w := range kept[p.Pager.FirstRow-1 : p.Pager.LastRow] {
			p.Rows = append(p.Rows, views.NewWorkRow(w, reviewPath(w.Account.Account)))
		}
	}
	return p, nil
}

// worklistSummary is the home page's worklist box; nil when the team
// keeps no accounts here or has no ledger yet. A failing store hides the
// box instead of failing the home page.
func (h *Handler) worklistSummary(c *echo.Context) *views.WorklistSummary {
	items, err := h.worklist(h.wsCtx(c), c)
	if err != nil {
		h.logWorkspace(c, "worklist summary", err)
		return nil
	}
	user := session.Must(c).User
	s := &views.WorklistSummary{Total: len(items)}
	counts := make([]int, len(credit.WorkReasons))
	for i := range items {
		w := &items[i]
		if w.Owner == user {
			s.Mine++
		}
		if w.Owner == "" {
			s.Unassigned++
		}
		for i, r := range credit.WorkReasons {
			if w.Has(r) {
				counts[i]++
			}
		}
	}
	for i, r := range credit.WorkReasons {
		if counts[i] > 0 {
			s.Reasons = append(s.Reasons, views.WorkCount{Label: views.ReasonLabel(r), N: counts[i], URL: "/worklist" + views.WorklistFilter{Reason: r}.Query(1)})
		}
	}
	return s
}

// The worklist is worked out of what the team keeps under its version
// (accounts_cache.go): the newest ledger's figures, in the worklist's
// order, with each account's latest review and statement year, and the
// pending requests. Reviews, statement years, owners, requests and
// decisions are all team writes (they move the version), so a page costs
// the version's one-row query and a pass over the kept accounts: which
// reasons hold depends on today and the reader, so that part is per page.

// workBase is the team's kept worklist input. Its slices are shared by
// every page: read them, never change them.
type workBase struct {
	// figs are the team's kept figures (teamFigures of the newest ledger);
	// order their indexes in the worklist's order (credit.WorkOrder).
	figs  []credit.Figures
	order []int32
	// last and years are per index of figs: the latest review (nil when
	// never reviewed) and the business's newest statement year (0 none).
	last  []*credit.LastReview
	years []int32
	// pending are the team's requests waiting for a decision.
	pending []store.PendingRequest
}

// teamWorkBase is the team's workBase at the version a page read.
func (h *Handler) teamWorkBase(ctx context.Context, ts teamState) (*workBase, error) {
	return keptTeam(ctx, h, ts, "worklist", "", func(ctx context.Context) (*workBase, int, error) {
		figs, err := h.teamFiguresAt(ctx, ts, "")
		if err != nil {
			return nil, 0, err
		}
		reviews, err := h.store.LastReviews(ctx, ts.a)
		if err != nil {
			return nil, 0, err
		}
		years, err := h.store.StatementYears(ctx, ts.a)
		if err != nil {
			return nil, 0, err
		}
		pending, err := h.store.PendingRequests(ctx, ts.a)
		if err != nil {
			return nil, 0, err
		}
		b := &workBase{figs: figs, order: credit.WorkOrder(figs), last: make([]*credit.LastReview, len(figs)),
			years: make([]int32, len(figs)), pending: pending}
		// The figures are weighed under their own key; this weighs the rest.
		bytes := len(figs)*(4+8+4) + len(pending)*int(unsafe.Sizeof(store.PendingRequest{}))
		for i := range figs {
			f := &figs[i]
			if r, ok := reviews[f.Account.Account]; ok {
				b.last[i] = &credit.LastReview{At: r.At, Band: r.Band, Over90: r.Over90, StatementYear: r.StatementYear,
					Outcome: r.Outcome, By: r.By, Note: r.Note}
				bytes += int(unsafe.Sizeof(credit.LastReview{}))
			}
			if f.BusinessID != 0 {
				b.years[i] = int32(years[f.BusinessID])
			}
		}
		for _, p := range pending {
			bytes += len(p.Account) + len(p.RequestedBy)
		}
		return b, bytes, nil
	})
}

// items are the accounts of b that need something as of now for user,
// who may decide pending requests of others up to authority, in the
// worklist's order.
func (b *workBase) items(now time.Time, user string, authority float64) []credit.WorkItem {
	var waiting map[string]int
	for _, p := range b.pending {
		if p.RequestedBy != user && p.Amount <= authority {
			if waiting == nil {
				waiting = map[string]int{}
			}
			waiting[p.Account]++
		}
	}
	var out []credit.WorkItem
	for _, i := range b.order {
		f := &b.figs[i]
		in := credit.WorkInputs{LastReview: b.last[i], StatementYear: int(b.years[i])}
		if waiting != nil {
			in.Waiting = waiting[f.Account.Account]
		}
		if w, ok := credit.NewWorkItem(f, in, now); ok {
			out = append(out, w)
		}
	}
	return out
}

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
