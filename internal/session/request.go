package session

import (
	"context"
	"fmt"

	"github.com/labstack/echo/v5"
)

// request is what this package keeps on a request, in Echo's per-request
// store: the signed-in session, if any, and the token its forms carry.
type request struct {
	session  Session
	signedIn bool
	// csrf is the token this request's forms carry, derived from the
	// session (kept with it, see memo.go) or, on the sign-in pages, from
	// the sign-in cookie.
	csrf string
	// tooManyParts says ReadUpload met a form of more parts than the
	// standard parser reads: the CSRF check answers it 422.
	tooManyParts bool
}

// ctxRequest is the key of the request's session in Echo's store.
const ctxRequest = "session"

// stateOf is the request's session state, made on first use.
func stateOf(c *echo.Context) *request {
	if r, ok := c.Get(ctxRequest).(*request); ok {
		return r
	}
	r := &request{}
	c.Set(ctxRequest, r)
	return r
}

// Of returns the request's signed-in session, if any.
func Of(c *echo.Context) (Session, bool) {
	if r, ok := c.Get(ctxRequest).(*request); ok && r.signedIn {
		return r.session, true
	}
	return Session{}, false
}

// Must is the session of a request behind a sign-in guard; it panics
// without one, a routing mistake.
func Must(c *echo.Context) Session {
	s, ok := Of(c)
	if !ok {
		panic(fmt.Sprintf("session: %s reached without a session", c.Request().URL.Path))
	}
	return s
}

// Token is the CSRF token this request's forms carry.
func Token(c *echo.Context) string {
	if r, ok := c.Get(ctxRequest).(*request); ok {
		return r.csrf
	}
	return ""
}

// Load reads the cookie once per request (a browser's cookie just decoded
// is kept a moment, see memo.go); a broken cookie is no session, and
// neither is one signed in before its user last signed out.
func Load(memo *Memo, signOuts SignOuts) echo.MiddlewareFunc {
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c *echo.Context) error {
			if s, token, ok := memo.Load(c.Request()); ok && !Revoked(c.Request().Context(), signOuts, s) {
				st := stateOf(c)
				st.session, st.signedIn, st.csrf = s, true, token
			}
			return next(c)
		}
	}
}

// Revoked reports a session signed in before its user's last sign-out.
func Revoked(ctx context.Context, signOuts SignOuts, s Session) bool {
	at, ok := signOuts.SignedOut(ctx, s.User)
	return ok && !s.SignedInAt.After(at)
}

// SignOut ends the request's session: the cookie expires in the browser,
// and the rest of the request (its error page, its log line) sees no one
// signed in.
func (s *Store) SignOut(c *echo.Context) {
	s.Clear(c.Response(), c.Request())
	if r, ok := c.Get(ctxRequest).(*request); ok {
		*r = request{}
	}
}
