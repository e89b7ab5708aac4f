package api

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"net/http"
	"strings"

	"github.com/labstack/echo/v5"

	"creditdash/internal/store"
)

// SecretPrefix starts every token's secret, so a secret pasted where it
// should not be is recognisable (and secret scanners can be taught it).
const SecretPrefix = "cdp_"

// NewSecret makes a token's secret: SecretPrefix and 32 random bytes in
// base64url. It returns what the store keeps of it: its hash (HashSecret)
// and its first characters, to tell tokens apart in lists.
func NewSecret() (secret, hash, prefix string) {
	var b [32]byte
	_, _ = rand.Read(b[:]) // crypto/rand.Read never fails
	secret = SecretPrefix + base64.RawURLEncoding.EncodeToString(b[:])
	return secret, HashSecret(secret), secret[:len(SecretPrefix)+4]
}

// HashSecret is the lowercase hex SHA-256 of a secret, as the store keeps
// it. A secret carries 256 random bits, so a plain hash suffices: there is
// nothing to guess that a slow hash would protect.
func HashSecret(secret string) string {
	sum := sha256.Sum256([]byte(secret))
	return hex.EncodeToString(sum[:])
}

// tokenKey is where the request's token is kept for its handler.
const tokenKey = "api.token"

// tokenOf is the request's token, which authenticate put there.
func tokenOf(c *echo.Context) store.Token {
	t, _ := c.Get(tokenKey).(store.Token)
	return t
}

// bearer reads "Authorization: Bearer <secret>".
func bearer(h string) (string, bool) {
	scheme, secret, ok := strings.Cut(strings.TrimSpace(h), " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") {
		return "", false
	}
	secret = strings.TrimSpace(secret)
	return secret, strings.HasPrefix(secret, SecretPrefix) && len(secret) < 100
}

// authenticate lets through a request with an active token within its
// rate; a change also needs a write token and is logged in the team's
// audit trail before it is carried out.
func (a *API) authenticate(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c *echo.Context) error {
		secret, ok := bearer(c.Request().Header.Get("Authorization"))
		if !ok {
			return problem(http.StatusUnauthorized, "Send a personal access token as “Authorization: Bearer cdp_…”; make one on /settings/tokens.")
		}
		ctx := c.Request().Context()
		t, err := a.store.UseToken(ctx, a.service, HashSecret(secret))
		switch {
		case errors.Is(err, store.ErrNotFound):
			return problem(http.StatusUnauthorized, "The token is not one of this team's; make one on /settings/tokens.")
		case err != nil:
			return err
		case !t.Revoked.IsZero():
			return problem(http.StatusUnauthorized, "The token %q was revoked on %s.", t.Name, t.Revoked.Format(store.DateLayout))
		case !t.Active(a.now()):
			return problem(http.StatusUnauthorized, "The token %q expired on %s; make a new one on /settings/tokens.", t.Name, t.Expires.Format(store.DateLayout))
		}
		if wait := a.rates.take(t.ID, a.now()); wait > 0 {
			p := problem(http.StatusTooManyRequests, "A token makes at most %d requests a minute; try again in %d seconds.", ratePerMinute, wait)
			p.retryAfter = wait
			return p
		}
		c.Set(tokenKey, t)
		switch c.Request().Method {
		case http.MethodGet, http.MethodHead:
			return next(c)
		}
		if t.Scope != store.ScopeWrite {
			return problem(http.StatusForbidden, "The token %q may only read; a change needs a token of scope write.", t.Name)
		}
		if err := a.store.AuditAPIWrite(ctx, t, c.Request().Method+" "+c.Request().URL.RequestURI()); err != nil {
			return err
		}
		return next(c)
	}
}
