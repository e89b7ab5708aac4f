package handlers

import (
	"strconv"
	"time"

	"github.com/labstack/echo/v5"
	"github.com/maypok86/otter/v2"

	"creditdash/internal/store"
	"creditdash/internal/upstream"
	"creditdash/internal/views"
)

// triage is what a folder's triage table is built from: the latest Pay
// and Z″ of the portfolio histories, the Risk and DBT last seen on
// reports, and the order asked for.
type triage struct {
	pay, z map[int32]views.Latest
	seen   map[store.SeenKey]store.Seen
	err    error // the histories' failure, if any
	by     views.TriageSort
}

// folderTriage reads what the triage table needs beyond the page's
// sections: the last-seen marks, from the workspace. Portfolio scores
// that arrived check the alert rules, as on the watch list.
func (h *Handler) folderTriage(c *echo.Context, ld *loaded, pay, z upstream.PortfolioScoreHistory, err error) (triage, error) {
	t := triage{err: err, by: views.ReadTriageSort(c.QueryParam("sort"))}
	if err == nil {
		t.pay, t.z = views.PortfolioLatest(pay), views.PortfolioLatest(z)
		h.evaluatePortfolio(c, ld, pay, z)
		h.recordPortfolioScores(c, ld, pay, z) // the team's known scores (issue 26)
	}
	seen, serr := h.ws.LastSeen(h.wsCtx(c), h.analyst(c))
	if serr != nil {
		return t, workspaceError(serr)
	}
	t.seen = seen
	return t, nil
}

// page is the triage table of members, sorted, its headings linking to
// base with each order.
func (t triage) page(members []views.Member, base string) views.Triage {
	missing := "not loaded"
	if t.err == nil {
		missing = "no score in the portfolio history"
	}
	rows := views.TriageRows(members, t.pay, t.z, t.seen, missing, t.by)
	tr := views.Triage{Columns: views.TriageColumns(base, t.by), Sort: t.by}
	if len(rows) > views.MaxFolderBusinesses {
		tr.More = len(rows) - views.MaxFolderBusinesses
		rows = rows[:views.MaxFolderBusinesses]
	}
	tr.Rows = rows
	return tr
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
// the analyst's last-seen marks: they come only with a report, and the
// folder pages and the watch list show them from there without asking
// the service. Pay and Z″ are noted from the portfolio's histories.
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
	readings := views.ReportReadings(id, hist)
	if len(readings) == 0 {
		return
	}
	if err := h.ws.MarkSeen(h.wsCtx(c), a, readings); err != nil {
		h.logWorkspace(c, "mark seen", err)
		return
	}
	h.reportMarks.Set(key, struct{}{})
}
