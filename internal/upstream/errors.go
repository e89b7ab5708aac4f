package upstream

import (
	"errors"
	"fmt"
	"time"
)

// Kinds of failure a caller can act on; test with errors.Is. Every error the
// client returns for a service answer is an *Error wrapping one of these.
var (
	// ErrInvalidCredentials: sign-in refused the user name or password.
	ErrInvalidCredentials = errors.New("upstream: invalid credentials")
	// ErrSessionExpired: the service refused the session key (403); sign in again.
	ErrSessionExpired = errors.New("upstream: session expired or not authorised")
	// ErrNotFound: the business, folder or operation does not exist (404).
	ErrNotFound = errors.New("upstream: not found")
	// ErrBadRequest: the service refused the request's parameters (400).
	ErrBadRequest = errors.New("upstream: bad request")
	// ErrRateLimited: the hourly quota is used up (429); see Error.RetryAfter.
	ErrRateLimited = errors.New("upstream: rate limited")
	// ErrUnavailable: the service failed, timed out or could not be reached.
	ErrUnavailable = errors.New("upstream: service unavailable")
	// ErrMalformed: the answer could not be decoded, or said Success false on a 200.
	ErrMalformed = errors.New("upstream: malformed response")
	// ErrInvalidReference: a business reference was refused before any request.
	ErrInvalidReference = errors.New("upstream: invalid business reference")
	// ErrTwoFactorRequired: Login met an account with two-factor sign-in (use
	// SignIn), or a call used a key still waiting for its code.
	ErrTwoFactorRequired = errors.New("upstream: two-factor sign-in required")
	// ErrTwoFactorCode: TwoFactorKey sent a wrong code; the pending key may
	// try again, up to TwoFactorMaxAttempts codes in all.
	ErrTwoFactorCode = errors.New("upstream: wrong two-factor code")
	// ErrTwoFactorLocked: too many wrong codes; the pending key is dead.
	ErrTwoFactorLocked = errors.New("upstream: two-factor sign-in locked")
	// ErrTwoFactorExpired: the pending key expired or is unknown to the
	// service; sign in again for a new code.
	ErrTwoFactorExpired = errors.New("upstream: two-factor sign-in expired")
)

// Error is a failed operation: which one, what the service said, and its kind.
type Error struct {
	// Op names the operation, e.g. "Business/Summary".
	Op string
	// Status is the HTTP status, or 0 when no answer arrived.
	Status int
	// Code is the envelope's ErrorCode, when there was one.
	Code string
	// Message is the service's own description (the envelope's Data text).
	Message string
	// RetryAfter is how long until the quota renews, for ErrRateLimited.
	RetryAfter time.Duration
	// Kind is one of the Err* values above.
	Kind error
	// Err is the underlying cause (a network or decoding error), if any.
	Err error
}

// Error reads like "upstream: Business/Summary: 404 BusinessNotFound: no such business".
func (e *Error) Error() string {
	msg := "upstream: " + e.Op + ": "
	if e.Status != 0 {
		msg += fmt.Sprintf("%d ", e.Status)
	}
	switch {
	case e.Code != "":
		msg += e.Code
	case e.Kind != nil:
		msg += kindText(e.Kind)
	}
	if e.Message != "" {
		msg += ": " + e.Message
	}
	if e.Err != nil {
		msg += ": " + e.Err.Error()
	}
	return msg
}

// Unwrap exposes both the kind and the cause to errors.Is and errors.As.
func (e *Error) Unwrap() []error {
	if e.Err == nil {
		return []error{e.Kind}
	}
	return []error{e.Kind, e.Err}
}

func kindText(kind error) string {
	const prefix = "upstream: "
	s := kind.Error()
	if len(s) > len(prefix) && s[:len(prefix)] == prefix {
		return s[len(prefix):]
	}
	return s
}

// kindForStatus maps an HTTP status to the kind of failure.
func kindForStatus(status int) error {
	switch {
	case status == 400:
		return ErrBadRequest
	case status == 401 || status == 403:
		return ErrSessionExpired
	case status == 404:
		return ErrNotFound
	case status == 429:
		return ErrRateLimited
	case status >= 500:
		return ErrUnavailable
	case status >= 400:
		return ErrBadRequest
	default:
		return ErrMalformed
	}
}
