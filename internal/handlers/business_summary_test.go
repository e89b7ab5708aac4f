package handlers_test

import (
	"net/http"
	"strings"
	"testing"

	"creditdash/internal/apptest"
)

// TestCreditSummary: the report's Print button leads to the business's
// credit summary: its header, the four scores with zones and probability,
// the payment trend, Z″ with its ratios and the analyst's notes, each
// section dated and linked to the report's tab; a business in the news
// for a bankruptcy says so; an unknown business is a 404 and a malformed
// id refused, never a 500.
func TestCreditSummary(t *testing.T) {
	app := apptest.Start(t, apptest.Options{})
	u := signInWS(t, app, "demo")
	mustRedirect(t, "note", u.post("/businesses/1001/notes", "text", "Visited the Columbus store; shelves full."))
	report := u.Get("/businesses/1001")
	href, _ := report.Doc.Find("a.print-summary").Attr("href")
	if href != "/businesses/1001/summary" {
		t.Fatalf("the report's print button leads to %q", href)
	}
	p := u.Get(href)
	if p.Status != http.StatusOK {
		t.Fatalf("GET %s: status %d", href, p.Status)
	}
	for _, c := range []struct{ sel, want string }{
		{"h1", "Credit summary: Westbridge"},
		{"#sheet-industry", "Industry:"},
		{"#sheet-score-table", "Pay score"},
		{"#sheet-score-table", "chance of bankruptcy"},
		{"#sheet-trend", "Oct 2026"},
		{"#sheet-worst", "DBT"},
		{"#sheet-z-line", "Z″"},
		{"#sheet-ratios", "Working capital / total assets"},
		{"#sheet-notes-part", "Visited the Columbus store; shelves full."},
	} {
		if got := p.Text(c.sel); p.Doc.Find(c.sel).Length() == 0 || !strings.Contains(got, c.want) {
			t.Errorf("summary %s = %q, want it to hold %q", c.sel, got, c.want)
		}
	}
	if n := p.Doc.Find(".sheet-source time[datetime]").Length(); n != 4 {
		t.Errorf("%d sections dated, want 4 (scores, payments, statements, notes)", n)
	}
	if p.Doc.Find(".sheet-problem").Length() != 0 {
		t.Errorf("problems on a full budget: %q", p.Text(".sheet-problem"))
	}
	if n := p.Doc.Find("article.sheet form").Length(); n != 0 {
		t.Errorf("the summary holds %d forms", n)
	}

	// The folder's news read once, as on the report, names 1004's filing.
	mustStatus(t, "/portfolio/folders/104", u.Get("/portfolio/folders/104"), http.StatusOK)
	if ev := u.Get("/businesses/1004/summary"); !strings.Contains(ev.Text("#sheet-event"), "Chapter 11") ||
		!strings.Contains(ev.Text("#sheet-score-table"), "no longer") {
		t.Errorf("1004's summary: event %q, scores %q", ev.Text("#sheet-event"), ev.Text("#sheet-score-table"))
	}
	if got := u.Get("/businesses/999999/summary").Status; got != http.StatusNotFound {
		t.Errorf("unknown business: status %d, want 404", got)
	}
	if got := u.Get("/businesses/abc/summary").Status; got >= 500 || got == http.StatusOK {
		t.Errorf("malformed id: status %d, want a refusal", got)
	}
}
