package handlers_test

import (
	"net/http"
	"strings"
	"testing"

	"creditdash/internal/apptest"
)

// TestZNumbersAgree: the overview names the Z″ card's period and source,
// and Financials shows that value too, with why its statement-based
// figures differ (another period).
func TestZNumbersAgree(t *testing.T) {
	app := apptest.Start(t, apptest.Options{})
	u := app.SignIn(t, "demo")
	over := u.Get("/businesses/1004")
	mustStatus(t, "/businesses/1004", over, http.StatusOK)
	z := over.Text(`article[aria-label="Z″-Score (four-ratio)"] .value`)
	card := over.Text(`article[aria-label="Z″-Score (four-ratio)"]`)
	src := over.Text("#z-source")
	if z == "" || !strings.Contains(card, "as of Oct 2026") || !strings.Contains(src, "Z″ is for Oct 2026") || !strings.Contains(src, "the service's score history") {
		t.Errorf("Z″ %q: source line %q, want its period (Oct 2026) and source", z, src)
	}
	if href, _ := over.Doc.Find("#z-source a").Attr("href"); href != "/businesses/1004/financials#z-explained" {
		t.Errorf("the source line links to %q", href)
	}
	fin := u.Get("/businesses/1004/financials")
	line := fin.Text("#z-overview")
	if !strings.Contains(line, "Z″ "+z+" for ") || !strings.Contains(line, "another period") {
		t.Errorf("Financials' line = %q, want the overview's %s and why the statements' Z″ differs", line, z)
	}
}
