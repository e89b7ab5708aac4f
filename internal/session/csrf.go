package session

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"net/http"
	"strings"

	"github.com/labstack/echo/v5"
)

// CSRF tokens are bound to the session: a signed-in page's token is an
// HMAC of a random secret kept inside the encrypted session cookie, made
// anew at each sign-in, so a token read from another session, or from
// before a sign-in, is refused. Before sign-in (the sign-in and code
// forms) the token is derived the same way from a random value in the
// sign-in cookie, set only when those forms are shown and taken only by
// /login paths. Tokens travel in the form field or the X-CSRF-Token
// header, never in the query string, where they would leak into logs and
// Referer headers. No cookie is written on other pages.
const (
	// csrfField is the name of the hidden form field carrying the token.
	csrfField = "_csrf"
	// csrfHeader carries the token for scripts that post.
	csrfHeader = "X-CSRF-Token"
	// loginCookie holds the random value of the sign-in forms' token.
	loginCookie = "creditdash_login"
)

// tokenOf derives the token of forms from secret.
func tokenOf(secret string) string {
	if secret == "" {
		return ""
	}
	m := hmac.New(sha256.New, []byte(secret))
	m.Write([]byte("creditdash csrf token"))
	return base64.RawURLEncoding.EncodeToString(m.Sum(nil))
}

// CSRF checks every state-changing request for a token bound to its
// session (or, on /login paths, to its sign-in cookie), and refuses any
// that a browser says came from another site, token or not. Safe
// requests get the token their forms carry.
// secure is whether cookies are Secure (the sign-in cookie is named and
// marked as the session's).
func CSRF(secure bool) echo.MiddlewareFunc {
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c *echo.Context) error {
			r := c.Request()
			// A signed-in request's token came with its session
			// (Load), derived once per decoded cookie.
			st := stateOf(c)
			signedIn := st.signedIn
			loginPath := r.URL.Path == twoFactorPath || strings.HasPrefix(r.URL.Path, twoFactorPath+"/")
			var loginSecret string
			if ck, err := r.Cookie(loginCookieName(secure)); err == nil && len(ck.Value) >= 20 {
				loginSecret = ck.Value
			}
			switch r.Method {
			case http.MethodGet, http.MethodHead, http.MethodOptions:
				if !signedIn && loginPath {
					if loginSecret == "" {
						loginSecret = setLoginCookie(c, secure)
					}
					st.csrf = tokenOf(loginSecret)
				}
				return next(c)
			}
			if !signedIn && !loginPath {
				// No session to act for: the sign-in guard sends the form
				// to the sign-in page (back to the page it came from), and
				// /logout has nothing to end.
				return next(c)
			}
			if site := r.Header.Get("Sec-Fetch-Site"); site == "cross-site" || site == "same-site" {
				return errCSRF
			}
			// Read first, whatever the form's size: a form past the
			// standard parser's field limit still has its token.
			tooMany, err := readPostForm(r)
			if err != nil {
				return err
			}
			sent := r.Header.Get(csrfHeader)
			if sent == "" {
				// The body only: FormValue would read the query string too.
				sent = r.PostFormValue(csrfField)
			}
			ok := signedIn && tokenEqual(sent, st.csrf) ||
				loginPath && loginSecret != "" && tokenEqual(sent, tokenOf(loginSecret))
			if !ok {
				return errCSRF
			}
			if tooMany || st.tooManyParts {
				return errTooManyParts
			}
			if !signedIn {
				st.csrf = tokenOf(loginSecret)
			}
			return next(c)
		}
	}
}

// errTooManyParts answers a multipart form, its token valid, with more
// parts than the standard parser reads: none of this site's forms has as
// many, and the form's fields are not read at all.
var errTooManyParts = echo.NewHTTPError(http.StatusUnprocessableEntity,
	"the form has more than 1,000 fields, past what any form here sends (an upload has a file and a few fields); nothing was read")

// errCSRF is the refusal of a form without a valid token.
var errCSRF = echo.NewHTTPError(http.StatusForbidden, "invalid or missing CSRF token")

// tokenEqual compares a sent token with the expected one in constant time.
func tokenEqual(sent, want string) bool {
	return sent != "" && want != "" && hmac.Equal([]byte(sent), []byte(want))
}

// loginCookieName is the sign-in cookie's name, __Host- prefixed over TLS.
func loginCookieName(secure bool) string { return cookieName(loginCookie, secure) }

// setLoginCookie gives a browser without one the sign-in cookie, for the
// session lifetime of a sign-in form; it returns its value.
func setLoginCookie(c *echo.Context, secure bool) string {
	v := rand.Text()
	http.SetCookie(c.Response(), &http.Cookie{
		Name:     loginCookieName(secure),
		Value:    v,
		Path:     "/",
		MaxAge:   int(pendingKept.Seconds()) * 12,
		HttpOnly: true,
		Secure:   secure,
		SameSite: http.SameSiteLaxMode,
	})
	return v
}
