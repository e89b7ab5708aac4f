package views

import "net/url"

// AccountLinkPage links one not-linked account to a business by hand
// (issue 43.3): by a typed business id, or by one of the service's
// businesses its name search finds.
type AccountLinkPage struct {
	Base
	Account, Name string
	// Action is where the link form posts.
	Action string
	// LinkedTo is the report of the business the account is linked to,
	// "" while it is not linked; LinkedID names it.
	LinkedTo, LinkedID string
	// Business is the id as typed; BusinessError why it was refused.
	Business, BusinessError string
	// SearchOffered is false when the service does not offer name search
	// to this user; Query is the name searched for ("" for none yet).
	SearchOffered bool
	Query         string
	Results       []SearchRow
	MoreResults   bool
	SearchProblem *Problem
	// Problem is why the typed id could not be checked (the service
	// failed or the hour's requests ran out), nil otherwise.
	Problem *Problem
}

// AccountLinkPath is an account's link-by-hand page and form.
func AccountLinkPath(account string) string { return "/accounts/" + url.PathEscape(account) + "/link" }
