package handlers

import (
	"github.com/labstack/echo/v5"

	"creditdash/internal/credit"
	"creditdash/internal/store"
	"creditdash/internal/upstream"
	"creditdash/internal/views"
)

// triage is what a folder's triage table is built from: the latest Pay
// and Z″ of the portfolio histories, the Risk and DBT last seen on
// reports, and the order asked for.
type triage struct {
	pay, z map[int32]credit.Latest
	seen   map[store.SeenKey]store.Seen
	err    error // the histories' failure, if any
	by     views.TriageSort
}

// folderTriage reads what the triage table needs beyond the page's
// sections: the last-seen marks of the folder's members, from the
// workspace. Portfolio scores that arrived check the alert rules, as on
// the watch list, and the header's counts are read again after them. It
// runs only when the folder's page is built.
func (h *Handler) folderTriage(c *echo.Context, ld *loaded, members []upstream.PortfolioBusiness, pay, z upstream.PortfolioScoreHistory, err error) (triage, error) {
	t := triage{err: err, by: views.ReadTriageSort(c.QueryParam("sort"))}
	if err == nil {
		t.pay, t.z = credit.PortfolioLatest(pay), credit.PortfolioLatest(z)
		h.portfolioArrived(c, ld, pay, z)
		ld.arrived()
	}
	ids := idsOf(members, func(m upstream.PortfolioBusiness) int32 { return m.BusinessID })
	seen, serr := h.store.LastSeen(h.wsCtx(c), h.analyst(c), ids)
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
