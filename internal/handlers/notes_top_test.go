package handlers_test

import (
	"strings"
	"testing"

	"creditdash/internal/apptest"
)

// TestNotesNearTheTopFolded: the overview shows the analyst's notes before
// the scores; beyond the newest two they fold, and a long note shows its
// start with the rest a click away.
func TestNotesNearTheTopFolded(t *testing.T) {
	app := apptest.Start(t, apptest.Options{})
	u := signInWS(t, app, "demo")
	long := strings.Repeat("Liquidity is thin; watch the revolver. ", 20)
	for _, text := range []string{"first note", "second note", long} {
		mustRedirect(t, "add note", u.post("/businesses/1001/notes", "text", text))
	}
	p := u.Get("/businesses/1001")
	html, _ := p.Doc.Find("main").Html()
	notes, scores := strings.Index(html, `id="notes"`), strings.Index(html, `id="score-history"`)
	if notes < 0 || scores < 0 || notes > scores {
		t.Errorf("notes at %d, score history at %d: want the notes before the charts", notes, scores)
	}
	if n := p.Doc.Find("#notes > ol.note-list > li").Length(); n != 2 {
		t.Errorf("%d notes listed open, want the newest 2", n)
	}
	if got := p.Text("#notes details.notes-more > summary"); got != "1 older note" {
		t.Errorf("folded notes summary = %q, want \"1 older note\"", got)
	}
	newest := p.Doc.Find("#notes > ol.note-list > li").First()
	if preview := newest.Find("p.note-text").First().Text(); len([]rune(preview)) > 301 || !strings.HasSuffix(preview, "…") {
		t.Errorf("the long note's preview = %d runes, want its start", len([]rune(preview)))
	}
	if whole := newest.Find("details.note-whole p.note-text").Text(); whole != long {
		t.Error("the long note is not there whole behind \"Read the whole note\"")
	}
}
