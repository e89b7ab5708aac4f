package handlers

import (
	"context"

	"github.com/labstack/echo/v5"

	"creditdash/internal/store"
	"creditdash/internal/upstream"
	"creditdash/internal/views"
)

// KnownScoresRecorder keeps many businesses' latest scores for the team at
// once (store.RecordKnownScores), for those an account is linked to.
type KnownScoresRecorder interface {
	RecordKnownScores(ctx context.Context, a store.Analyst, obs []store.Observation) (int, error)
}

// recordPortfolioScores keeps the latest Pay and Z″ of the portfolio
// histories a page received (home, folder, watch list, scores) as the
// team's known scores, as a report keeps its four: once per cached copy,
// so a warm page costs no query. Either history may be empty. A failing
// store loses only this record, never the page.
func (h *Handler) recordPortfolioScores(c *echo.Context, ld *loaded, pay, z upstream.PortfolioScoreHistory) {
	rec, ok := h.accts.(KnownScoresRecorder)
	if !ok || ld == nil {
		return
	}
	// Business 0 marks the portfolio's copies, apart from any report's.
	mark, fetched, done := h.teamCopy(ld, 0)
	if done {
		return
	}
	obs := views.PortfolioObservations(pay, z, fetched)
	if len(obs) == 0 {
		return
	}
	if _, err := rec.RecordKnownScores(h.wsCtx(c), h.analyst(c), obs); err != nil {
		h.logWorkspace(c, "record portfolio scores", err)
		return
	}
	h.markTeamCopy(ld, mark)
}
