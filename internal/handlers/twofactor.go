package handlers

import (
	"cmp"
	"context"
	"errors"
	"net/http"

	"github.com/labstack/echo/v5"

	"creditdash/internal/middleware"
	"creditdash/internal/session"
	"creditdash/internal/upstream"
	"creditdash/internal/views"
	"creditdash/templates"
)

// Two-factor sign-in: POST /login meets an account that wants a code and
// keeps the service's pending key in the pending cookie (see internal/session),
// never in a session; /login/verify takes the code. Codes, pending keys and
// browser keys stay out of logs, URLs and pages: the log lines below name
// the user and the outcome only.

// startTwoFactor keeps a pending sign-in and sends the analyst to the code
// form.
func (h *Handler) startTwoFactor(c *echo.Context, form loginForm, res upstream.LoginResult, page views.LoginPage) error {
	p := session.Pending{Key: res.SessionKey, User: form.Username, Next: form.Next, Since: h.now()}
	if err := h.sessions.SavePending(c.Response(), p, h.now()); err != nil {
		if errors.Is(err, session.ErrCookieTooLong) {
			page.Error = views.LoginKeyTooLong
			return h.render(c, http.StatusBadGateway, templates.Login(page))
		}
		return err
	}
	h.log.Info("sign-in waits for a two-factor code", "request_id", middleware.RequestID(c), "user", loggedUser(form.Username))
	return redirect(c, "/login/verify")
}

// showVerify renders the code form for the pending sign-in.
func (h *Handler) showVerify(c *echo.Context) error {
	p, state := h.loadPending(c)
	switch state {
	case session.PendingNone:
		if _, signedIn := session.Of(c); signedIn {
			return redirect(c, "/")
		}
		return redirect(c, loginURL("", reasonNoCode))
	case session.PendingExpired:
		return h.pendingExpired(c, p)
	}
	return h.render(c, http.StatusOK, templates.LoginVerify(h.verifyPage(c, p, false)))
}

// submitVerify sends the code. A right one signs in as submitLogin does
// and continues to the page first asked for; a wrong one asks again while
// attempts remain; a locked or expired sign-in starts over at /login.
func (h *Handler) submitVerify(c *echo.Context) error {
	p, state := h.loadPending(c)
	switch state {
	case session.PendingNone:
		return redirect(c, loginURL("", reasonNoCode))
	case session.PendingExpired:
		return h.pendingExpired(c, p)
	}
	form := readVerifyForm(c)
	page := h.verifyPage(c, p, form.Remember)
	if fault := form.validate(); fault != views.VerifyOK {
		page.Error = fault.Message()
		return h.render(c, http.StatusUnprocessableEntity, templates.LoginVerify(page))
	}
	rid := middleware.RequestID(c)
	rsv := h.reserveAttempt(c, p.User, false, &page.Error)
	if rsv == nil {
		return h.render(c, http.StatusTooManyRequests, templates.LoginVerify(page))
	}
	settle := context.WithoutCancel(c.Request().Context())
	res, err := h.svc.TwoFactorKey(c.Request().Context(), p.Key, form.Code)
	var ue *upstream.Error
	errors.As(err, &ue)
	switch {
	case err == nil && res.TwoFactorAuthenticationRequired:
		// The service answered as Login does when it sends a code: the
		// sign-in goes on with the key it gave, and a new code.
		rsv.Undone(settle)
		h.throttle.CodeResent(c.Request(), p.User)
		p = session.Pending{Key: cmp.Or(res.SessionKey, p.Key), User: p.User, Next: p.Next, Since: h.now()}
		if err := h.sessions.SavePending(c.Response(), p, h.now()); err != nil {
			return err
		}
		h.log.Info("two-factor code asked again", "request_id", rid, "user", loggedUser(p.User))
		page.Error = views.VerifyCodeResent
		return h.render(c, http.StatusUnprocessableEntity, templates.LoginVerify(page))
	case err == nil:
	case errors.Is(err, upstream.ErrTwoFactorCode):
		rsv.Failure(settle)
		p.Wrong++
		if err := h.sessions.SavePending(c.Response(), p, h.now()); err != nil {
			return err
		}
		h.log.Info("two-factor code wrong", "request_id", rid, "user", loggedUser(p.User), "wrong", p.Wrong)
		// The service's own sentence says how many attempts it has left;
		// a count of ours would drift when two codes cross.
		page.Error = views.VerifyWrongCode(ue.Message)
		return h.render(c, http.StatusUnprocessableEntity, templates.LoginVerify(page))
	case errors.Is(err, upstream.ErrTwoFactorLocked), errors.Is(err, upstream.ErrTwoFactorExpired), errors.Is(err, upstream.ErrBadRequest):
		// The service will not take a code for this key any more: only a
		// new sign-in helps, so the form would be a dead end.
		reason := endedReason(err, ue)
		rsv.Undone(settle)
		h.sessions.ClearPending(c.Response())
		h.log.Info("two-factor sign-in ended", "request_id", rid, "user", loggedUser(p.User), "reason", reason)
		return redirect(c, views.LoginAgainURL(shownUser(p.User), p.Next, reason))
	default:
		// The service failed: the pending sign-in may still be good, so the
		// form stays.
		rsv.Undone(settle)
		status, msg := h.signInFailure(c, err)
		h.log.Info("two-factor sign-in failed", "request_id", rid, "user", loggedUser(p.User), "err", err)
		page.Error = msg
		return h.render(c, status, templates.LoginVerify(page))
	}
	user := res.Username
	if user == "" {
		user = p.User
	}
	sess := session.Session{Key: res.SessionKey, User: user, SignedInAt: h.signInTime(c.Request().Context(), user)}
	if err := h.sessions.Save(c.Response(), c.Request(), sess); err != nil {
		rsv.Undone(settle)
		if errors.Is(err, session.ErrCookieTooLong) {
			page.Error = views.LoginKeyTooLong
			return h.render(c, http.StatusBadGateway, templates.LoginVerify(page))
		}
		return err
	}
	h.sessions.ClearPending(c.Response())
	rsv.Succeeded(settle)
	if form.Remember && res.BrowserKey != "" {
		// Bound to the name as typed at sign-in, which is what the next
		// sign-in compares it with.
		if err := h.sessions.SaveBrowserKey(c.Response(), p.User, res.BrowserKey); err != nil {
			h.log.Warn("browser not remembered", "request_id", rid, "user", loggedUser(p.User), "err", err)
		}
	}
	h.log.Info("signed in", "request_id", rid, "user", loggedUser(sess.User), "two_factor", true)
	return redirect(c, middleware.SafePath(p.Next))
}

// session.PendingExpired ends a pending sign-in past its deadline and sends the
// analyst to sign in again, with the name and the page it was going to.
func (h *Handler) pendingExpired(c *echo.Context, p session.Pending) error {
	h.sessions.ClearPending(c.Response())
	return redirect(c, views.LoginAgainURL(shownUser(p.User), p.Next, reasonCodeExpired))
}

// endedReason names why the service ended a pending sign-in, for the
// notice on the sign-in form.
func endedReason(err error, ue *upstream.Error) string {
	switch {
	case errors.Is(err, upstream.ErrTwoFactorLocked):
		return reasonCodeLocked
	case ue != nil && ue.Code == upstream.CodeSessionExpired:
		return reasonCodeExpired
	}
	// Finished already (a code sent twice, or an answer lost on the way),
	// or refused for a reason of the service's.
	return reasonCodeGone
}

// verifyPage builds the code form's page for the pending sign-in p.
func (h *Handler) verifyPage(c *echo.Context, p session.Pending, remember bool) views.VerifyPage {
	return views.VerifyPage{
		Base:      h.base(c, nil, "Enter your sign-in code", views.NavNone),
		Username:  p.User,
		Until:     p.Since.Add(upstream.TwoFactorPendingLifetime),
		Remember:  remember,
		ResendURL: views.LoginAgainURL(shownUser(p.User), p.Next, ""),
		DemoCode:  h.demoCode(p.User),
	}
}

// loggedUser is name when it may be logged (see plausibleUser), and a
// redacted form of a name that looks like a password: people type their
// password into the user-name field, and "P@ssw0rd2026" is a plausible
// name by its characters.
func loggedUser(name string) string {
	switch {
	case !plausibleUser(name):
		return "(not a plausible user name)"
	case middleware.PasswordLike(name):
		return middleware.RedactedName(name)
	}
	return name
}

// shownUser is name when it may travel in a URL back to the sign-in form.
func shownUser(name string) string {
	if plausibleUser(name) {
		return name
	}
	return ""
}

// loadPending reads the browser's pending sign-in; its return path is made
// safe here, as the browser kept it.
func (h *Handler) loadPending(c *echo.Context) (session.Pending, session.PendingState) {
	p, state := h.sessions.LoadPending(c.Request(), h.now())
	if state != session.PendingNone {
		p.Next = middleware.SafePath(p.Next)
	}
	return p, state
}
