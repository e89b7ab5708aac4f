package handlers

import (
	"context"
	"sync"
	"time"

	"github.com/labstack/echo/v5"
)

// A page reads the workspace several times (unread alerts, the watch
// state, notes, rules, last-seen marks), and each read is bounded by the
// store. A database that stops answering would then cost each of them the
// whole bound in turn: 15–20 s for a report. Instead a page's workspace
// reads share one deadline, counted from the first: past it every further
// read fails at once, its section shows its problem, and the page renders
// with the service's data all the same. Form writes keep the store's own
// bound: a note being saved deserves its full chance.

// defaultWorkspaceDeadline is a page's time for all its workspace reads.
const defaultWorkspaceDeadline = 1500 * time.Millisecond

// wsCtx is the context a page's workspace reads share: the request's,
// with one deadline set at the first read. A page whose reads are all
// answered in process (the team's version, the counts it keeps) asks for
// the context but never starts its timer: that was a twentieth of a kept
// page's time.
func (h *Handler) wsCtx(c *echo.Context) context.Context {
	st := stateOf(c)
	if st.ws == nil {
		st.ws = &firstReadDeadline{parent: c.Request().Context(), d: h.wsDeadline}
	}
	return st.ws
}

// firstReadDeadline is parent with a deadline d from the first time a
// read asks for it: its Done, Deadline, Err or a value (deriving a
// context asks for Done and a value, so a derived one is cancelled with
// it as with any context of the package's own).
type firstReadDeadline struct {
	parent context.Context
	d      time.Duration
	once   sync.Once
	ctx    context.Context
}

func (f *firstReadDeadline) started() context.Context {
	f.once.Do(func() {
		ctx, cancel := context.WithTimeout(f.parent, f.d)
		// Released with the request at the latest.
		context.AfterFunc(f.parent, cancel)
		f.ctx = ctx
	})
	return f.ctx
}

// Deadline is the deadline, set now if no read has set it yet.
func (f *firstReadDeadline) Deadline() (time.Time, bool) { return f.started().Deadline() }

// Done is closed at the deadline or when the request ends.
func (f *firstReadDeadline) Done() <-chan struct{} { return f.started().Done() }

// Err says why Done is closed.
func (f *firstReadDeadline) Err() error { return f.started().Err() }

// Value is the request's value for key.
func (f *firstReadDeadline) Value(key any) any { return f.started().Value(key) }
