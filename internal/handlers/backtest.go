package handlers

import (
	"cmp"
	"context"
	"errors"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v5"

	"creditdash/internal/alerts"
	"creditdash/internal/credit"
	"creditdash/internal/session"
	"creditdash/internal/store"
	"creditdash/internal/upstream"
	"creditdash/internal/views"
	"creditdash/templates"
)

// A back-test replays a rule over the portfolio's monthly Pay or Z″
// history (views.ReplayRule). The history is read once for the longest
// window, 36 months and the month in progress, and the first
// views.MovesCompared businesses by name, so every back-test of a month
// shares one cached copy per score: one request, two with a folder's
// members. Risk and DBT arrive only with each business's report, so they
// cannot be replayed over a portfolio.

// backtestsPerAnalyst bounds the back-tests one analyst runs at once.
const backtestsPerAnalyst = 5

// backtest is a back-test's input as read from the query: the form as
// typed, the rule and window it means, and the message when it means none.
type backtest struct {
	form   views.BacktestForm
	spec   store.RuleSpec
	months int
	msg    string
}

// readBacktest reads and checks the query like the rule form.
func readBacktest(c *echo.Context) backtest {
	q := c.QueryParams()
	b := backtest{form: views.BacktestForm{RuleForm: views.RuleForm{
		Scope: q.Get("scope"), Folder: strings.TrimSpace(q.Get("folder")), Score: q.Get("score"),
		Condition: q.Get("condition"), Threshold: strings.TrimSpace(q.Get("threshold"))},
		Months: strings.TrimSpace(q.Get("months"))}}
	if b.form.Scope == string(store.ScopeAccounts) {
		// The page says what to do instead (views.BacktestPage.AccountsScope).
		// It shows none of the rule's other fields, but keeps them for
		// another scope: what was typed, else what a new form offers.
		d := newBacktestForm(string(store.ScopeAccounts))
		b.form.Score, b.form.Condition = cmp.Or(b.form.Score, d.Score), cmp.Or(b.form.Condition, d.Condition)
		b.form.Threshold, b.form.Months = cmp.Or(b.form.Threshold, d.Threshold), cmp.Or(b.form.Months, d.Months)
		b.msg = "Rules on the team's accounts are not back-tested. A back-test judges each past alert by what followed it in the score it watches (did the business's Pay or Z″ get worse?); balances and limits have no such score, so a count of past alerts would not tell a useful rule from a noisy one."
		return b
	}
	if b.form.Scope == string(store.ScopeBusiness) {
		b.msg = "A back-test runs over the portfolio's histories: choose a folder or the whole portfolio."
		return b
	}
	b.spec, b.msg = readRule(b.form.RuleForm)
	if b.msg != "" {
		return b
	}
	if b.spec.Score != store.ScorePay && b.spec.Score != store.ScoreZ {
		b.msg = "Only Pay and Z″ can be back-tested: the portfolio's histories hold those two; Risk and DBT arrive with each business's report."
		return b
	}
	spec, err := store.CheckRule(b.spec)
	if err != nil {
		b.msg = storeMessage(err)
		return b
	}
	b.spec = spec
	b.months = views.BacktestDefaultMonths
	if b.form.Months != "" {
		n, err := strconv.Atoi(b.form.Months)
		if err != nil || n < views.BacktestMinMonths || n > views.BacktestMaxMonths {
			b.msg = "The window is " + strconv.Itoa(views.BacktestMinMonths) + " to " + strconv.Itoa(views.BacktestMaxMonths) + " months, a whole number."
			return b
		}
		b.months = n
	}
	return b
}

// clip bounds the typed fields before they go back into the page.
func (b *backtest) clip() {
	b.form.Folder = views.Clip(b.form.Folder, 40)
	b.form.Threshold = views.Clip(b.form.Threshold, maxThresholdLen)
	b.form.Months = views.Clip(b.form.Months, 10)
}

// backtestData is what a back-test read from the service.
type backtestData struct {
	hist       upstream.PortfolioScoreHistory
	members    []upstream.PortfolioBusiness
	folders    []upstream.Folder
	ld         *loaded
	histErr    error
	membersErr error
	foldersErr error
}

// loadBacktest reads the score's history over the longest window and, for
// a folder, the memberships; the folders always, for the form.
func (h *Handler) loadBacktest(c *echo.Context, b backtest, replay bool) *backtestData {
	var d backtestData
	now := h.now().UTC()
	pq := upstream.PortfolioQuery{From: time.Date(now.Year(), now.Month()-views.BacktestMaxMonths, 1, 0, 0, 0, 0, time.UTC),
		To: now.Truncate(24 * time.Hour), StartRow: 1, EndRow: views.MovesCompared}
	var secs []section
	if replay {
		secs = append(secs, one("history", func(ctx context.Context, src Source) {
			if b.spec.Score == store.ScoreZ {
				d.hist, d.histErr = src.ZScoreHistory(ctx, pq)
			} else {
				d.hist, d.histErr = src.PayScoreHistory(ctx, pq)
			}
		}))
		if b.spec.Scope == store.ScopeFolder {
			secs = append(secs, one("members", func(ctx context.Context, src Source) { d.members, d.membersErr = src.PortfolioBusinesses(ctx, 0) }))
		}
	}
	secs = append(secs, one("folders", func(ctx context.Context, src Source) { d.folders, d.foldersErr = src.Folders(ctx) }))
	d.ld = h.load(c, secs...)
	return &d
}

// runBacktest reads the query, the service's data and replays; on a
// refusal it has rendered the page and returns done. today is how many alerts
// turning the rule on raises now, by the live check itself
// (alerts.Evaluate on each business's latest scores, as a page that reads
// the portfolio's histories runs it) over the same businesses.
func (h *Handler) runBacktest(c *echo.Context) (b backtest, d *backtestData, r views.Replay, today int, done bool, err error) {
	b = readBacktest(c)
	if b.msg != "" {
		return b, nil, r, 0, true, h.renderBacktest(c, http.StatusUnprocessableEntity, b, h.loadBacktest(c, b, false), nil)
	}
	release, ok := h.backtests.TryAcquire(session.Must(c).User)
	if !ok {
		b.msg = "You have " + strconv.Itoa(backtestsPerAnalyst) + " back-tests running already; try again when one has finished."
		return b, nil, r, 0, true, h.renderBacktest(c, http.StatusTooManyRequests, b, h.loadBacktest(c, b, false), nil)
	}
	defer release()
	if h.backtestHold != nil {
		h.backtestHold()
	}
	d = h.loadBacktest(c, b, true)
	if err := expiredAmong(d.histErr, d.membersErr, d.foldersErr); err != nil {
		return b, d, r, 0, true, err
	}
	if d.histErr != nil || d.membersErr != nil {
		return b, d, r, 0, true, h.renderBacktest(c, http.StatusOK, b, d, nil)
	}
	in := func(int32) bool { return true }
	var of map[int32][]int
	if b.spec.Scope == store.ScopeFolder {
		rf := ruleFolders{folders: d.folders, ld: d.ld, err: d.foldersErr}
		if b.spec.TargetName, b.msg = folderTarget(rf, b.spec.FolderID); b.msg != "" {
			return b, d, r, 0, true, h.renderBacktest(c, http.StatusUnprocessableEntity, b, d, nil)
		}
		of = views.FoldersOf(d.members)
		in = func(id int32) bool { return b.spec.AppliesTo(id, of[id]...) }
	}
	rules := []store.Rule{{RuleSpec: b.spec}}
	today = len(alerts.Evaluate(rules, credit.PortfolioSeries(b.spec.Score, d.hist), of, true))
	return b, d, views.ReplayRule(b.spec, d.hist, in, b.months), today, false, nil
}

// newBacktestForm is the form as first offered, on scope.
func newBacktestForm(scope string) views.BacktestForm {
	return views.BacktestForm{RuleForm: views.RuleForm{Scope: scope,
		Score: string(store.ScorePay), Condition: string(store.Below), Threshold: "5"},
		Months: strconv.Itoa(views.BacktestDefaultMonths)}
}

// showBacktest is /alerts/backtest: the form alone until a score or a
// condition is chosen, on the scope chosen (the whole portfolio if none),
// then the replay. A rule on the team's accounts is refused with why,
// whatever else is given.
func (h *Handler) showBacktest(c *echo.Context) error {
	q := c.QueryParams()
	if scope := q.Get("scope"); scope != string(store.ScopeAccounts) && !q.Has("score") && !q.Has("condition") {
		if scope != string(store.ScopeFolder) {
			scope = string(store.ScopePortfolio)
		}
		b := backtest{form: newBacktestForm(scope)}
		return h.renderBacktest(c, http.StatusOK, b, h.loadBacktest(c, b, false), nil)
	}
	b, d, r, today, done, err := h.runBacktest(c)
	if done || err != nil {
		return err
	}
	v, err := views.NewBacktestView(b.spec, r)
	if err != nil {
		return err
	}
	v.Today = today
	return h.renderBacktest(c, http.StatusOK, b, d, &v)
}

// exportBacktest is /alerts/backtest.csv: "month,alerts", a row per month
// of the window, oldest first.
func (h *Handler) exportBacktest(c *echo.Context) error {
	// A refusal is the page, whose links are the page's, not the file's.
	standFor(c, &url.URL{Path: "/alerts/backtest", RawQuery: c.Request().URL.RawQuery})
	_, _, r, _, done, err := h.runBacktest(c)
	if done || err != nil {
		return err
	}
	rows := views.BacktestCSV(r)
	records := make([][]string, len(rows))
	for i, row := range rows {
		records[i] = []string{row[0], row[1]}
	}
	return h.sendCSV(c, "backtest", []string{"month", "alerts"}, slices.Values(records))
}

// renderBacktest renders the page: the form with what was typed, the
// reason a back-test could not run, or its result.
func (h *Handler) renderBacktest(c *echo.Context, status int, b backtest, d *backtestData, v *views.BacktestView) error {
	b.clip()
	page := views.BacktestPage{Form: b.form, Result: v}
	page.Form.Error = b.msg
	if d.ld != nil {
		if page.Form.FoldersProblem = h.sectionProblem(c, d.foldersErr); page.Form.FoldersProblem == nil {
			page.Form.Folders = views.RuleFolders(d.folders)
		}
		if err := errors.Join(d.histErr, d.membersErr); err != nil {
			page.Problem = h.sectionProblem(c, err)
		}
		if v != nil && d.hist.TotalResults > views.MovesCompared {
			v.Capped = true
		}
	}
	page.Base = h.base(c, d.ld, "Back-test an alert rule", views.NavWorkspace)
	page.Charts = v != nil && v.Window != ""
	return h.render(c, status, templates.Backtest(page))
}
