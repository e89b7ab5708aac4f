package handlers

import (
	"context"
	"net/url"

	"github.com/labstack/echo/v5"
)

// request is the handlers' value in Echo's per-request store (the session
// keeps its own, see internal/session): what derives from the request
// itself, each a typed field behind its accessor (pageURL, wsCtx). What a page
// shows is not here: drafts, the header's counts, the team's supplier
// category and other page state are arguments or the page's own values
// (noteDraft, loaded.counts, loaded.state, paymentsLoad.own).
type request struct {
	// page is the address a form's answer stands for (showAt,
	// showWithout); nil for the request's own address. It stays here
	// because the error handler, which receives only the context and the
	// error, links its retry to it (pageurl.go).
	page *url.URL
	// ws is the context the request's workspace reads share (wsCtx): one
	// deadline for the whole request, like the request's own context,
	// which every store read already takes from here.
	ws context.Context
}

// ctxRequest is the key of the request's state in Echo's store.
const ctxRequest = "request"

// stateOf is the request's state, made on first use.
func stateOf(c *echo.Context) *request {
	if r, ok := c.Get(ctxRequest).(*request); ok {
		return r
	}
	r := &request{}
	c.Set(ctxRequest, r)
	return r
}
