package handlers

import (
	"context"
	"errors"
	"net/http"
	"sync/atomic"
	"time"

	"github.com/labstack/echo/v5"
)

// Pages take turns. While it is prepared, a page holds its decoded answers,
// its rendering and a compressor; a crowd of pages prepared at once fills
// the memory the collector needs under the soft limit, and then every page
// costs more CPU and the slowest wait longest. Under 200 analysts on 2
// cores (make loadtest, 30 s runs), 48 turns served 850 pages a second
// with a p99 of 0.36 s, against 540 and 1.36 s without turns; 32 turns
// left the processors idle, and 96 served 770.
// A user holds at most six turns, as many as the connections a browser
// opens to one host: an analyst's own browser never waits on its turns,
// while a crowd of one user's scripts waits on its own and cannot take
// everyone's.
const (
	pageTurns        = 48
	pageTurnsPerUser = 6
	// pageTurnWait is the default bound on the wait for a turn; then the
	// page says the dashboard is busy instead of hanging.
	pageTurnWait = 20 * time.Second
)

// busyRetryAfter is the Retry-After of the busy page, in seconds.
const busyRetryAfter = "5"

// errBusy is a page that waited pageTurnWait for its turn.
var errBusy = errors.New("handlers: no turn for the page: the dashboard is busy")

// turns bounds the pages prepared at once, in all and for each user.
type turns struct {
	all   chan struct{}
	users *userSlots
	wait  time.Duration
	// waiting are the pages waiting now; busy those that waited too long.
	waiting atomic.Int64
	busy    atomic.Uint64
}

func newTurns(all, perUser int, wait time.Duration) *turns {
	return &turns{all: make(chan struct{}, all), users: newUserSlots(perUser), wait: wait}
}

// take waits for one of user's turns, then for one of all turns, and
// returns the release of both. It gives up with errBusy after t.wait, or
// with ctx. A turn that is free is taken at once, without the timer a wait
// needs: most pages never wait. Taking a free turn never overtakes a page
// that waits, as a channel hands a freed place to its oldest waiter.
func (t *turns) take(ctx context.Context, user string) (release func(), err error) {
	mine, ok := t.users.tryAcquire(user)
	if ok {
		select {
		case t.all <- struct{}{}:
			return func() { <-t.all; mine() }, nil
		default:
		}
	}
	// Only a page that has to wait is counted as waiting and timed.
	t.waiting.Add(1)
	defer t.waiting.Add(-1)
	wctx, cancel := context.WithTimeout(ctx, t.wait)
	defer cancel()
	if !ok {
		if mine, err = t.users.acquire(wctx, user); err != nil {
			return nil, t.busyOr(ctx, err)
		}
	}
	select {
	case t.all <- struct{}{}:
		return func() { <-t.all; mine() }, nil
	case <-wctx.Done():
		mine()
		return nil, t.busyOr(ctx, wctx.Err())
	}
}

// busyOr is busyOr, counting the busy refusals.
func (t *turns) busyOr(ctx context.Context, err error) error {
	err = busyOr(ctx, err)
	if errors.Is(err, errBusy) {
		t.busy.Add(1)
	}
	return err
}

// busyOr is errBusy when the wait ran out, and the request's own error
// when the visitor left.
func busyOr(ctx context.Context, err error) error {
	if ctx.Err() != nil {
		return ctx.Err()
	}
	if errors.Is(err, context.DeadlineExceeded) {
		return errBusy
	}
	return err
}

// admitPages makes a page wait its turn (see pageTurns). Forms are let
// through at once: they are quick, and a busy page must never lose what
// the analyst typed.
func (h *Handler) admitPages(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c *echo.Context) error {
		r := c.Request()
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			return next(c)
		}
		release, err := h.turns.take(r.Context(), mustSession(c).User)
		if err != nil {
			return err
		}
		defer release()
		return next(c)
	}
}
