package middleware

import (
	"context"
	"errors"
	"net/http"
	"sync/atomic"
	"time"

	"github.com/labstack/echo/v5"

	"creditdash/internal/session"
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
	PageTurns        = 48
	PageTurnsPerUser = 6
	// PageTurnWait is the default bound on the wait for a turn; then the
	// page says the dashboard is busy instead of hanging.
	PageTurnWait = 20 * time.Second
)

// BusyRetryAfter is the Retry-After of the busy page, in seconds.
const BusyRetryAfter = "5"

// ErrBusy is a page that waited PageTurnWait for its turn.
var ErrBusy = errors.New("middleware: no turn for the page: the dashboard is busy")

// Turns bounds the pages prepared at once, in all and for each user.
type Turns struct {
	all   chan struct{}
	users *UserSlots
	wait  time.Duration
	// waiting are the pages waiting now; busy those that waited too long.
	waiting atomic.Int64
	busy    atomic.Uint64
}

// NewTurns bounds the pages prepared at once to all, perUser of each
// user, waiting at most wait for a turn.
func NewTurns(all, perUser int, wait time.Duration) *Turns {
	return &Turns{all: make(chan struct{}, all), users: NewUserSlots(perUser), wait: wait}
}

// Take waits for one of user's turns, then for one of all turns, and
// returns the release of both. It gives up with ErrBusy after t.wait, or
// with ctx. A turn that is free is taken at once, without the timer a wait
// needs: most pages never wait. Taking a free turn never overtakes a page
// that waits, as a channel hands a freed place to its oldest waiter.
func (t *Turns) Take(ctx context.Context, user string) (release func(), err error) {
	mine, ok := t.users.TryAcquire(user)
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
		if mine, err = t.users.Acquire(wctx, user); err != nil {
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
func (t *Turns) busyOr(ctx context.Context, err error) error {
	err = busyOr(ctx, err)
	if errors.Is(err, ErrBusy) {
		t.busy.Add(1)
	}
	return err
}

// busyOr is ErrBusy when the wait ran out, and the request's own error
// when the visitor left.
func busyOr(ctx context.Context, err error) error {
	if ctx.Err() != nil {
		return ctx.Err()
	}
	if errors.Is(err, context.DeadlineExceeded) {
		return ErrBusy
	}
	return err
}

// Admit makes a page wait its turn (see PageTurns). Forms are let
// through at once: they are quick, and a busy page must never lose what
// the analyst typed. It runs behind the sign-in guard: turns are the
// signed-in user's.
func (t *Turns) Admit(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c *echo.Context) error {
		r := c.Request()
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			return next(c)
		}
		release, err := t.Take(r.Context(), session.Must(c).User)
		if err != nil {
			return err
		}
		defer release()
		return next(c)
	}
}

// Waiting are the pages waiting for a turn now.
func (t *Turns) Waiting() int64 { return t.waiting.Load() }

// Preparing are the pages holding a turn now.
func (t *Turns) Preparing() int { return len(t.all) }

// Busy are the pages that waited too long and said the dashboard is busy.
func (t *Turns) Busy() uint64 { return t.busy.Load() }
