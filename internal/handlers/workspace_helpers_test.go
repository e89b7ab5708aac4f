package handlers_test

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/binary"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"testing"

	_ "github.com/jackc/pgx/v5/stdlib" // the admin connection that creates each test's database

	"creditdash/internal/apptest"
)

// workspaceEngines runs fn on a dashboard whose workspace is on SQLite
// and, when CREDITDASH_TEST_POSTGRES names a server (scripts/test-postgres.sh
// sets it), on PostgreSQL too, each on an empty database of its own.
func workspaceEngines(t *testing.T, fn func(t *testing.T, opts apptest.Options)) {
	t.Run("sqlite", func(t *testing.T) { fn(t, apptest.Options{}) })
	t.Run("postgres", func(t *testing.T) {
		base := os.Getenv("CREDITDASH_TEST_POSTGRES")
		if base == "" {
			if os.Getenv("POSTGRES_TESTS") == "require" {
				t.Fatal("PostgreSQL tests are required but CREDITDASH_TEST_POSTGRES is not set")
			}
			t.Skip("skipping PostgreSQL: CREDITDASH_TEST_POSTGRES is not set (scripts/test-postgres.sh sets it)")
		}
		fn(t, apptest.Options{DatabaseURL: testDatabase(t, base)})
	})
}

// testDatabase creates a database for the test and drops it afterwards.
func testDatabase(t *testing.T, base string) string {
	t.Helper()
	u, err := url.Parse(base)
	if err != nil {
		t.Fatal("CREDITDASH_TEST_POSTGRES is not a URL")
	}
	var b [8]byte
	_, _ = rand.Read(b[:])
	name := fmt.Sprintf("creditdash_handlers_%d", binary.LittleEndian.Uint64(b[:])>>1)
	admin, err := sql.Open("pgx", base)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if _, err := admin.ExecContext(ctx, "CREATE DATABASE "+name); err != nil {
		admin.Close()
		t.Fatalf("create database: %v", err)
	}
	admin.Close()
	t.Cleanup(func() {
		admin, err := sql.Open("pgx", base)
		if err != nil {
			t.Error(err)
			return
		}
		defer admin.Close()
		if _, err := admin.ExecContext(ctx, "DROP DATABASE "+name+" WITH (FORCE)"); err != nil {
			t.Errorf("drop database: %v", err)
		}
	})
	u.Path = "/" + name
	return u.String()
}

// wsUser is a signed-in user with the CSRF token its forms carry.
type wsUser struct {
	*apptest.User
	t     *testing.T
	token string
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
