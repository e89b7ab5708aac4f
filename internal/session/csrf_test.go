package session

import (
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/labstack/echo/v5"
)

// csrfServer is Load and CSRF in front of a handler that answers 200, as
// the router chains them, with a session store of its own.
func csrfServer(t *testing.T) (*echo.Echo, *Store) {
	t.Helper()
	st, err := NewStore([]string{strings.Repeat("k", 32)}, false, time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	memo, err := NewMemo(st, 1<<20)
	if err != nil {
		t.Fatal(err)
	}
	e := echo.New()
	e.Use(Load(memo, NewMemorySignOuts(time.Hour)), CSRF(false))
	ok := func(c *echo.Context) error { return c.String(http.StatusOK, Token(c)) }
	e.Any("/notes", ok)
	e.Any("/login", ok)
	return e, st
}

// post sends a form to path with cookies, the extra headers and the form
// token (none when ""); it returns the status.
func post(e *echo.Echo, path string, cookies []*http.Cookie, token string, header map[string]string) int {
	form := url.Values{"note": {"hello"}}
	if token != "" {
		form.Set(csrfField, token)
	}
	r := httptest.NewRequest(http.MethodPost, path, strings.NewReader(form.Encode()))
	r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	for k, v := range header {
		r.Header.Set(k, v)
	}
	for _, c := range cookies {
		r.AddCookie(c)
	}
	rec := httptest.NewRecorder()
	e.ServeHTTP(rec, r)
	return rec.Code
}

// A signed-in form passes only with its own session's token, in the body
// or the header, and never from another site; a token in the query
// string, another session's or an earlier sign-in's is refused.
func TestCSRFBoundToTheSession(t *testing.T) {
	e, st := csrfServer(t)
	mine := seal(t, st, Session{Key: "k1", User: "demo", SignedInAt: time.Now(), CSRF: "secret-of-this-sign-in"})
	theirs := seal(t, st, Session{Key: "k2", User: "other", SignedInAt: time.Now(), CSRF: "secret-of-another"})
	token := tokenOf("secret-of-this-sign-in")

	for _, c := range []struct {
		name    string
		path    string
		cookies []*http.Cookie
		token   string
		header  map[string]string
		want    int
	}{
		{"its own token", "/notes", mine, token, nil, http.StatusOK},
		{"in the header", "/notes", mine, "", map[string]string{csrfHeader: token}, http.StatusOK},
		{"same origin says so", "/notes", mine, token, map[string]string{"Sec-Fetch-Site": "same-origin"}, http.StatusOK},
		{"no token", "/notes", mine, "", nil, http.StatusForbidden},
		{"another session's token", "/notes", mine, tokenOf("secret-of-another"), nil, http.StatusForbidden},
		{"its token with another session", "/notes", theirs, token, nil, http.StatusForbidden},
		{"the secret itself", "/notes", mine, "secret-of-this-sign-in", nil, http.StatusForbidden},
		{"in the query string", "/notes?" + csrfField + "=" + url.QueryEscape(token), mine, "", nil, http.StatusForbidden},
		{"from another site", "/notes", mine, token, map[string]string{"Sec-Fetch-Site": "cross-site"}, http.StatusForbidden},
		{"from a sibling site", "/notes", mine, token, map[string]string{"Sec-Fetch-Site": "same-site"}, http.StatusForbidden},
	} {
		if got := post(e, c.path, c.cookies, c.token, c.header); got != c.want {
			t.Errorf("POST %s, %s: status = %d, want %d", c.path, c.name, got, c.want)
		}
	}
	// A GET changes nothing and is not checked; its forms carry the token.
	rec := httptest.NewRecorder()
	r := with(mine)
	r.URL.Path = "/notes"
	e.ServeHTTP(rec, r)
	if rec.Code != http.StatusOK || rec.Body.String() != token {
		t.Errorf("GET /notes: status %d, forms' token %q; want 200 and the session's", rec.Code, rec.Body.String())
	}
}

// Before sign-in, the sign-in form's token is bound to the sign-in
// cookie its GET set: without that cookie, or with another's, the POST
// is refused.
func TestCSRFOnTheSignInForm(t *testing.T) {
	e, _ := csrfServer(t)
	rec := httptest.NewRecorder()
	e.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/login", nil))
	cookies := rec.Result().Cookies()
	token := rec.Body.String()
	if rec.Code != http.StatusOK || len(cookies) != 1 || cookies[0].Name != loginCookie || token == "" || !cookies[0].HttpOnly {
		t.Fatalf("GET /login: status %d, cookies %v, token %q", rec.Code, cookies, token)
	}
	if got := post(e, "/login", cookies, token, nil); got != http.StatusOK {
		t.Errorf("POST /login with its cookie and token: %d, want 200", got)
	}
	if got := post(e, "/login", nil, token, nil); got != http.StatusForbidden {
		t.Errorf("POST /login without the cookie: %d, want 403", got)
	}
	other := []*http.Cookie{{Name: loginCookie, Value: strings.Repeat("x", 26)}}
	if got := post(e, "/login", other, token, nil); got != http.StatusForbidden {
		t.Errorf("POST /login with another browser's cookie: %d, want 403", got)
	}
	if got := post(e, "/login", cookies, "", nil); got != http.StatusForbidden {
		t.Errorf("POST /login without a token: %d, want 403", got)
	}
}
