package handlers

import (
	"net/http"

	"github.com/labstack/echo/v5"
)

// Health is the replica's state as background checks last saw it (see
// internal/health): /readyz answers from it at once and asks no one.
type Health interface {
	// Readiness tells whether the replica should get pages, and why in
	// one public line.
	Readiness() (ready bool, detail string)
}

// alwaysReady is the Health of a handler built without one.
type alwaysReady struct{}

// Readiness is always "ready".
func (alwaysReady) Readiness() (bool, string) { return true, "ready" }

// showHealth answers as long as the process serves requests: liveness only,
// it asks nothing of anyone.
func (h *Handler) showHealth(c *echo.Context) error {
	return c.String(http.StatusOK, "ok\n")
}

// showReady answers whether this replica should get pages: 503 while it
// drains for a shutdown or when its own workspace file is corrupt, 200
// otherwise, saying "degraded" when a dependency every replica shares is
// down (the workspace database, the shared store, the service): failing
// then would drop every replica together, although cached reports,
// portfolio and news still answer. Public and cheap: the last results of
// the background checks.
func (h *Handler) showReady(c *echo.Context) error {
	ready, detail := h.health.Readiness()
	if !ready {
		return c.String(http.StatusServiceUnavailable, detail+"\n")
	}
	return c.String(http.StatusOK, detail+"\n")
}
