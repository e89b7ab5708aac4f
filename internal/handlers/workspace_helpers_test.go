package handlers_test

import (
	"net/http"
	"net/url"
	"testing"

	"creditdash/internal/apptest"
)

// workspaceEngines runs fn on a dashboard whose workspace is on SQLite
// and on PostgreSQL (skipped without scripts/test-postgres.sh's server,
// failed under POSTGRES_TESTS=require), each on a database of its own, migrated and empty.
func workspaceEngines(t *testing.T, fn func(t *testing.T, opts apptest.Options)) {
	t.Run("sqlite", func(t *testing.T) { fn(t, apptest.Options{}) })
	t.Run("postgres", func(t *testing.T) { fn(t, apptest.Options{DatabaseURL: apptest.PostgresDatabase(t)}) })
}

// wsUser is a signed-in user with the CSRF token its forms carry.
type wsUser struct {
	*apptest.User
	t      *testing.T
	token  string
	appURL string
}

func signInWS(t *testing.T, app *apptest.App, name string) *wsUser {
	t.Helper()
	u := app.SignIn(t, name)
	tok := u.Token("/settings/workspace")
	if tok == "" {
		t.Fatal("no CSRF token on /settings/workspace")
	}
	return &wsUser{User: u, t: t, token: tok}
}

// post sends a form with the token, as the page's own form would.
func (u *wsUser) post(path string, kv ...string) *apptest.Page {
	u.t.Helper()
	form := url.Values{"_csrf": {u.token}}
	for i := 0; i+1 < len(kv); i += 2 {
		form.Add(kv[i], kv[i+1])
	}
	return u.PostForm(path, form)
}

// mustRedirect checks a form's 303 and returns where it goes.
func mustRedirect(t *testing.T, what string, p *apptest.Page) string {
	t.Helper()
	if p.Status != http.StatusSeeOther {
		t.Fatalf("%s: status = %d, want 303; body: %.400s", what, p.Status, p.Body)
	}
	return p.Location()
}
