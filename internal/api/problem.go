package api

import (
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strconv"

	"github.com/labstack/echo/v5"

	"creditdash/internal/middleware"
	"creditdash/internal/store"
)

// Problem is an RFC 9457 problem detail: every failure of the API is one.
// Type is about:blank throughout, so Title is the status's own phrase and
// Detail says what happened and what to do.
type Problem struct {
	Type   string `json:"type"`
	Title  string `json:"title"`
	Status int    `json:"status"`
	Detail string `json:"detail"`
	// Errors name each field of the request refused (422).
	Errors []FieldError `json:"errors,omitempty"`
	// RequestID matches the server's log line.
	RequestID string `json:"request_id,omitempty"`
	// retryAfter is seconds until a 429 may be tried again.
	retryAfter int
}

// FieldError is one refused field of a request: a query parameter or a
// member of the JSON body.
type FieldError struct {
	Field  string `json:"field"`
	Detail string `json:"detail"`
}

// Error implements error.
func (p *Problem) Error() string { return "api: " + strconv.Itoa(p.Status) + ": " + p.Detail }

// problem is a problem of status with its detail.
func problem(status int, format string, args ...any) *Problem {
	return &Problem{Type: "about:blank", Title: http.StatusText(status), Status: status, Detail: fmt.Sprintf(format, args...)}
}

// invalid is a 422 naming the fields refused.
func invalid(errs []FieldError) *Problem {
	p := problem(http.StatusUnprocessableEntity, "The request was refused; errors names each field and why. Nothing was changed.")
	p.Errors = errs
	return p
}

// ProblemType is the media type of every failure.
const ProblemType = "application/problem+json"

// WriteError answers err as a problem: the API's own as they are, the
// router's (404, 405, 413) with their status, a missing row as 404, and
// anything else as a 500 whose cause only the log sees. The handlers' one
// error handler calls it for every path the API owns.
func WriteError(c *echo.Context, log *slog.Logger, err error) {
	var p *Problem
	var he *echo.HTTPError
	var sc echo.HTTPStatusCoder
	switch {
	case errors.As(err, &p):
	case errors.Is(err, store.ErrNotFound):
		p = problem(http.StatusNotFound, "There is no such %s in this team.", notFoundWhat(c))
	case errors.As(err, &he):
		p = problem(he.Code, "%s", sentenceOf(he.Code, he.Message))
	case errors.As(err, &sc) && sc.StatusCode() >= 400 && sc.StatusCode() < 500:
		p = problem(sc.StatusCode(), "%s", sentenceOf(sc.StatusCode(), ""))
	default:
		log.Error("api: failed", "request_id", middleware.RequestID(c), "method", c.Request().Method,
			"path", c.Request().URL.Path, "err", err)
		p = problem(http.StatusInternalServerError, "The request failed on the server; it is logged under its request id. Try again later.")
	}
	if p.Status >= 500 && p.Status != http.StatusInternalServerError {
		log.Warn("api: unavailable", "request_id", middleware.RequestID(c), "path", c.Request().URL.Path, "err", err)
	}
	p.RequestID = middleware.RequestID(c)
	h := c.Response().Header()
	h.Set("Cache-Control", "no-store")
	switch p.Status {
	case http.StatusUnauthorized:
		h.Set("WWW-Authenticate", `Bearer realm="creditdash"`)
	case http.StatusTooManyRequests:
		h.Set("Retry-After", strconv.Itoa(max(p.retryAfter, 1)))
	}
	body, merr := json.Marshal(p)
	if merr != nil {
		body = []byte(`{"type":"about:blank","status":500}`)
	}
	if c.Request().Method == http.MethodHead {
		_ = c.NoContent(p.Status)
		return
	}
	_ = c.Blob(p.Status, ProblemType, body)
}

// notFoundWhat names what a route's missing row is.
func notFoundWhat(c *echo.Context) string {
	switch c.Path() {
	case Prefix + "/decisions/:id":
		return "decision"
	case Prefix + "/accounts/:account":
		return "account"
	case Prefix + "/applications/:id":
		return "application"
	}
	return "thing"
}

// sentenceOf is the detail of the router's and the middleware's errors.
func sentenceOf(status int, msg string) string {
	switch status {
	case http.StatusMethodNotAllowed:
		return "This path does not take that method; openapi.json lists what it takes."
	case http.StatusNotFound:
		return "There is no such path in /api/v1; openapi.json lists them."
	case http.StatusRequestEntityTooLarge:
		return "The body is too large: a ledger is at most 10 MB, any other request 256 KB."
	}
	if msg != "" {
		return msg
	}
	return http.StatusText(status) + "."
}
