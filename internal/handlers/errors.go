package handlers

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v5"

	"creditdash/internal/api"
	"creditdash/internal/middleware"
	"creditdash/internal/upstream"
	"creditdash/internal/upstream/cache"
	"creditdash/internal/views"
	"creditdash/templates"
)

// inputError is bad input from the user: a 400 with a message they can act on.
type inputError struct{ msg string }

func (e *inputError) Error() string { return "handlers: bad input: " + e.msg }

// badInput reports input the user must correct.
func badInput(format string, args ...any) error {
	return &inputError{msg: fmt.Sprintf(format, args...)}
}

// shownProblem is a problem a handler words itself, for a case the table
// below cannot tell apart from another.
type shownProblem struct {
	problem views.Problem
	err     error
}

func (e *shownProblem) Error() string { return e.err.Error() }
func (e *shownProblem) Unwrap() error { return e.err }

// classify maps any error to what a user sees: the one table from errors to
// statuses and messages, used for whole pages and for page sections alike.
func classify(err error, now time.Time) views.Problem {
	var in *inputError
	var ue *upstream.Error
	var he *echo.HTTPError
	var sp *shownProblem
	errors.As(err, &ue)
	switch {
	case errors.As(err, &sp):
		return sp.problem
	case errors.As(err, &in):
		return views.Problem{Status: http.StatusBadRequest, Title: "That request cannot be read", Message: in.msg}
	case errors.Is(err, errWorkspaceDown):
		return views.Problem{Status: http.StatusServiceUnavailable, Title: "Your workspace cannot be reached",
			Message: "Your watch list, notes, alerts and dated copies are kept in a database that is not answering just now. Reports, the portfolio and news still work. Try again in a moment.", Retry: true}
	case errors.Is(err, middleware.ErrBusy):
		return views.Problem{Status: http.StatusServiceUnavailable, Title: "The dashboard is busy",
			Message: "Many pages are being prepared at once, and this one waited too long for its turn. Try again in a moment.", Retry: true}
	case errors.Is(err, upstream.ErrInvalidReference):
		return views.Problem{Status: http.StatusBadRequest, Title: "That is not a business identifier",
			Message: "Business ids are whole numbers; customer and supplier ids are short codes without spaces."}
	case errors.Is(err, upstream.ErrSessionExpired):
		return views.Problem{Status: http.StatusForbidden, Title: "Your session expired", SignIn: true,
			Message: "The credit-risk service ended your session. Sign in again to continue."}
	case errors.Is(err, upstream.ErrNotFound):
		return views.Problem{Status: http.StatusNotFound, Title: "Not found",
			Message: "The credit-risk service has no such business or folder."}
	case errors.Is(err, upstream.ErrRateLimited):
		p := views.Problem{Status: http.StatusTooManyRequests, Title: "Hourly request limit reached",
			Message: "Your account has used all of its requests to the credit-risk service for this hour.", Retry: true}
		if ue != nil && ue.RetryAfter > 0 {
			p.RenewsAt = now.Add(ue.RetryAfter)
		}
		return p
	case ue != nil && ue.Code == upstream.CodeTradeProviderNotSelected:
		return views.Problem{Status: http.StatusConflict, Title: "Choose a trade provider first",
			Message:   "Your account has more than one trade provider, so the service needs to know which one your customer ids belong to.",
			ActionURL: "/settings/trade-provider", ActionText: "Choose a trade provider"}
	case errors.Is(err, upstream.ErrBadRequest):
		msg := "The credit-risk service refused the request."
		if ue != nil && ue.Message != "" {
			msg = ue.Message
		}
		return views.Problem{Status: http.StatusBadRequest, Title: "The service refused the request", Message: msg,
			Code: codeOf(ue)}
	case errors.Is(err, upstream.ErrUnavailable), errors.Is(err, upstream.ErrMalformed):
		return views.Problem{Status: http.StatusBadGateway, Title: "The credit-risk service is not answering",
			Message: "The service failed or took too long to answer. Try again in a moment.", Retry: true}
	case errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded):
		return views.Problem{Status: http.StatusBadGateway, Title: "The page took too long",
			Message: "The credit-risk service took too long to answer. Try again in a moment.", Retry: true}
	case errors.As(err, &he):
		return httpProblem(he.Code, he.Message)
	}
	if code := echo.StatusCode(err); code != 0 {
		return httpProblem(code, "")
	}
	return views.Problem{Status: http.StatusInternalServerError, Title: "Something went wrong on our side",
		Message: "The dashboard failed to show this page. The error has been logged.", Retry: true}
}

func codeOf(ue *upstream.Error) string {
	if ue == nil {
		return ""
	}
	return ue.Code
}

// httpProblem describes the router's own errors (unknown page, wrong method,
// refused form).
func httpProblem(status int, detail string) views.Problem {
	switch status {
	case http.StatusNotFound:
		return views.Problem{Status: status, Title: "Page not found", Message: "There is no page at this address."}
	case http.StatusMethodNotAllowed:
		return views.Problem{Status: status, Title: "Not allowed", Message: "This page does not accept that kind of request."}
	case http.StatusRequestEntityTooLarge, http.StatusRequestHeaderFieldsTooLarge:
		msg := "The request is larger than any page of the dashboard sends. Go back and try again with less."
		if strings.HasPrefix(detail, "The file is over") {
			msg = detail + " Go back and choose a smaller file, or split it." // a ledger import
		}
		return views.Problem{Status: status, Title: "Request too large", Message: msg}
	case http.StatusForbidden:
		return views.Problem{Status: status, Title: "The form expired",
			Message: "The form was sent without a valid security token. Go back, reload the page and send it again."}
	}
	if status >= 500 {
		return views.Problem{Status: status, Title: "Something went wrong on our side",
			Message: "The dashboard failed to show this page.", Retry: true}
	}
	msg := "The request could not be read."
	if detail != "" && status == http.StatusBadRequest {
		msg = detail
	}
	return views.Problem{Status: status, Title: http.StatusText(status), Message: msg}
}

// handleError is the one place errors become pages. A refused session goes
// back to sign-in; everything else is rendered with its status, the session
// untouched.
func (h *Handler) handleError(c *echo.Context, err error) {
	if r, _ := echo.UnwrapResponse(c.Response()); r != nil && r.Committed {
		h.log.Warn("error after the response started", "request_id", middleware.RequestID(c), "err", err)
		return
	}
	if api.Owns(c.Request().URL.Path) {
		api.WriteError(c, h.log, err)
		return
	}
	p := classify(err, h.now())
	h.inTradeTerms(c, &p, err)
	h.logProblem(c, p, err)
	if p.SignIn {
		h.sessions.SignOut(c)
		_ = c.Redirect(http.StatusSeeOther, loginURL(returnPath(c.Request()), reasonExpired))
		return
	}
	h.setRetryAfter(c, p)
	if c.Request().Method == http.MethodHead {
		_ = c.NoContent(p.Status)
		return
	}
	if p.Retry && c.Request().Method == http.MethodGet {
		p.RetryURL = c.Request().URL.RequestURI()
	}
	p.BackURL = cameFrom(c.Request())
	if p.BackURL == p.ActionURL || p.BackURL == p.RetryURL {
		p.BackURL = ""
	}
	p.Renews = renewsText(c, p.RenewsAt)
	page := views.ErrorPage{Base: h.base(c, nil, p.Title, views.NavNone), Problem: p, Now: h.now()}
	if rerr := h.render(c, p.Status, templates.ErrorPage(page)); rerr != nil {
		h.log.Error("rendering the error page failed", "request_id", middleware.RequestID(c), "err", rerr)
		_ = c.String(p.Status, p.Title)
	}
}

// setRetryAfter says when to come back to a 429 (the limit's renewal) or
// a busy 503 (a turn frees within moments).
func (h *Handler) setRetryAfter(c *echo.Context, p views.Problem) {
	switch {
	case p.Status == http.StatusTooManyRequests && !p.RenewsAt.IsZero():
		c.Response().Header().Set("Retry-After", strconv.Itoa(int(p.RenewsAt.Sub(h.now()).Seconds())))
	case p.Status == http.StatusServiceUnavailable:
		c.Response().Header().Set("Retry-After", middleware.BusyRetryAfter)
	}
}

func (h *Handler) logProblem(c *echo.Context, p views.Problem, err error) {
	// A 4xx is the visitor's mistake, told by the request line's status;
	// its detail is for debugging, so unknown paths cost one line each.
	level := slog.LevelDebug
	switch {
	case p.Status >= 500 && p.Status != http.StatusBadGateway && p.Status != http.StatusServiceUnavailable:
		level = slog.LevelError
	case p.Status == http.StatusBadGateway || p.Status == http.StatusServiceUnavailable || p.Status == http.StatusTooManyRequests:
		level = slog.LevelWarn
	}
	h.log.Log(c.Request().Context(), level, "request failed",
		"request_id", middleware.RequestID(c), "path", c.Request().URL.Path, "status", p.Status, "err", err)
}

// sectionProblem turns the failure of one section's call into the message
// the section shows in place of its content, with a link to try again.
func (h *Handler) sectionProblem(c *echo.Context, err error) *views.Problem {
	if err == nil {
		return nil
	}
	var de *deferredError
	if errors.As(err, &de) {
		p := de.problem()
		p.Renews = renewsText(c, p.RenewsAt)
		return p
	}
	if errors.Is(err, cache.ErrBudgetSpent) {
		h.meter.BudgetRefused()
		// Refused here, before the service: the page itself is fine, this
		// section waits for the renewal the box names.
		p := classify(err, h.now())
		p.Status = http.StatusOK
		p.Renews = renewsText(c, p.RenewsAt)
		return &p
	}
	p := classify(err, h.now())
	h.inTradeTerms(c, &p, err)
	h.logProblem(c, p, err)
	p.RetryURL = pageURL(c).RequestURI()
	p.Renews = renewsText(c, p.RenewsAt)
	return &p
}

// renewsText is the renewal time in the analyst's zone and UTC, "" for
// none.
func renewsText(c *echo.Context, at time.Time) string {
	if at.IsZero() {
		return ""
	}
	return views.RenewalText(at, analystZone(c))
}
