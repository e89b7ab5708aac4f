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
// is public, so it answers from the last check: the service is asked at
// most once every readyEvery, however many ask.
func (h *Handler) showReady(c *echo.Context) error {
	if err := h.readiness.check(h.ready); err != nil {
		return c.String(http.StatusServiceUnavailable, "the credit-risk service is not answering\n")
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

// readiness keeps the last answer of the service's check.
type readiness struct {
	mu     sync.Mutex
	at     time.Time
	err    error
	flight singleflight.Group
	now    func() time.Time
	log    func(err error)
}

// check returns the last result while it is fresh, and otherwise makes one
// check for everyone asking at that moment.
func (r *readiness) check(ready func(context.Context) error) error {
	r.mu.Lock()
	if !r.at.IsZero() && r.now().Sub(r.at) < readyEvery {
		err := r.err
		r.mu.Unlock()
		return err
	}
	r.mu.Unlock()
	v, _, _ := r.flight.Do("ready", func() (any, error) {
		ctx, cancel := context.WithTimeout(context.Background(), readyTimeout)
		defer cancel()
		err := ready(ctx)
		if err != nil {
			r.log(err)
		}
		r.mu.Lock()
		r.at, r.err = r.now(), err
		r.mu.Unlock()
		return err, nil
	})
	err, _ := v.(error)
	return err
}
