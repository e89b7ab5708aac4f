package handlers_test

import (
	"net/http"
	"strings"
	"testing"

	"creditdash/internal/apptest"
)

// With the workspace database gone, its pages say so with a 503 and that
// reports still work; a note or an edit being saved keeps its text; the
// reports still show, their notes section telling of the failure, and
// /readyz says the replica is degraded.
func TestWorkspaceDatabaseDown(t *testing.T) {
	app := apptest.Start(t, apptest.Options{})
	u := signInWS(t, app, "demo")
	mustRedirect(t, "a note", u.post("/businesses/1001/notes", "text", "first"))
	edit, _ := u.Get("/businesses/1001").Doc.Find("details.note-edit form").First().Attr("action")
	if edit == "" {
		t.Fatal("setup: no note to edit")
	}
	if err := app.Store.Close(); err != nil {
		t.Fatal(err)
	}

	for _, path := range []string{"/watchlist", "/alerts", "/snapshots", "/watchlist.csv", "/notes.csv"} {
		p := u.Get(path)
		if p.Status != http.StatusServiceUnavailable || !strings.Contains(p.Text("main"), "Reports, the portfolio and news still work") {
			t.Errorf("GET %s with the database down: status %d, main %.200q; want 503 saying reports still work", path, p.Status, p.Text("main"))
		}
	}
	for _, path := range []string{"/businesses/1001/watch", "/alerts/read-all"} {
		if p := u.post(path); p.Status != http.StatusServiceUnavailable {
			t.Errorf("POST %s with the database down: status %d, want 503", path, p.Status)
		}
	}

	p := u.post("/businesses/1001/notes", "text", "Call the CFO\nabout Q3")
	if p.Status != http.StatusServiceUnavailable || p.Doc.Find("#note-text").Text() != "Call the CFO\nabout Q3" ||
		!strings.Contains(p.Text("#notes .form-error"), "not saved") {
		t.Errorf("a note with the database down: status %d, text kept %q, message %q; want 503, the text and why",
			p.Status, p.Doc.Find("#note-text").Text(), p.Text("#notes .form-error"))
	}
	if !strings.Contains(p.Text("h1"), "Westbridge") {
		t.Errorf("the report around the refused note is missing: h1 %q", p.Text("h1"))
	}

	p = u.post(edit, "text", "Long careful rewrite\nline two")
	if p.Status != http.StatusServiceUnavailable || p.Doc.Find("#note-text").Text() != "Long careful rewrite\nline two" ||
		!strings.Contains(p.Text(".form-error"), "not saved") {
		t.Errorf("an edit with the database down: status %d, text kept %q, message %q; want 503, the text and why",
			p.Status, p.Doc.Find("#note-text").Text(), p.Text(".form-error"))
	}

	if p := waitReadyz(t, u.User, "workspace database is not answering"); p.Status != http.StatusOK || !strings.Contains(p.Body, "workspace database is not answering") {
		t.Errorf("/readyz with the database down: %d %q; want 200 saying the replica is degraded", p.Status, p.Body)
	}

	if p := u.Get("/businesses/1002"); p.Status != http.StatusOK || p.Text("#notes .problem") == "" {
		t.Errorf("the report with the database down: status %d, notes problem %q; want 200 telling of it", p.Status, p.Text("#notes .problem"))
	}
}
