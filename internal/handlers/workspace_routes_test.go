package handlers_test

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"creditdash/internal/apptest"
	"creditdash/internal/store"
)

// Every workspace form refuses a post without its token (403) and
// changes nothing.
func TestWorkspaceFormsNeedCSRF(t *testing.T) {
	app := apptest.Start(t, apptest.Options{})
	u := signInWS(t, app, "demo")
	for _, path := range []string{
		"/businesses/1001/watch", "/businesses/1001/unwatch", "/businesses/1001/notes",
		"/notes/1/edit", "/notes/1/delete", "/alerts/rules", "/alerts/rules/1/delete",
		"/alerts/1/read", "/alerts/read-all", "/businesses/1001/snapshots", "/snapshots/1/delete", "/settings/workspace",
	} {
		p := u.PostForm(path, url.Values{"text": {"x"}, "confirm": {"DELETE"}, "scope": {"portfolio"},
			"score": {"risk"}, "condition": {"below"}, "threshold": {"3"}})
		if p.Status != http.StatusForbidden {
			t.Errorf("POST %s without a token: status = %d, want 403", path, p.Status)
		}
	}
	if n := u.Get("/watchlist").Doc.Find("table.watchlist tbody tr").Length(); n != 0 {
		t.Error("a refused post changed the watch list")
	}
	if n := u.Get("/alerts").Doc.Find("ul.rules li").Length(); n != 0 {
		t.Error("a refused post added a rule")
	}
}

// A restart (a second process on the same SQLite file) finds everything.
func TestWorkspaceSurvivesRestart(t *testing.T) {
	dir := t.TempDir()
	first := apptest.Start(t, apptest.Options{DataDir: dir})
	u := signInWS(t, first, "demo")
	mustRedirect(t, "watch", u.post("/businesses/1001/watch", "name", "Westbridge Department Stores Inc"))
	mustRedirect(t, "note", u.post("/businesses/1001/notes", "text", "kept across restarts"))
	mustRedirect(t, "rule", u.post("/alerts/rules", "scope", "business", "business", "1001", "score", "risk", "condition", "below", "threshold", "3"))
	snap := mustRedirect(t, "snapshot", u.post("/businesses/1001/snapshots"))
	if err := first.Store.Close(); err != nil {
		t.Fatal(err)
	}

	second := apptest.Start(t, apptest.Options{DataDir: dir})
	v := signInWS(t, second, "demo")
	if !strings.Contains(v.Get("/watchlist").Text("table.watchlist"), "Westbridge") {
		t.Error("the watch list is gone after a restart")
	}
	if !strings.Contains(v.Get("/businesses/1001").Text("#notes"), "kept across restarts") {
		t.Error("the note is gone after a restart")
	}
	if !strings.Contains(v.Get("/alerts").Text("ul.rules"), "Risk below 3") {
		t.Error("the rule is gone after a restart")
	}
	if p := v.Get(snap); p.Status != http.StatusOK {
		t.Errorf("the snapshot is gone after a restart: %d", p.Status)
	}
}

func TestWorkspaceDeleteEverything(t *testing.T) {
	workspaceEngines(t, func(t *testing.T, opts apptest.Options) {
		app := apptest.Start(t, opts)
		u := signInWS(t, app, "demo")
		other := signInWS(t, app, "developer")
		mustRedirect(t, "watch", u.post("/businesses/1001/watch"))
		mustRedirect(t, "note", u.post("/businesses/1001/notes", "text", "to go"))
		mustRedirect(t, "other's watch", other.post("/businesses/1001/watch"))

		p := u.Get("/settings/workspace")
		if href, _ := p.Doc.Find(`a[href="/settings/workspace?confirm=1"]`).Attr("href"); href == "" {
			t.Fatal("no way to the confirmation")
		}
		p = u.Get("/settings/workspace?confirm=1")
		if p.Doc.Find("form.delete-form").Length() != 1 {
			t.Fatal("no confirmation form")
		}
		p = u.post("/settings/workspace", "confirm", "delete please")
		if p.Status != http.StatusUnprocessableEntity || p.Text("form.delete-form .form-error") == "" {
			t.Fatalf("a wrong confirmation: status = %d, want 422 with a message", p.Status)
		}
		if v, _ := p.Doc.Find("#confirm").Attr("value"); v != "delete please" {
			t.Errorf("the typed confirmation = %q, not kept", v)
		}
		if n := u.Get("/watchlist").Doc.Find("table.watchlist tbody tr").Length(); n != 1 {
			t.Fatal("a wrong confirmation deleted something")
		}
		if p := u.Get("/settings/workspace?deleted=1"); strings.Contains(p.Text("main"), "was deleted") {
			t.Error("a hand-made link claims a deletion")
		}
		mustRedirect(t, "delete", u.post("/settings/workspace", "confirm", "DELETE"))
		if p := u.Get("/settings/workspace"); !strings.Contains(p.Text("main"), "All your workspace data was deleted.") {
			t.Error("no word of the deletion after it")
		}
		if p := u.Get("/settings/workspace"); strings.Contains(p.Text("main"), "was deleted") {
			t.Error("the deletion is told again on the next visit")
		}
		if n := u.Get("/watchlist").Doc.Find("table.watchlist tbody tr").Length(); n != 0 {
			t.Error("the watch list survived deleting everything")
		}
		if strings.Contains(u.Get("/notes.csv").Body, "to go") {
			t.Error("the notes survived deleting everything")
		}
		if n := other.Get("/watchlist").Doc.Find("table.watchlist tbody tr").Length(); n != 1 {
			t.Error("deleting one analyst's workspace touched another's")
		}
	})
}

// The home page marks the businesses whose scores changed since the
// analyst's previous visit, and only then.
func TestWorkspaceChangedSinceLastLooked(t *testing.T) {
	app := apptest.Start(t, apptest.Options{})
	u := signInWS(t, app, "demo")
	if p := u.Get("/"); p.Doc.Find(".changed-since").Length() != 0 {
		t.Error("a first visit marks changes")
	}
	p := u.Get("/")
	if !strings.Contains(p.Text(".changed-since"), "No Pay score or Z″-Score changed") {
		t.Errorf("a second visit: %q", p.Text(".changed-since"))
	}
	// Pretend demo saw another Pay score for 1001 before.
	a := store.Analyst{Service: apptest.WorkspaceService, User: "demo"}
	if err := app.Store.MarkSeen(context.Background(), a, []store.Reading{{BusinessID: 1001, Score: store.ScorePay, Value: 3}}); err != nil {
		t.Fatal(err)
	}
	p = u.Get("/")
	item := p.Text(".changed-since li")
	if !strings.Contains(item, "Westbridge") || !strings.Contains(item, "Better") || !strings.Contains(item, "Pay score 3 →") {
		t.Errorf("changed mark = %q", item)
	}
	// Seen now: the next visit is quiet again.
	if p := u.Get("/"); p.Doc.Find(".changed-since li").Length() != 0 {
		t.Error("the mark stays after it was seen")
	}
}
