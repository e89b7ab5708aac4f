package views

import (
	"strconv"
	"time"

	"creditdash/internal/store"
)

// TokensPath is the page of a member's personal access tokens.
const TokensPath = "/settings/tokens"

// TokensPage is /settings/tokens: the member's tokens for /api/v1, the
// form that makes one and, once, the secret of the one just made.
type TokensPage struct {
	Base
	Rows []TokenRow
	Form TokenForm
	// Secret is the token just made, shown on this answer only; Made
	// names it.
	Secret, Made string
	// WriteAllowed says the member's role changes something, so a write
	// token is offered.
	WriteAllowed bool
	// Max is how many active tokens a member holds.
	Max int
}

// TokenForm is the creation form as typed, with its refusals.
type TokenForm struct {
	Name, Scope, Expires             string
	NameError, ScopeError, DateError string
	Error                            string
}

// TokenRow is one token as listed: never its secret.
type TokenRow struct {
	ID                        string
	Name, Scope, Prefix       string
	Created, Expires, LastUse string
	// State is "active", "revoked" or "expired"; only an active one can
	// be revoked.
	State string
}

// RevokeURL is where the row's revoke form posts.
func (r TokenRow) RevokeURL() string { return TokensPath + "/" + r.ID + "/revoke" }

// NewTokenRows lists tokens as the page shows them at now.
func NewTokenRows(tokens []store.Token, now time.Time) []TokenRow {
	rows := make([]TokenRow, 0, len(tokens))
	for _, t := range tokens {
		r := TokenRow{ID: strconv.FormatInt(t.ID, 10), Name: t.Name, Scope: t.Scope, Prefix: t.Prefix + "…",
			Created: tokenTime(t.Created), Expires: t.Expires.UTC().Format("2 Jan 2006"), LastUse: "never", State: "active"}
		if !t.LastUsed.IsZero() {
			r.LastUse = tokenTime(t.LastUsed)
		}
		switch {
		case !t.Revoked.IsZero():
			r.State = "revoked " + tokenTime(t.Revoked)
		case !t.Active(now):
			r.State = "expired"
		}
		rows = append(rows, r)
	}
	return rows
}

// tokenTime writes a token's moment in UTC, as the audit trail does.
func tokenTime(t time.Time) string { return t.UTC().Format("2 Jan 2006 15:04 UTC") }
