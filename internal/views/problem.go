package views

import "time"

// Problem is a failure told to the user: as a whole page, or in place of one
// section of a page while the rest still shows.
type Problem struct {
	// Status is the HTTP status a whole page answers with.
	Status int
	Title  string
	// Message says what happened and what to do, in plain words.
	Message string
	// Code is the service's error code, when it gave one.
	Code string
	// Retry offers a link to try again (RetryURL, filled by the handler).
	Retry    bool
	RetryURL string
	// RenewsAt is when the hourly quota renews, for rate-limit problems.
	RenewsAt time.Time
	// SignIn means the session is gone and the user must sign in again.
	SignIn bool
	// Deferred means nothing failed: the section was left unloaded to save
	// the hourly request budget, and ActionURL loads it.
	Deferred bool
	// ActionURL and ActionText point to where the user can fix the problem
	// (choosing a trade provider, say); empty when there is nothing to do.
	ActionURL  string
	ActionText string
	// BackURL is the page of this site the user came from (a local path,
	// filled by the error handler), "" when unknown.
	BackURL string
	// Renews is RenewsAt in the analyst's time zone and UTC
	// (RenewalText); "" shows RenewsAt's clock alone.
	Renews string
	// Waiting marks a section left unloaded that cannot be loaded before
	// the limit renews: the page's one notice says when, so the box is
	// one line without a Load link that could not work.
	Waiting bool
}

// ErrorPage is a page that only tells of a problem.
type ErrorPage struct {
	Base
	Problem Problem
	Now     time.Time
}

// LoginPage is the sign-in form.
type LoginPage struct {
	Base
	Username string
	Next     string
	// Notice explains why the user is here ("your session expired").
	Notice string
	// Error is the service's answer to a failed sign-in.
	Error string
	// Demo lists the stand-in's accounts in demo mode; nil otherwise.
	Demo *DemoSignIn
}

// DemoSignIn is the demo accounts' list on the sign-in page.
type DemoSignIn struct {
	Accounts []DemoAccount
	Password string
}

// DemoAccount is one account of the built-in stand-in.
type DemoAccount struct {
	Name string
	// About says what signing in as it shows ("Ordinary, 10 requests an
	// hour").
	About string
	// Team is the account's role in the demo team and what it may decide
	// ("manager: approves limits up to 250,000"), so four eyes can be
	// tried without reading the documentation; "" when unknown.
	Team string
}

// LoginFault is why the sign-in form was refused before the service was
// asked.
type LoginFault int

// The sign-in form's faults.
const (
	LoginOK      LoginFault = iota
	LoginMissing            // user name or password empty
	LoginTooLong            // longer than any real one
)

// Message says what to correct.
func (f LoginFault) Message() string {
	switch f {
	case LoginMissing:
		return "Enter your user name and password."
	case LoginTooLong:
		return "That user name or password is too long."
	}
	return ""
}

// LoginKeyTooLong explains a service session key too long to keep in a
// browser cookie.
const LoginKeyTooLong = "The credit-risk service answered with a session key too long to keep in your browser, so the sign-in could not be completed. Tell your administrator."

// TeamRole says in a few words what a role lets its holder do in the
// team, with the authority for those who have one.
func TeamRole(role string, authority int64) string {
	switch role {
	case "admin":
		return "Admin: adds and changes the team's members, and sets and decides limits up to " + Money(authority) + " as a manager does"
	case "manager":
		return "Manager: sets limits up to " + Money(authority) + " and approves or declines others' requests up to it"
	case "analyst":
		if authority <= 0 {
			return "Analyst: works accounts; every limit request waits for a manager"
		}
		return "Analyst: works accounts and sets limits up to " + Money(authority) + "; larger requests wait for a manager"
	case "auditor":
		return "Auditor: reads everything of the team and changes nothing"
	}
	return ""
}
