package handlers

import (
	"context"
	"errors"
	"net/http"
	"strconv"
	"strings"

	"github.com/labstack/echo/v5"

	"creditdash/internal/middleware"
	"creditdash/internal/session"
	"creditdash/internal/upstream"
	"creditdash/internal/views"
	"creditdash/templates"
)

// Reasons the sign-in page can give for being shown.
const (
	reasonExpired   = "expired"
	reasonSignedOut = "signed-out"
	// Two-factor sign-ins that ended without a session.
	reasonCodeExpired = "code-expired"
	reasonCodeLocked  = "code-locked"
	reasonNoCode      = "no-code"
	reasonCodeGone    = "code-gone"
)

// showLogin renders the sign-in form, or goes straight on when the visitor
// is already signed in.
func (h *Handler) showLogin(c *echo.Context) error {
	next := middleware.SafePath(c.QueryParam("next"))
	if _, ok := session.Of(c); ok {
		return redirect(c, next)
	}
	page := views.LoginPage{Base: h.base(c, nil, "Sign in", views.NavNone), Next: next, Demo: h.demoSignIn(c)}
	// "Send a new code" and a failed second step come back with the user
	// name, so only the password is to be typed again.
	if u := strings.TrimSpace(c.QueryParam("username")); plausibleUser(u) && len(u) <= maxUsernameLen {
		page.Username = u
	}
	switch c.QueryParam("reason") {
	case reasonExpired:
		page.Notice = "Your session expired. Sign in again to continue where you left off."
	case reasonSignedOut:
		page.Notice = "You are signed out."
	case reasonCodeExpired:
		page.Notice = views.NoticeTwoFactorExpired
	case reasonCodeLocked:
		page.Notice = views.NoticeTwoFactorLocked
	case reasonNoCode:
		page.Notice = views.NoticeTwoFactorMissing
	case reasonCodeGone:
		page.Notice = views.NoticeTwoFactorGone
	}
	return h.render(c, http.StatusOK, templates.Login(page))
}

// submitLogin signs in against the service and keeps the service's session
// key in the encrypted cookie, then lands on the page asked for. A failure
// shows the form again with the user name as typed.
func (h *Handler) submitLogin(c *echo.Context) error {
	form := readLoginForm(c)
	page := views.LoginPage{Base: h.base(c, nil, "Sign in", views.NavNone), Username: form.Username, Next: form.Next, Demo: h.demoSignIn(c)}
	if fault := form.validate(); fault != views.LoginOK {
		if len(form.Username) > maxUsernameLen {
			// Only a name no account can have is cleared; a name kept
			// beside a too-long password is typed once.
			page.Username = ""
		}
		page.Error = fault.Message()
		return h.render(c, http.StatusUnprocessableEntity, templates.Login(page))
	}
	rsv := h.reserveAttempt(c, form.Username, true, &page.Error)
	if rsv == nil {
		return h.render(c, http.StatusTooManyRequests, templates.Login(page))
	}
	// The reservation is settled whatever becomes of the request.
	settle := context.WithoutCancel(c.Request().Context())
	cr := upstream.Credentials{User: form.Username, Password: form.Password,
		BrowserKey: h.sessions.BrowserKey(c.Request(), form.Username)}
	res, err := h.svc.SignIn(c.Request().Context(), cr)
	if err != nil {
		status, msg := h.signInFailure(c, err)
		if errors.Is(err, upstream.ErrInvalidCredentials) {
			rsv.Failure(settle)
		} else {
			rsv.Undone(settle)
		}
		h.meter.SignIn(signInResult(err))
		h.log.Info("sign-in failed", "request_id", middleware.RequestID(c), "user", loggedUser(form.Username), "client", c.RealIP(), "err", err)
		page.Error = msg
		return h.render(c, status, templates.Login(page))
	}
	if res.TwoFactorAuthenticationRequired {
		rsv.CodeSent(settle)
		h.meter.SignIn("two_factor")
		return h.startTwoFactor(c, form, res, page)
	}
	sess := session.Session{Key: res.SessionKey, User: res.Username, SignedInAt: h.signInTime(c.Request().Context(), res.Username)}
	if err := h.sessions.Save(c.Response(), c.Request(), sess); err != nil {
		rsv.Undone(settle)
		if errors.Is(err, session.ErrCookieTooLong) {
			page.Error = views.LoginKeyTooLong
			return h.render(c, http.StatusBadGateway, templates.Login(page))
		}
		return err
	}
	// Only a whole sign-in forgets failures: a right password alone must
	// not wipe the wrong codes guessed after it.
	rsv.Succeeded(settle)
	// A two-factor sign-in abandoned earlier in this browser, perhaps by
	// someone else, must not be finished later into a session.
	h.sessions.ClearPending(c.Response())
	h.meter.SignIn("ok")
	h.log.Info("signed in", "request_id", middleware.RequestID(c), "user", sess.User)
	return redirect(c, form.Next)
}

// loginFailure says why sign-in failed, using the service's own words for
// wrong credentials.
// signInResult names a failed sign-in for the operators' count.
func signInResult(err error) string {
	switch {
	case errors.Is(err, upstream.ErrInvalidCredentials):
		return "wrong_credentials"
	case errors.Is(err, upstream.ErrRateLimited):
		return "rate_limited"
	case errors.Is(err, upstream.ErrBadRequest), errors.Is(err, upstream.ErrSessionExpired):
		return "refused"
	}
	return "unavailable"
}

// reserveAttempt reserves an attempt of name with the sign-in throttle
// (internal/session), before the service is asked; code says the attempt
// may send a code. A refusal is nil, with *msg saying until when, and
// Retry-After.
func (h *Handler) reserveAttempt(c *echo.Context, name string, code bool, msg *string) *session.Reservation {
	rsv, why, until := h.throttle.Reserve(c.Request(), name, code)
	if rsv != nil {
		return rsv
	}
	c.Response().Header().Set("Retry-After", strconv.Itoa(int(until.Sub(h.now()).Seconds())+1))
	switch why {
	case session.RefusedPlace:
		*msg = views.SignInThrottledPlace(until)
	case session.RefusedName:
		*msg = views.SignInThrottledName(until)
	default:
		*msg = views.SignInThrottled(why == session.RefusedCodes, until)
	}
	h.meter.SignIn("throttled")
	h.log.Info("sign-in throttled", "request_id", middleware.RequestID(c), "user", loggedUser(name), "client", c.RealIP(), "codes", why == session.RefusedCodes)
	return nil
}

// signInFailure is loginFailure with the time the service gave for a
// refusal: in the message, and as Retry-After.
func (h *Handler) signInFailure(c *echo.Context, err error) (int, string) {
	status, msg := loginFailure(err)
	var ue *upstream.Error
	if errors.As(err, &ue) && errors.Is(err, upstream.ErrRateLimited) && ue.RetryAfter > 0 {
		c.Response().Header().Set("Retry-After", strconv.Itoa(int(ue.RetryAfter.Seconds())))
		msg = views.SignInRefusedUntil(h.now().Add(ue.RetryAfter))
	}
	return status, msg
}

func loginFailure(err error) (int, string) {
	var ue *upstream.Error
	errors.As(err, &ue)
	switch {
	case errors.Is(err, upstream.ErrInvalidCredentials):
		if ue != nil && ue.Message != "" {
			return http.StatusUnauthorized, ue.Message
		}
		return http.StatusUnauthorized, "The user name or password is not correct."
	case errors.Is(err, upstream.ErrTwoFactorRequired):
		return http.StatusUnauthorized, ue.Message
	case errors.Is(err, upstream.ErrRateLimited):
		return http.StatusTooManyRequests, "The credit-risk service is refusing sign-ins for now. Try again later."
	case errors.Is(err, upstream.ErrBadRequest), errors.Is(err, upstream.ErrSessionExpired):
		if ue != nil && ue.Message != "" {
			return http.StatusUnauthorized, ue.Message
		}
		return http.StatusUnauthorized, "The credit-risk service refused the sign-in."
	default:
		return http.StatusBadGateway, "The credit-risk service is not answering. Try again in a moment."
	}
}

// submitLogout forgets the session and returns to the sign-in page.
func (h *Handler) submitLogout(c *echo.Context) error {
	if s, ok := session.Of(c); ok {
		// Every cookie of this user signed in until now stops working, a
		// copy made before this sign-out included.
		if err := h.signOuts.MarkSignedOut(c.Request().Context(), s.User, h.now()); err != nil {
			h.log.Warn("sign-out mark not kept", "request_id", middleware.RequestID(c), "err", err)
		}
		h.log.Info("signed out", "request_id", middleware.RequestID(c), "user", s.User)
	}
	h.sessions.Clear(c.Response(), c.Request())
	// The next person at this browser cannot finish a half-done
	// two-factor sign-in either.
	h.sessions.ClearPending(c.Response())
	return redirect(c, loginURL("", reasonSignedOut))
}

// Demo is what the built-in stand-in tells a first-time visitor; cmd/web
// sets it only when no service is configured, so a real deployment never
// lists accounts or shows a code.
type Demo struct {
	// Accounts are the stand-in's accounts, listed on the sign-in page.
	Accounts []views.DemoAccount
	// Password is every demo account's password.
	Password string
	// Code is the two-factor code the stand-in last "sent" to user: its
	// phone is a log line, which a first visitor does not read.
	Code func(user string) (string, bool)
}

// demoCode is the stand-in's code for user in demo mode, or "".
func (h *Handler) demoCode(user string) string {
	if h.demo == nil || h.demo.Code == nil {
		return ""
	}
	code, _ := h.demo.Code(user)
	return code
}

// demoSignIn is what the sign-in page lists in demo mode, or nil: each
// account with its role in the team in force, so that a first visitor
// knows whom to sign in as to request a limit and whom to decide it.
func (h *Handler) demoSignIn(c *echo.Context) *views.DemoSignIn {
	if h.demo == nil || len(h.demo.Accounts) == 0 {
		return nil
	}
	accounts := make([]views.DemoAccount, len(h.demo.Accounts))
	for i, a := range h.demo.Accounts {
		as := h.rolesNow(c).Of(a.Name)
		a.Team = views.TeamRole(string(as.Role), as.Authority)
		accounts[i] = a
	}
	return &views.DemoSignIn{Accounts: accounts, Password: h.demo.Password}
}
