package handlers_test

import (
	"encoding/csv"
	"net/http"
	"strconv"
	"strings"
	"testing"

	"creditdash/internal/apptest"
	"creditdash/internal/store"
)

// A business with thousands of notes, up to the analyst's byte budget:
// its report shows the newest 20 with a link to older ones, notes.csv
// holds every note, and a note past the budget is refused with its text
// kept.
func TestThousandsOfNotes(t *testing.T) {
	workspaceEngines(t, func(t *testing.T, opts apptest.Options) {
		app := apptest.Start(t, opts)
		u := signInWS(t, app, "demo")
		a := store.Analyst{Service: apptest.WorkspaceService, User: "demo"}
		body := strings.Repeat("n", store.MaxNoteLen-10)
		kept := 0
		for i := range store.MaxNoteBytes/len(body) + 5 {
			if _, err := app.Store.AddNote(t.Context(), a, 1001, strconv.Itoa(i)+" "+body); err != nil {
				if !strings.Contains(err.Error(), "MB") {
					t.Fatalf("note %d: %v", i, err)
				}
				break
			}
			kept++
		}
		if kept < 2000 || kept > store.MaxNoteBytes/len(body) {
			t.Fatalf("%d notes of %d bytes kept, want the 20 MB budget's worth", kept, len(body))
		}

		p := u.Get("/businesses/1001")
		if n := p.Doc.Find("#notes .note-text:not(.note-preview)").Length(); p.Status != http.StatusOK || n != 20 {
			t.Fatalf("report: status %d, %d notes shown; want 200 and the newest 20", p.Status, n)
		}
		if len(p.Body) > 1<<20 {
			t.Errorf("the report is %d bytes with thousands of notes, want under 1 MiB", len(p.Body))
		}
		if first := p.Doc.Find("#notes .note-text:not(.note-preview)").First().Text(); !strings.HasPrefix(first, strconv.Itoa(kept-1)+" ") {
			t.Errorf("first note shown starts %.10q, want the newest, %d", first, kept-1)
		}
		older, ok := p.Doc.Find(`#notes nav.pager a[rel="next"]`).Attr("href")
		if !ok || older != "/businesses/1001?notes=2#notes" {
			t.Fatalf("older notes link %q, want page 2", older)
		}
		p2 := u.Get("/businesses/1001?notes=2")
		if first := p2.Doc.Find("#notes .note-text:not(.note-preview)").First().Text(); !strings.HasPrefix(first, strconv.Itoa(kept-21)+" ") {
			t.Errorf("page 2 starts %.10q, want note %d", first, kept-21)
		}

		dl := u.Get("/notes.csv")
		rows, err := csv.NewReader(strings.NewReader(dl.Body)).ReadAll()
		if dl.Status != http.StatusOK || err != nil || len(rows) != kept+1 {
			t.Errorf("notes.csv: status %d, %d rows, %v; want the header and %d notes", dl.Status, len(rows), err, kept)
		}

		typed := "past the budget " + strings.Repeat("b", 5000)
		refused := u.post("/businesses/1001/notes", "text", typed)
		if refused.Status != http.StatusUnprocessableEntity || refused.Text("#note-error") == "" ||
			refused.Doc.Find("#note-text").Text() != typed {
			t.Errorf("a note past the budget: status %d, message %q; want 422 with the text kept", refused.Status, refused.Text("#note-error"))
		}
	})
}
