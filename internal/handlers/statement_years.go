package handlers

import (
	"github.com/labstack/echo/v5"

	"creditdash/internal/upstream"
	"creditdash/internal/views"
)

// recordStatementYear keeps the newest statement year a page received of
// a business for the team, where statements arrive (the financials tab
// and the limit calculator), so a new year brings its accounts' reviews
// forward. A failing store loses only this record, never the page.
func (h *Handler) recordStatementYear(c *echo.Context, ref upstream.BusinessRef, hd *headerData, stmts []upstream.AnnualFinancials) {
	if h.worklists == nil {
		return
	}
	id, _ := reportBusiness(ref, hd)
	year := views.StatementYear(stmts)
	if id == 0 || year == 0 {
		return
	}
	if _, err := h.worklists.RecordStatementYear(h.wsCtx(c), h.analyst(c), id, year, h.now()); err != nil {
		h.logWorkspace(c, "record statement year", err)
	}
}

// statementYears are the newest statement years known of the team's
// businesses; none when the store does not keep them.
func (h *Handler) statementYears(c *echo.Context) (map[int32]int, error) {
	if h.worklists == nil {
		return nil, nil
	}
	return h.worklists.StatementYears(c.Request().Context(), h.analyst(c))
}
