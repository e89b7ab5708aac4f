package handlers_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"creditdash/internal/apptest"
)

// A hostile client sending 60 kB paths writes a few hundred bytes of log
// per request, not the path.
func TestLongPathsAreClippedInTheLogs(t *testing.T) {
	app := apptest.Start(t, apptest.Options{})
	anon := app.NewUser(t)
	u := app.SignIn(t, "demo")
	long := "/x" + strings.Repeat("y", 60_000)
	before := len(app.Logs.String())
	for range 20 {
		anon.Get(long)
		u.Get(long + "?refresh=1")
	}
	written := len(app.Logs.String()) - before
	if per := written / 40; per > 2000 {
		t.Errorf("%d log bytes per request with a 60 kB path, want a few hundred", per)
	}
	for _, line := range strings.Split(app.Logs.String(), "\n") {
		if len(line) > 2000 {
			t.Fatalf("a log line of %d bytes: %.200s…", len(line), line)
		}
	}
}

// People type passwords into the user-name field; a failed sign-in logs
// the user name only when it looks like one.
func TestImplausibleUserNamesAreNotLogged(t *testing.T) {
	app := apptest.Start(t, apptest.Options{})
	secret := "Tr0ub4dor&3 horse"
	p := app.NewUser(t).Login(secret, "whatever", "")
	if p.Status == http.StatusSeeOther {
		t.Fatal("signed in with nonsense")
	}
	if app.Logs.Contains(secret) || app.Logs.Contains("Tr0ub4dor") {
		t.Error("what was typed as a user name appears in the logs")
	}
	app.NewUser(t).Login("nobody", "wrong", "")
	if !app.Logs.Contains("user=nobody") {
		t.Error("a plausible user name of a failed sign-in is not logged")
	}
}

// Oversized headers and bodies are refused as pages, with the security
// headers, never Go's bare answers.
func TestOversizedRequestsAreRefusedWithHeaders(t *testing.T) {
	app := apptest.Start(t, apptest.Options{})
	u := app.NewUser(t)
	req, _ := http.NewRequest(http.MethodGet, app.URL+"/login", nil)
	req.Header.Set("X-Junk", strings.Repeat("j", 70<<10))
	p := u.Do(req)
	if p.Status != http.StatusRequestHeaderFieldsTooLarge {
		t.Errorf("70 kB of headers: status %d, want 431", p.Status)
	}
	checkSecurityHeaders(t, "431", p, true)
	tok := u.Token("/login")
	big := url.Values{"_csrf": {tok}, "username": {"demo"}, "password": {strings.Repeat("p", 300<<10)}}
	p = u.PostForm("/login", big)
	if p.Status != http.StatusRequestEntityTooLarge {
		t.Errorf("a 300 kB form: status %d, want 413", p.Status)
	}
	checkSecurityHeaders(t, "413", p, true)
}
