package handlers

import (
	"context"
	"net/http"
	"sync"
	"time"

	"github.com/labstack/echo/v5"
	"golang.org/x/sync/singleflight"
)

// showHealth answers as long as the process serves requests: liveness only,
// it asks nothing of anyone.
func (h *Handler) showHealth(c *echo.Context) error {
	return c.String(http.StatusOK, "ok\n")
}

// showReady answers 200 only when the credit-risk service answers too. It
// is public, so it answers from the last check: the service and the
// workspace database are asked at most once every readyEvery, however many
// ask. A failing database leaves the replica ready, as every replica
// shares it and reports work without it, but says so.
func (h *Handler) showReady(c *echo.Context) error {
	service, workspace := h.readiness.check(h.ready, h.ws.Ping)
	if service != nil {
		return c.String(http.StatusServiceUnavailable, "the credit-risk service is not answering\n")
	}
	if workspace != nil {
		return c.String(http.StatusOK, "ready (degraded: the workspace database is not answering; reports still work)\n")
	}
	if h.degraded != nil && h.degraded() != nil {
		// The replica still serves every page, from its own copies.
		return c.String(http.StatusOK, "ready (degraded: the shared store is not answering; this replica works alone)\n")
	}
	return c.String(http.StatusOK, "ready\n")
}

// Readiness checks: how often, and how long one may take.
const (
	readyEvery   = 5 * time.Second
	readyTimeout = 5 * time.Second
)

// readiness keeps the last answers of the service's and the database's
// checks.
type readiness struct {
	mu     sync.Mutex
	at     time.Time
	last   readyResult
	flight singleflight.Group
	now    func() time.Time
	log    func(what string, err error)
}

// readyResult is one round of checks: the service's and the database's.
type readyResult struct{ service, workspace error }

// check returns the last results while they are fresh, and otherwise makes
// one round for everyone asking at that moment, both checks at once so a
// hung database does not use up the service's time.
func (r *readiness) check(service, workspace func(context.Context) error) (serviceErr, workspaceErr error) {
	r.mu.Lock()
	if !r.at.IsZero() && r.now().Sub(r.at) < readyEvery {
		last := r.last
		r.mu.Unlock()
		return last.service, last.workspace
	}
	r.mu.Unlock()
	v, _, _ := r.flight.Do("ready", func() (any, error) {
		ctx, cancel := context.WithTimeout(context.Background(), readyTimeout)
		defer cancel()
		var res readyResult
		var wg sync.WaitGroup
		wg.Go(func() { res.workspace = workspace(ctx) })
		res.service = service(ctx)
		wg.Wait()
		if res.service != nil {
			r.log("the credit-risk service", res.service)
		}
		if res.workspace != nil {
			r.log("the workspace database", res.workspace)
		}
		r.mu.Lock()
		r.at, r.last = r.now(), res
		r.mu.Unlock()
		return res, nil
	})
	res, _ := v.(readyResult)
	return res.service, res.workspace
}
