package handlers_test

import (
	"net/http"
	"strconv"
	"strings"
	"testing"

	"creditdash/internal/apptest"
	"creditdash/internal/store"
)

func TestWorkspaceNotes(t *testing.T) {
	workspaceEngines(t, func(t *testing.T, opts apptest.Options) {
		app := apptest.Start(t, opts)
		u := signInWS(t, app, "demo")
		hostile := "<script>alert(1)</script> & <b onclick=x>bold</b>\nsecond line"

		to := mustRedirect(t, "add note", u.post("/businesses/1001/notes", "text", hostile))
		if to != "/businesses/1001#notes" {
			t.Errorf("note returns to %q", to)
		}
		mustRedirect(t, "add second note", u.post("/businesses/1001/notes", "text", "newer"))
		p := u.Get("/businesses/1001")
		notes := p.Doc.Find("#notes .note-text")
		if notes.Length() != 2 {
			t.Fatalf("%d notes shown, want 2", notes.Length())
		}
		if first := notes.First().Text(); first != "newer" {
			t.Errorf("first note = %q, want the newest", first)
		}
		// Shown as text: the markup is inert, the line break kept.
		if got := notes.Eq(1).Text(); got != hostile {
			t.Errorf("note text = %q, want %q", got, hostile)
		}
		if p.Doc.Find("#notes script, #notes b, #notes [onclick]").Length() != 0 {
			t.Error("a note's markup became elements")
		}
		if meta := p.Text("#notes .note-meta"); !strings.Contains(meta, "demo") {
			t.Errorf("note meta = %q, want the author", meta)
		}
		checkNoInline(t, "/businesses/1001 with notes", p)

		// Too long: 422, the overview again with the text kept, nothing saved.
		long := strings.Repeat("x", store.MaxNoteLen+1)
		p = u.post("/businesses/1001/notes", "text", long)
		if p.Status != http.StatusUnprocessableEntity {
			t.Fatalf("a long note: status = %d, want 422", p.Status)
		}
		if p.Doc.Find("#note-text").Text() != long || p.Text("#notes .form-error") == "" {
			t.Error("a long note: the typed text or the message is missing")
		}
		if n := u.Get("/businesses/1001").Doc.Find("#notes .note").Length(); n != 2 {
			t.Errorf("after a refused note: %d notes, want 2", n)
		}
		// An empty note is refused too, with the store's words.
		if p := u.post("/businesses/1001/notes", "text", "  "); p.Status != http.StatusUnprocessableEntity {
			t.Errorf("an empty note: status = %d, want 422", p.Status)
		}

		// Edit and delete one's own.
		p = u.Get("/businesses/1001")
		action, _ := p.Doc.Find("#notes .note-edit form").First().Attr("action")
		id := strings.Split(action, "/")[2]
		mustRedirect(t, "edit", u.post("/notes/"+id+"/edit", "text", "edited"))
		p = u.Get("/businesses/1001")
		if got := p.Doc.Find("#notes .note-text").First().Text(); got != "edited" {
			t.Errorf("after editing: %q", got)
		}
		if !strings.Contains(p.Text("#notes .note-meta"), "edited") {
			t.Error("an edited note does not say so")
		}
		p = u.post("/notes/"+id+"/edit", "text", long)
		if p.Status != http.StatusUnprocessableEntity || p.Doc.Find("#note-text").Text() != long {
			t.Errorf("a long edit: status %d, text kept %v", p.Status, p.Doc.Find("#note-text").Text() == long)
		}
		// The browser stops a paste at the limit, before the form limit
		// would refuse the whole request and the text with it.
		if max, _ := u.Get("/notes/" + id + "/edit").Doc.Find("#note-text").Attr("maxlength"); max != strconv.Itoa(store.MaxNoteLen) {
			t.Errorf("the edit form's textarea has maxlength %q, want %d", max, store.MaxNoteLen)
		}

		csv := u.Get("/notes.csv")
		if csv.Status != http.StatusOK || !strings.HasPrefix(csv.Header.Get("Content-Type"), "text/csv") ||
			!strings.Contains(csv.Header.Get("Content-Disposition"), "notes") {
			t.Errorf("GET /notes.csv: %d %q %q", csv.Status, csv.Header.Get("Content-Type"), csv.Header.Get("Content-Disposition"))
		}
		if !strings.Contains(csv.Body, "edited") || !strings.Contains(csv.Body, "second line") {
			t.Errorf("notes.csv = %q", csv.Body)
		}
		// Each row starts with the note's link, which a spreadsheet keeps
		// whole (a bare 19-digit id it would round), and which opens it.
		link := app.URL + "/notes/" + id + "/edit"
		if !strings.HasPrefix(csv.Body, "note,business_id,") || !strings.Contains(csv.Body, "\n"+link+",1001,demo,") {
			t.Errorf("notes.csv does not start the note's row with %s: %q", link, csv.Body)
		}
		if p := u.Get(strings.TrimPrefix(link, app.URL)); p.Doc.Find("#note-text").Text() != "edited" {
			t.Errorf("the link in notes.csv does not open the note: status %d", p.Status)
		}

		// Another analyst sees none of it and cannot touch it.
		other := signInWS(t, app, "developer")
		for _, path := range []string{"/notes/" + id + "/edit", "/notes/" + id + "/delete"} {
			if p := other.post(path, "text", "mine now"); p.Status != http.StatusNotFound {
				t.Errorf("another analyst POST %s: status = %d, want 404", path, p.Status)
			}
		}
		if body := other.Get("/notes.csv").Body; strings.Contains(body, "edited") {
			t.Error("another analyst's notes.csv holds demo's note")
		}

		mustRedirect(t, "delete", u.post("/notes/"+id+"/delete"))
		if n := u.Get("/businesses/1001").Doc.Find("#notes .note").Length(); n != 1 {
			t.Errorf("after deleting: %d notes, want 1", n)
		}
		if p := u.post("/notes/" + id + "/delete"); p.Status != http.StatusNotFound {
			t.Errorf("deleting again: status = %d, want 404", p.Status)
		}
		if p := u.post("/notes/abc/edit", "text", "x"); p.Status != http.StatusNotFound {
			t.Errorf("POST /notes/abc/edit: status = %d, want 404", p.Status)
		}
	})
}
