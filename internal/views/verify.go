package views

import (
	"net/url"
	"time"
)

// VerifyPage is the second step of a two-factor sign-in: the form for the
// one-time code sent to the analyst's phone. It never holds the code or the
// service's pending key.
type VerifyPage struct {
	Base
	// Username is who is signing in, shown so a shared computer's next
	// user sees whose code is asked for.
	Username string
	// Until is when the service stops taking a code for this sign-in.
	Until time.Time
	// Remember keeps the "Remember this browser" box as it was ticked.
	Remember bool
	// Error says why the last code was refused.
	Error string
	// ResendURL is the sign-in form again, with the user name and next
	// page filled in: a new code needs a new sign-in.
	ResendURL string
	// DemoCode is the built-in stand-in's code in demo mode, shown as
	// such; never set with a real service.
	DemoCode string
}

// LoginAgainURL is the sign-in form with the user name (when it may be
// shown) and the page to continue to; reason explains why, or is "".
func LoginAgainURL(user, next, reason string) string {
	q := url.Values{}
	if user != "" {
		q.Set("username", user)
	}
	if next != "" && next != "/" {
		q.Set("next", next)
	}
	if reason != "" {
		q.Set("reason", reason)
	}
	if len(q) == 0 {
		return "/login"
	}
	return "/login?" + q.Encode()
}

// VerifyFault is why a code was refused before the service was asked.
type VerifyFault int

// The code form's faults.
const (
	VerifyOK        VerifyFault = iota
	VerifyMissing               // nothing typed
	VerifyMalformed             // not 4 to 10 digits
)

// Message says what to correct.
func (f VerifyFault) Message() string {
	switch f {
	case VerifyMissing:
		return "Enter the code sent to your phone."
	case VerifyMalformed:
		return "The code is 4 to 10 digits, as sent to your phone."
	}
	return ""
}

// VerifyWrongCode says the code was wrong, in the service's words when it
// gave some (they say how many attempts it has left).
func VerifyWrongCode(service string) string {
	if service == "" {
		return "That code is not right. Check the latest text message and try again; after a few wrong codes you must sign in again."
	}
	return service
}

// VerifyCodeResent: the service sent a new code instead of taking this one.
const VerifyCodeResent = "The credit-risk service sent a new code to your phone. Enter the new one."

// SignInRefusedUntil: the service refuses sign-ins until at.
func SignInRefusedUntil(at time.Time) string {
	return "The credit-risk service is refusing sign-ins until " + Clock(at) + ". Try again then."
}

// Notices the sign-in page shows when a two-factor sign-in sent the analyst
// back to it.
const (
	NoticeTwoFactorExpired = "Your sign-in waited too long for its code. Sign in again and we will send a new one."
	NoticeTwoFactorLocked  = "Too many wrong codes. Sign in again and we will send a new one."
	NoticeTwoFactorMissing = "No sign-in is waiting for a code. Sign in first."
	NoticeTwoFactorGone    = "That sign-in no longer waits for a code: it was finished already, or the credit-risk service ended it. Sign in again if you are not signed in."
)

// SignInThrottledPlace is said when this address (or IPv6 /64) failed too
// often, whatever the names.
func SignInThrottledPlace(until time.Time) string {
	return "Too many failed sign-ins from here. Try again after " + Clock(until) + "."
}

// SignInThrottledName is said when a user name failed too often from
// several places at once.
func SignInThrottledName(until time.Time) string {
	return "Too many failed sign-ins for this user name. Try again after " + Clock(until) + "."
}

// SignInThrottled says that sign-ins of this name are held until until:
// after too many codes sent (or sign-ins that may send one in flight), or
// too many failed attempts from here.
func SignInThrottled(codes bool, until time.Time) string {
	if codes {
		return "We sent several codes for this user name in the last few minutes. Use the latest one, or sign in again after " + Clock(until) + "."
	}
	return "Too many failed sign-ins for this user name from here. Try again after " + Clock(until) + "."
}
