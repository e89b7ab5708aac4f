package handlers

import (
	"context"
	"net/http"
	"time"

	"github.com/labstack/echo/v5"
)

// showHealth answers as long as the process serves requests.
func (h *Handler) showHealth(c *echo.Context) error {
	return c.String(http.StatusOK, "ok\n")
}

// showReady answers 200 only when the credit-risk service answers too.
func (h *Handler) showReady(c *echo.Context) error {
	ctx, cancel := context.WithTimeout(c.Request().Context(), 5*time.Second)
	defer cancel()
	if err := h.ready(ctx); err != nil {
		h.log.Warn("not ready", "err", err)
		return c.String(http.StatusServiceUnavailable, "the credit-risk service is not answering\n")
	}
	return c.String(http.StatusOK, "ready\n")
}
