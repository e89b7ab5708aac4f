package handlers

import (
	"context"
	"net/url"

	"github.com/labstack/echo/v5"

	"creditdash/internal/store"
)

// request is the one value Echo's per-request store holds: the signed-in
// session and what the request learned on its way, each a typed field
// behind its accessor (sessionOf, csrfToken, pageURL, wsCtx, glance,
// waitingForMe). What a page shows is not here: drafts and page state are
// arguments (noteDraft, loaded.state).
type request struct {
	session  Session
	signedIn bool
	// csrf is the token this request's forms carry.
	csrf string
	// page is the page a form's answer stands for (showAt, showWithout);
	// nil for the request's own address.
	page *url.URL
	// ws is the context the page's workspace reads share (wsCtx).
	ws context.Context
	// glance and waiting are the header's workspace state, read once.
	glance  *store.Glance
	waiting *int
	// category is the team's supplier category as this request read it
	// (ownCategory).
	category *string
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
