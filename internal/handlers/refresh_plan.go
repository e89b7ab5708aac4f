package handlers

import (
	"context"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v5"
	"golang.org/x/sync/errgroup"

	"creditdash/internal/alerts"
	"creditdash/internal/credit"
	"creditdash/internal/session"
	"creditdash/internal/store"
	"creditdash/internal/upstream"
	"creditdash/internal/upstream/cache"
	"creditdash/internal/views"
	"creditdash/templates"
)

// The refresh plan (issue 28): the team's linked businesses ranked by
// expected loss × staleness × recent movement (credit.RankRefresh), and a
// button that spends what the analyst has left this hour on the top of the
// list. Each business costs one request, its score history, read through
// the cache: the cache reserves every call in the budget book before it
// asks the service (shared by replicas through Redis when configured), so
// however many tabs or replicas click at once, no more calls leave than
// the hour allows; a call the book refuses is counted as missed.

// refreshPlanPath is the plan's page and its form's address.
const refreshPlanPath = "/refresh-plan"

// refreshAtOnce bounds the businesses one click refreshes, whatever the
// account's limit (an unlimited account's click is not a bulk job).
const refreshAtOnce = 50

// refreshPlan is the plan as one ledger makes it.
type refreshPlan struct {
	asOf     string
	figs     []credit.Figures
	ranked   []credit.RefreshCandidate
	unlinked int
}

// readRefreshPlan ranks the newest ledger's linked businesses; an empty
// plan (asOf "") when the team has no ledger.
func (h *Handler) readRefreshPlan(ctx context.Context, a store.Analyst) (*refreshPlan, error) {
	dates, err := h.store.LedgerDates(ctx, a)
	if err != nil || len(dates) == 0 {
		return &refreshPlan{}, err
	}
	p := &refreshPlan{asOf: dates[0]}
	if p.figs, err = h.teamFigures(ctx, a, dates[0]); err != nil {
		return nil, err
	}
	now := h.now().UTC()
	then := time.Date(now.Year(), now.Month()-credit.MovementMonths, 1, 0, 0, 0, 0, time.UTC)
	riskThen, err := h.store.RiskAsOf(ctx, a, then.Year()*100+int(then.Month()))
	if err != nil {
		return nil, err
	}
	p.ranked = credit.RankRefresh(p.figs, riskThen, now)
	for _, f := range p.figs {
		if !f.Linked() {
			p.unlinked++
		}
	}
	return p, nil
}

// refreshCoverage is the coverage of the team's newest ledger, for the
// exposure page, from the figures it already read.
func (h *Handler) refreshCoverage(figs []credit.Figures) views.CoverageView {
	return views.NewCoverageView(credit.NewScoreCoverage(figs, h.now()))
}

// showRefreshPlan shows the plan, the coverage, the analyst's budget and,
// after a click, what it fetched.
func (h *Handler) showRefreshPlan(c *echo.Context) error {
	p, err := h.readRefreshPlan(c.Request().Context(), h.analyst(c))
	if err != nil {
		return accountsError(err)
	}
	page := views.RefreshPlanPage{AsOf: p.asOf, PDNote: credit.PDAssumption, Unlinked: p.unlinked, Linked: len(p.ranked)}
	page.Base = h.base(c, nil, "Refresh plan", views.NavAccounts)
	if p.asOf != "" {
		page.Coverage = h.refreshCoverage(p.figs)
		page.Rows = views.NewRefreshRows(p.ranked)
	}
	page.Budget, page.CanSpend = h.budgetLeft(session.Must(c).User)
	page.Fetched, page.Missed, page.Done = readRefreshOutcome(c.Request().URL.Query(), p.ranked)
	return h.render(c, http.StatusOK, templates.RefreshPlan(page))
}

// budgetLeft words what the user has left this hour; spend is false when
// nothing is.
func (h *Handler) budgetLeft(user string) (text string, spend bool) {
	q, known := h.cache.Quota(user)
	if !known {
		return "Your account's hourly limit is not known yet (or it has none): the first request tells it.", true
	}
	renews := views.DateTime(q.RenewsAt())
	if q.Remaining <= 0 {
		return "Your account has no requests left this hour; the limit renews at " + renews + ".", false
	}
	return "Your account has " + views.Plural(q.Remaining, "request") + " left this hour (of " + strconv.Itoa(q.Limit) +
		"), renewing at " + renews + ": a refresh spends at most that, one request per business.", true
}

// readRefreshOutcome reads what the last click fetched from the address it
// returned to: the businesses (at most refreshAtOnce, each ranked) and how
// many it missed.
func readRefreshOutcome(q url.Values, ranked []credit.RefreshCandidate) (fetched []views.RefreshRow, missed int, done bool) {
	if !q.Has("fetched") {
		return nil, 0, false
	}
	at := make(map[int32]int, len(ranked))
	for i, rc := range ranked {
		at[rc.BusinessID] = i
	}
	for i, s := range strings.Split(q.Get("fetched"), ",") {
		if i == refreshAtOnce {
			break
		}
		id, err := strconv.ParseInt(strings.TrimSpace(s), 10, 32)
		if j, ok := at[int32(id)]; err == nil && ok {
			fetched = append(fetched, views.NewRefreshRow(j+1, ranked[j]))
		}
	}
	if n, err := strconv.Atoi(q.Get("missed")); err == nil && n > 0 {
		missed = min(n, refreshAtOnce)
	}
	return fetched, missed, true
}

// refreshed is one business a click fetched, or failed to.
type refreshed struct {
	id      int32
	hist    []upstream.CreditScoreHistoryRow
	fetched time.Time
	err     error
}

// submitRefreshPlan spends what the analyst has left this hour on the top
// of the plan, records the scores as the team's known scores, and returns
// to the plan with what was fetched.
func (h *Handler) submitRefreshPlan(c *echo.Context) error {
	ctx := c.Request().Context()
	a := h.analyst(c)
	p, err := h.readRefreshPlan(ctx, a)
	if err != nil {
		return accountsError(err)
	}
	var todo []*refreshed
	for _, rc := range p.ranked {
		if len(todo) == refreshAtOnce {
			break
		}
		// A business with no expected loss to weigh is never worth an
		// hour's request: it stays listed, last.
		if rc.Never() || rc.Priority > 0 {
			todo = append(todo, &refreshed{id: rc.BusinessID})
		}
	}
	s := session.Must(c)
	who := cache.Who{User: s.User, Key: s.Key}
	gate := h.features.gate(s.User)
	fetch := func(t *refreshed) {
		rd := h.cache.Reader(who)
		t.hist, t.err = gate(rd).CreditScoreHistory(ctx, upstream.ByID(t.id), time.Time{}, time.Time{})
		t.fetched = rd.Report().FetchedAt
	}
	start := 0
	q, known := h.cache.Quota(s.User)
	if !known && len(todo) > 0 {
		// The first call alone tells the limit; the rest is planned on it.
		fetch(todo[0])
		start = 1
		q, known = h.cache.Quota(s.User)
	}
	end := len(todo)
	if known {
		end = min(end, start+max(q.Remaining, 0))
	}
	calls := make([]func(), 0, end-start)
	for _, t := range todo[start:end] {
		calls = append(calls, func() {
			if release, err := h.calls.Acquire(ctx, s.User); err == nil {
				defer release()
			}
			fetch(t)
		})
	}
	fanOut(calls...)
	todo = todo[:end]
	if err := sessionProblem(todo, func(t *refreshed) error { return t.err }); err != nil {
		return err
	}
	var ids []string
	missed := 0
	for _, t := range todo {
		if t.err != nil {
			missed++
			continue
		}
		if t.fetched.IsZero() {
			t.fetched = h.now()
		}
		if _, err := h.arrivals.TeamScores(ctx, a, alerts.Report{ID: t.id, History: t.hist, Fetched: t.fetched}); err != nil {
			return accountsError(err)
		}
		ids = append(ids, strconv.Itoa(int(t.id)))
	}
	return redirect(c, refreshPlanPath+"?fetched="+strings.Join(ids, ",")+"&missed="+strconv.Itoa(missed))
}

// submitRefresh is a page's Refresh button: it forgets the cached copies the
// page was built from, for this user only, and goes back to the page, which
// then fetches them again. The page path passes the same check as
// sign-in's next, so the form can send no one elsewhere.
func (h *Handler) submitRefresh(c *echo.Context) error {
	s := session.Must(c)
	form := readRefreshForm(c)
	h.cache.Forget(s.User, form.Copies)
	return redirect(c, form.Page)
}

// maxParallel bounds how many service calls one page makes at once; it
// matches the client's connection pool so no call waits for a connection.
const maxParallel = 8

// fanOut runs a page's calls at once and waits for all of them. Each call
// keeps its own result and error, so one failing section never cancels or
// blanks the others; the page decides afterwards what each failure means.
func fanOut(calls ...func()) {
	var g errgroup.Group
	g.SetLimit(maxParallel)
	for _, call := range calls {
		g.Go(func() error {
			call()
			return nil
		})
	}
	_ = g.Wait()
}

// Fair shares of the service: however many pages and exports one user
// opens at once, they hold at most these many of the service connections
// (256), so one user cannot starve the others. Eight is one page's calls
// at once: a single page never waits on its own user's share.
const (
	callsPerUser   = maxParallel
	exportsPerUser = 2
)
