package handlers_test

import (
	"net/http"
	"strings"
	"testing"

	"creditdash/internal/apptest"
)

// A form's address asked for with GET (Enter in the address bar after a
// refused form) leads to the form's page and changes nothing.
func TestFormAddressesLeadToTheirPages(t *testing.T) {
	app := apptest.Start(t, apptest.Options{})
	u := signInWS(t, app, "demo")
	for path, want := range map[string]string{
		"/refresh":                   "/",
		"/businesses/1001/watch":     "/businesses/1001",
		"/businesses/1001/unwatch":   "/businesses/1001",
		"/businesses/1001/notes":     "/businesses/1001#notes",
		"/businesses/1001/snapshots": "/businesses/1001",
		"/alerts/rules":              "/alerts",
		"/alerts/rules/7/delete":     "/alerts",
		"/alerts/7/read":             "/alerts",
		"/alerts/read-all":           "/alerts",
		"/snapshots/7/delete":        "/snapshots/7",
		"/notes/7/delete":            "/notes/7/edit",
	} {
		if got := mustRedirect(t, "GET "+path, u.Get(path)); got != want {
			t.Errorf("GET %s leads to %q, want %q", path, got, want)
		}
	}
	if p := u.Get("/businesses/abc/watch"); p.Status != http.StatusBadRequest {
		t.Errorf("GET /businesses/abc/watch: status %d, want 400", p.Status)
	}
	if p := u.Get("/snapshots/x/delete"); p.Status != http.StatusNotFound {
		t.Errorf("GET /snapshots/x/delete: status %d, want 404", p.Status)
	}
	if p := u.Get("/watchlist"); strings.Contains(p.Body, `href="/businesses/1001"`) {
		t.Error("GET /businesses/1001/watch put the business on the watch list")
	}
}

// A note has a page of its own: its edit form, with a way to delete it,
// for its analyst only.
func TestNoteEditPage(t *testing.T) {
	app := apptest.Start(t, apptest.Options{})
	u := signInWS(t, app, "demo")
	mustRedirect(t, "a note", u.post("/businesses/1001/notes", "text", "Ask for Q3 accounts"))
	action, ok := u.Get("/businesses/1001").Doc.Find(`details.note-edit form`).First().Attr("action")
	if !ok || !strings.HasSuffix(action, "/edit") {
		t.Fatalf("no edit form on the report (action %q)", action)
	}

	p := u.Get(action)
	if p.Status != http.StatusOK {
		t.Fatalf("GET %s: status %d, want 200", action, p.Status)
	}
	if got := p.Doc.Find("textarea#note-text").Text(); got != "Ask for Q3 accounts" {
		t.Errorf("the edit form holds %q, want the note", got)
	}
	del := strings.TrimSuffix(action, "/edit") + "/delete"
	if p.Doc.Find(`form[action="`+del+`"]`).Length() != 1 {
		t.Errorf("the note's page has no form to delete it (%s)", del)
	}
	if got := mustRedirect(t, "GET "+del, u.Get(del)); got != action {
		t.Errorf("GET %s leads to %q, want %q", del, got, action)
	}
	if p := u.Get(action); p.Status != http.StatusOK {
		t.Errorf("after GET %s the note is gone: status %d", del, p.Status)
	}

	other := app.SignIn(t, "ordinary")
	if p := other.Get(action); p.Status != http.StatusNotFound {
		t.Errorf("another analyst's GET %s: status %d, want 404", action, p.Status)
	}
}

// /logout typed or followed asks first; its button signs out. Without a
// session it leads to the sign-in form.
func TestSignOutPage(t *testing.T) {
	app := apptest.Start(t, apptest.Options{})
	u := app.SignIn(t, "demo")
	p := u.Get("/logout")
	if p.Status != http.StatusOK || !strings.Contains(p.Doc.Find("main").Text(), "signed in as demo") {
		t.Fatalf("GET /logout: status %d, want 200 naming the user; body %.300s", p.Status, p.Body)
	}
	if p := u.Get("/"); p.Status != http.StatusOK {
		t.Fatalf("GET /logout signed the user out: / answered %d", p.Status)
	}
	out := u.Submit(p, `main form[action="/logout"]`)
	if out.Status != http.StatusSeeOther || !strings.HasPrefix(out.Location(), "/login") {
		t.Fatalf("the page's Sign out: %d to %q, want 303 to /login", out.Status, out.Location())
	}
	if p := u.Get("/"); p.Status != http.StatusSeeOther {
		t.Errorf("after signing out, / answered %d, want 303 to sign in", p.Status)
	}
	if got := mustRedirect(t, "GET /logout signed out", u.Get("/logout")); got != "/login" {
		t.Errorf("GET /logout without a session leads to %q, want /login", got)
	}
}
