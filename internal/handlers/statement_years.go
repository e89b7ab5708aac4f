package handlers

import (
	"github.com/labstack/echo/v5"
)

// statementYears are the newest statement years known of the team's
// businesses; none when the store does not keep them.
func (h *Handler) statementYears(c *echo.Context) (map[int32]int, error) {
	if h.worklists == nil {
		return nil, nil
	}
	return h.worklists.StatementYears(c.Request().Context(), h.analyst(c))
}
