package handlers_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"creditdash/internal/apptest"
)

// A session cookie made for one service is refused by a deployment on
// another service that shares its SESSION_SECRET: the browser is signed
// out there, and none of that deployment's workspace opens.
func TestSessionCookieOfAnotherServiceIsRefused(t *testing.T) {
	a := apptest.Start(t, apptest.Options{})
	b := apptest.Start(t, apptest.Options{ServiceName: "another-service"})
	owner := b.SignIn(t, "developer")
	if p := owner.PostForm("/businesses/1001/notes", url.Values{"_csrf": {owner.Token("/businesses/1001")}, "text": {"developer's own note"}}); p.Status != http.StatusSeeOther {
		t.Fatalf("a note on b: status %d, want 303", p.Status)
	}
	replay := a.SignIn(t, "developer").On(b)
	if p := replay.Get("/notes.csv"); p.Status != http.StatusSeeOther || !strings.HasPrefix(p.Location(), "/login") {
		t.Errorf("a's cookie on b's /notes.csv: status %d to %q, want 303 to /login", p.Status, p.Location())
	}
	if p := replay.Get("/"); p.Status != http.StatusSeeOther || !strings.HasPrefix(p.Location(), "/login") {
		t.Errorf("a's cookie on b's home page: status %d to %q, want 303 to /login", p.Status, p.Location())
	}
	if p := owner.Get("/notes.csv"); !strings.Contains(p.Body, "developer's own note") {
		t.Errorf("b's own session lost its note: %q", p.Body)
	}
}

// A token is bound to its session: another session's token is refused,
// a new sign-in rotates it, and it is read from the form or the
// X-CSRF-Token header but never from the query string.
func TestCSRFTokenIsBoundToTheSession(t *testing.T) {
	app := apptest.Start(t, apptest.Options{})
	victim, attacker := app.SignIn(t, "demo"), app.SignIn(t, "demo")
	foreign := attacker.Token("/")
	mine := victim.Token("/")
	if foreign == mine || foreign == "" {
		t.Fatalf("two sessions share a token %q", mine)
	}
	note := func(u *apptest.User, tok string) *apptest.Page {
		return u.PostForm("/businesses/1001/notes", url.Values{"_csrf": {tok}, "text": {"x"}})
	}
	if p := note(victim, foreign); p.Status != http.StatusForbidden {
		t.Errorf("another session's token: status %d, want 403", p.Status)
	}
	if p := victim.PostForm("/businesses/1001/notes?_csrf="+url.QueryEscape(mine), url.Values{"text": {"x"}}); p.Status != http.StatusForbidden {
		t.Errorf("the token in the query string: status %d, want 403", p.Status)
	}
	req, _ := http.NewRequest(http.MethodPost, app.URL+"/businesses/1001/notes", strings.NewReader("text=by+header"))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("X-CSRF-Token", mine)
	if p := victim.Do(req); p.Status != http.StatusSeeOther {
		t.Errorf("the token in X-CSRF-Token: status %d, want 303", p.Status)
	}
	if p := note(victim, mine); p.Status != http.StatusSeeOther {
		t.Errorf("the session's own token: status %d, want 303", p.Status)
	}
	// Signing in again rotates the token.
	if p := victim.PostForm("/logout", url.Values{"_csrf": {mine}}); p.Status != http.StatusSeeOther {
		t.Fatalf("sign out: status %d", p.Status)
	}
	if p := victim.Login("demo", "demo", ""); p.Status != http.StatusSeeOther {
		t.Fatalf("sign in again: status %d", p.Status)
	}
	if p := note(victim, mine); p.Status != http.StatusForbidden {
		t.Errorf("the token from before the new sign-in: status %d, want 403", p.Status)
	}
	if fresh := victim.Token("/"); fresh == mine || note(victim, fresh).Status != http.StatusSeeOther {
		t.Errorf("after a new sign-in the token is not a new working one")
	}
}

// Signed-in pages set no cookie: the token lives in the session, so a
// page can be kept and sent again as it is.
func TestPagesSetNoCSRFCookie(t *testing.T) {
	app := apptest.Start(t, apptest.Options{})
	u := app.SignIn(t, "demo")
	for _, path := range []string{"/", "/alerts", "/businesses/1001"} {
		if p := u.Get(path); p.Status != http.StatusOK || len(p.Header.Values("Set-Cookie")) != 0 {
			t.Errorf("GET %s: status %d, Set-Cookie %q; want 200 and none", path, p.Status, p.Header.Values("Set-Cookie"))
		}
	}
}

// Over TLS the session and sign-in cookies carry the __Host- prefix.
func TestHostPrefixedCookiesWhenSecure(t *testing.T) {
	app := apptest.Start(t, apptest.Options{CookieSecure: true})
	u := app.NewUser(t)
	p := u.Get("/login")
	form := url.Values{"_csrf": {p.Doc.Find(`input[name="_csrf"]`).AttrOr("value", "")}, "username": {"demo"}, "password": {"demo"}}
	if !strings.Contains(strings.Join(p.Header.Values("Set-Cookie"), "\n"), "__Host-creditdash_login=") {
		t.Errorf("the sign-in form's cookie: %q, want __Host-creditdash_login", p.Header.Values("Set-Cookie"))
	}
	// The test client does not send Secure cookies over http: hand it on.
	req, _ := http.NewRequest(http.MethodPost, app.URL+"/login", strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	for _, c := range (&http.Response{Header: p.Header}).Cookies() {
		req.AddCookie(c)
	}
	res := u.Do(req)
	if res.Status != http.StatusSeeOther || !strings.Contains(strings.Join(res.Header.Values("Set-Cookie"), "\n"), "__Host-creditdash_session=") {
		t.Errorf("sign-in: status %d, cookies %q; want 303 and __Host-creditdash_session", res.Status, res.Header.Values("Set-Cookie"))
	}
	// The prefixed cookie opens the pages, twice (the second time from the
	// decoded sessions kept).
	for range 2 {
		home, _ := http.NewRequest(http.MethodGet, app.URL+"/", nil)
		for _, c := range (&http.Response{Header: res.Header}).Cookies() {
			home.AddCookie(c)
		}
		if h := u.Do(home); h.Status != http.StatusOK {
			t.Fatalf("GET / with __Host-creditdash_session: status %d to %q, want 200", h.Status, h.Location())
		}
	}
}

// Another site's link to the export or the home page spends nothing and
// writes nothing: it gets a page offering the same request as a button.
func TestCrossSiteNavigationsSpendNothing(t *testing.T) {
	app := apptest.Start(t, apptest.Options{})
	u := app.SignIn(t, "ordinary")
	app.Sim.Reset()
	u.Header.Set("Sec-Fetch-Site", "cross-site")
	u.Header.Set("Sec-Fetch-Mode", "navigate")
	for range 3 {
		p := u.Get("/portfolio/export?format=csv&layout=standard")
		if p.Status != http.StatusForbidden {
			t.Fatalf("cross-site export: status %d, want 403", p.Status)
		}
		action, fields, ok := p.Form("main form[method=get]")
		if !ok || action != "/portfolio/export" || fields.Get("format") != "csv" || fields.Get("layout") != "standard" {
			t.Fatalf("cross-site export: form %v to %q with %v, want the same export as a button", ok, action, fields)
		}
	}
	if n := app.Sim.Requests()["ordinary"]; len(n) != 0 {
		t.Errorf("cross-site exports reached the service: %v", n)
	}
	if p := u.Get("/"); p.Status != http.StatusForbidden || p.Doc.Find(`main form[action="/"] button`).Length() != 1 {
		t.Errorf("cross-site home page: status %d, want 403 with a button", p.Status)
	}
	// A report, a portfolio page and a link with a query: each offered
	// as a button with its own words, nothing spent.
	for path, title := range map[string]string{
		"/businesses/1001/payments":            "Open the report?",
		"/suppliers/S-1001":                    "Open the report?",
		"/portfolio/scores?score=pay&folder=2": "Open the page?",
		"/compare?ids=1001,1002":               "Open the page?",
	} {
		p := u.Get(path)
		action, _, ok := p.Form("main form[method=get]")
		want, _, _ := strings.Cut(path, "?")
		if p.Status != http.StatusForbidden || !ok || action != want || p.Doc.Find("h1").Text() != title {
			t.Errorf("cross-site %s: status %d, form %v to %q, title %q; want 403, a button to %s, %q", path, p.Status, ok, action, p.Doc.Find("h1").Text(), want, title)
		}
	}
	if n := app.Sim.Requests()["ordinary"]; len(n) != 0 {
		t.Errorf("cross-site pages reached the service: %v", n)
	}
	u.Header.Set("Sec-Fetch-Site", "same-origin")
	if p := u.Get("/portfolio/export?format=csv&layout=standard"); p.Status != http.StatusOK {
		t.Errorf("the button's request (same-origin): status %d, want 200", p.Status)
	}
}
