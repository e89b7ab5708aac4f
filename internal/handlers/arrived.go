package handlers

import (
	"strconv"
	"time"

	"github.com/labstack/echo/v5"
	"github.com/maypok86/otter/v2"

	"creditdash/internal/alerts"
	"creditdash/internal/credit"
	"creditdash/internal/middleware"
	"creditdash/internal/store"
	"creditdash/internal/upstream"
)

// Fresh scores are handed to internal/alerts here, before a page's view
// model is built (views only read): the alert rules (workspace_alerts.go),
// the team's latest known scores, the analyst's last-seen marks and the
// statement years that bring reviews forward. Each is recorded once per
// cached copy of the page, and a failing store loses only the record,
// never the page. A report hands them over only when it builds its page:
// a kept page was built from the same copies, rules and team version, so
// when one is served nothing has arrived.

// reportArrived hands a report's fresh score history over: the rules,
// the team's scores and the last-seen Risk and DBT. Only a frame that
// reaches the latest month is fresh: an older one is history.
func (h *Handler) reportArrived(c *echo.Context, ld *loaded, ref upstream.BusinessRef, hd *headerData, hist []upstream.CreditScoreHistoryRow) {
	h.evaluateReport(c, ld, ref, hd, hist)
	h.recordTeamScores(c, ld, ref, hd, hist)
	h.noteReportScores(c, ld, ref, hd, hist)
	ld.arrived()
}

// portfolioArrived hands the portfolio's fresh Pay and Z″ histories over:
// the rules and the team's known scores.
func (h *Handler) portfolioArrived(c *echo.Context, ld *loaded, pay, z upstream.PortfolioScoreHistory) {
	h.evaluatePortfolio(c, ld, pay, z)
	h.recordPortfolioScores(c, ld, pay, z)
}

// teamMark is a business's score data already recorded for the team from
// these very cached copies.
type teamMark struct {
	team        string
	business    int32
	fingerprint uint64
}

// newTeamMarks bounds the marks like the rules' evaluation marks.
func newTeamMarks() (*otter.Cache[teamMark, struct{}], error) {
	return otter.New(&otter.Options[teamMark, struct{}]{
		MaximumSize:      100_000,
		ExpiryCalculator: otter.ExpiryWriting[teamMark, struct{}](2 * middleware.PageLife),
	})
}

// recordTeamScores keeps a report's latest scores for the team (the
// overview, the limit calculator): once per cached copy. A business found
// linked to no account is not asked about again until the team's version
// moves (an import or a link moves it), so a warm report asks the store
// nothing.
func (h *Handler) recordTeamScores(c *echo.Context, ld *loaded, ref upstream.BusinessRef, hd *headerData, hist []upstream.CreditScoreHistoryRow) {
	id, name := reportBusiness(ref, hd)
	if !h.arrivals.KeepsTeam() || id == 0 {
		return
	}
	mark, fetched, done := h.teamCopy(ld, id)
	if done {
		return
	}
	ts := h.teamOf(c, ld)
	unlinked := latestKey(ts, "unlinked", strconv.Itoa(int(id)))
	if _, ok := h.latestAt(unlinked, ts); ok && ts.keep {
		return
	}
	r := alerts.Report{ID: id, Name: name, History: hist, Fetched: fetched}
	if hd.naicsErr == nil {
		r.NAICS = hd.naics
	}
	kept, err := h.arrivals.TeamScores(h.wsCtx(c), ts.a, r)
	if err != nil {
		h.logWorkspace(c, "record team scores", err)
		return
	}
	switch {
	case kept:
		h.markTeamCopy(ld, mark)
	case ts.keep && (len(r.History) > 0 || len(r.NAICS) > 0):
		// Nothing was kept because no account links to it (an empty
		// report says nothing of links).
		h.keepLatest(unlinked, ts, true, 0)
	}
}

// recordPortfolioScores keeps the latest Pay and Z″ of the portfolio
// histories a page received (home, folder, watch list, scores) as the
// team's known scores, as a report keeps its four: once per cached copy.
// Either history may be empty.
func (h *Handler) recordPortfolioScores(c *echo.Context, ld *loaded, pay, z upstream.PortfolioScoreHistory) {
	if !h.arrivals.KeepsPortfolio() || ld == nil {
		return
	}
	// Business 0 marks the portfolio's copies, apart from any report's.
	mark, fetched, done := h.teamCopy(ld, 0)
	if done {
		return
	}
	if err := h.arrivals.PortfolioScores(h.wsCtx(c), h.analyst(c), pay, z, fetched); err != nil {
		h.logWorkspace(c, "record portfolio scores", err)
		return
	}
	h.markTeamCopy(ld, mark)
}

// teamCopy is the mark of the page's cached copies of business (0: the
// portfolio's), the time they were fetched, and whether they were already
// recorded for the team.
func (h *Handler) teamCopy(ld *loaded, business int32) (mark teamMark, fetched time.Time, done bool) {
	rep := ld.rd.Report()
	mark = teamMark{team: h.service, business: business, fingerprint: rep.Fingerprint}
	if rep.Fingerprint != 0 {
		if _, ok := h.teamMarks.GetIfPresent(mark); ok {
			return mark, time.Time{}, true
		}
	}
	fetched = rep.FetchedAt
	if fetched.IsZero() {
		fetched = h.now()
	}
	return mark, fetched, false
}

// markTeamCopy remembers that the page's copies were recorded; copies
// with a failed call are recorded again next time.
func (h *Handler) markTeamCopy(ld *loaded, mark teamMark) {
	if rep := ld.rd.Report(); rep.Fingerprint != 0 && rep.Failed == 0 {
		h.teamMarks.Set(mark, struct{}{})
	}
}

// reportMarks remembers which reports' scores were noted, so a report
// viewed again from the same copies writes nothing. Bounded.
type reportMarks = otter.Cache[string, struct{}]

func newReportMarks() *reportMarks {
	return otter.Must(&otter.Options[string, struct{}]{
		MaximumSize:      maxFeatureMarks,
		ExpiryCalculator: otter.ExpiryWriting[string, struct{}](time.Hour),
	})
}

// noteReportScores remembers the latest Risk and DBT a report showed as
// the analyst's last-seen marks, once per cached copy. Pay and Z″ are
// noted from the portfolio's histories (changedSince).
func (h *Handler) noteReportScores(c *echo.Context, ld *loaded, ref upstream.BusinessRef, hd *headerData, hist []upstream.CreditScoreHistoryRow) {
	id, _ := reportBusiness(ref, hd)
	rep := ld.rd.Report()
	if id == 0 || rep.Fingerprint == 0 || rep.Failed > 0 {
		return
	}
	a := h.analyst(c)
	key := a.Service + "\x00" + a.User + "\x00" + strconv.FormatInt(int64(id), 10) + "\x00" + strconv.FormatUint(rep.Fingerprint, 16)
	if _, ok := h.reportMarks.GetIfPresent(key); ok {
		return
	}
	noted, err := h.arrivals.ReportSeen(h.wsCtx(c), a, id, hist)
	if err != nil {
		h.logWorkspace(c, "mark seen", err)
		return
	}
	if noted {
		h.reportMarks.Set(key, struct{}{})
	}
}

// recordStatementYear keeps the newest statement year a page received of
// a business for the team, where statements arrive (the financials tab
// and the limit calculator), so a new year brings its accounts' reviews
// forward.
func (h *Handler) recordStatementYear(c *echo.Context, ref upstream.BusinessRef, hd *headerData, stmts []upstream.AnnualFinancials) {
	id, _ := reportBusiness(ref, hd)
	if err := h.arrivals.Statements(h.wsCtx(c), h.analyst(c), id, stmts, h.now()); err != nil {
		h.logWorkspace(c, "record statement year", err)
	}
}

// seenArrived remembers the portfolio's latest Pay and Z″ as the
// analyst's last-seen marks, against the marks the page read.
func (h *Handler) seenArrived(c *echo.Context, seen map[store.SeenKey]store.Seen, pay, z map[int32]credit.Latest) {
	if err := h.arrivals.PortfolioSeen(h.wsCtx(c), h.analyst(c), seen, pay, z); err != nil {
		h.logWorkspace(c, "mark seen", err)
	}
}

// arrived marks that what a page handed over may have moved the header's
// counts (an alert that fired) and the team's version (scores the team did
// not know): the page reads them again for its header and its key.
func (ld *loaded) arrived() { ld.counts, ld.team = nil, nil }
