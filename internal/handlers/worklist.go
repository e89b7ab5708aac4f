package handlers

import (
	"context"
	"net/http"
	"slices"
	"strconv"

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
// its version (worklist_cache.go), with the same figures and schedule as
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
	return b.items(h.now(), a.User, h.deciderAuthority(session.Must(c).User)), nil
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
