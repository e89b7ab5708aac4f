package handlers_test

import (
	"net/http"
	"strings"
	"testing"

	"creditdash/internal/apptest"
)

// TestReportNewsAndEvents: 1004's Chapter 11 filing, in its folder's news,
// reaches its report once that news has been fetched: a banner on every
// tab, the story in "News and events", and the Risk card no longer quoting
// a probability. The report asks the service nothing for it.
func TestReportNewsAndEvents(t *testing.T) {
	app := apptest.Start(t, apptest.Options{})
	u := app.SignIn(t, "demo")
	mustStatus(t, "/", u.Get("/"), http.StatusOK) // the folders and the industry news

	before := u.Get("/businesses/1004")
	mustStatus(t, "/businesses/1004", before, http.StatusOK)
	if before.Doc.Find("#credit-event").Length() != 0 {
		t.Error("a banner before any news was fetched")
	}
	if !strings.Contains(before.Text("#news-events .unread-feeds"), "High-risk review") {
		t.Errorf("News and events does not offer the folder not fetched: %q", before.Text("#news-events"))
	}

	mustStatus(t, "/portfolio/folders/104", u.Get("/portfolio/folders/104"), http.StatusOK)
	app.Sim.Reset()
	for _, path := range []string{"/businesses/1004", "/businesses/1004/payments", "/businesses/1004/financials", "/businesses/1004/officers"} {
		p := u.Get(path)
		mustStatus(t, path, p, http.StatusOK)
		if got := p.Text("#credit-event strong"); got != "Chapter 11 filing reported Sep 14, 2026 — from news" {
			t.Errorf("GET %s: banner = %q", path, got)
		}
	}
	over := u.Get("/businesses/1004")
	for path, n := range app.Sim.Requests()["demo"] {
		if strings.Contains(path, "News") || strings.HasSuffix(path, "/Folders") {
			t.Errorf("the report asked for %s %d times; it reads news from copies only", path, n)
		}
	}
	stories := over.Doc.Find("#news-events ul.news li")
	if stories.Length() == 0 {
		t.Fatal("News and events lists no story for 1004")
	}
	if first := stories.First().Text(); !strings.Contains(first, "Chapter 11") || !strings.Contains(first, "High-risk review") {
		t.Errorf("the first story = %q, want the filing, from the folder", strings.Join(strings.Fields(first), " "))
	}
	band := over.Text(`article[aria-label="Risk score"] .band`)
	if !strings.Contains(band, "no longer applies") || strings.Contains(band, "chance of bankruptcy") {
		t.Errorf("Risk card band = %q, want it to say the probability no longer applies", band)
	}

	// A business without an event: no banner, the probability stays.
	ok := u.Get("/businesses/1002")
	if ok.Doc.Find("#credit-event").Length() != 0 {
		t.Errorf("1002 shows a banner: %q", ok.Text("#credit-event"))
	}
	if band := ok.Text(`article[aria-label="Risk score"] .band`); !strings.Contains(band, "chance of bankruptcy") {
		t.Errorf("1002's Risk band = %q", band)
	}
}
