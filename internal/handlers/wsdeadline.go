package handlers

import (
	"context"
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
// with one deadline set at the first read.
func (h *Handler) wsCtx(c *echo.Context) context.Context {
	st := stateOf(c)
	if st.ws != nil {
		return st.ws
	}
	parent := c.Request().Context()
	ctx, cancel := context.WithTimeout(parent, h.wsDeadline)
	// Released with the request at the latest.
	context.AfterFunc(parent, cancel)
	st.ws = ctx
	return ctx
}
