package handlers_test

import (
	"net/http"
	"net/http/httptest"
	"slices"
	"testing"
	"time"

	"creditdash/internal/apptest"
	"creditdash/internal/handlers"
	"creditdash/internal/session"
	"creditdash/internal/upstream"
)

// rememberingApp starts a dashboard on the named service (empty: the
// default one) with a recording service, so a test sees which browser
// key each sign-in sent.
func rememberingApp(t *testing.T, service string) (*apptest.App, *recording) {
	t.Helper()
	rec := &recording{keys: &secrets{}}
	app := apptest.Start(t, apptest.Options{ServiceName: service,
		WrapService: func(c *upstream.Client) handlers.Service {
			rec.Client = c
			return rec
		}})
	return app, rec
}

// rememberedCookie signs user in on app with "remember this browser"
// ticked and returns the cookie it left.
func rememberedCookie(t *testing.T, app *apptest.App, user string) *http.Cookie {
	t.Helper()
	u := app.NewUser(t)
	sendCode(t, u, startSignIn(t, u, user, ""), code(t, app, user), true)
	c := loginCookie(t, app, u, "creditdash_browser")
	if c == nil {
		t.Fatalf("remember ticked for %s: no creditdash_browser cookie", user)
	}
	return c
}

// A remembered-browser cookie carries the service it was earned on: a
// deployment on another service with the same SESSION_SECRET, and any
// deployment given a cookie that names no service (made before cookies
// named one), send no browser key and ask for the code, as they refuse
// such a session cookie.
func TestRememberedBrowserOfAnotherServiceIsRefused(t *testing.T) {
	a, _ := rememberingApp(t, "")
	b, rec := rememberingApp(t, "another-service")
	signInWith := func(c *http.Cookie) string {
		t.Helper()
		u := b.NewUser(t)
		u.SetCookies([]*http.Cookie{{Name: c.Name, Value: c.Value, Path: "/login"}})
		if p := u.Login("secure", "demo", ""); p.Status != http.StatusSeeOther {
			t.Fatalf("sign in as secure on b: status %d, want 303", p.Status)
		}
		return rec.lastSent()
	}
	if signInWith(rememberedCookie(t, b, "secure")) == "" {
		t.Fatal("b's own remembered browser sent no key on b: the control fails")
	}
	if key := signInWith(rememberedCookie(t, a, "secure")); key != "" {
		t.Errorf("a's remembered browser sent its key %q on b", key)
	}

	// The same secret and user, no service named: a cookie of before.
	old, err := session.NewStore([]string{apptest.TestSecret}, false, 12*time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	w := httptest.NewRecorder()
	if err := old.SaveBrowserKey(w, "secure", "key-of-no-service"); err != nil {
		t.Fatal(err)
	}
	i := slices.IndexFunc(w.Result().Cookies(), func(c *http.Cookie) bool { return c.Name == "creditdash_browser" })
	if i < 0 {
		t.Fatal("SaveBrowserKey set no creditdash_browser cookie")
	}
	if key := signInWith(w.Result().Cookies()[i]); key != "" {
		t.Errorf("a remembered browser naming no service sent its key %q on b", key)
	}
}
