package handlers_test

import (
	"net/http"
	"testing"

	"github.com/PuerkitoBio/goquery"
)

// TestErrorPageLinksBack: an error page links back to the page of this
// site the user came from (a refused decision to the request, a missing
// request to the list), and never to another site, whatever the Referer
// says.
func TestErrorPageLinksBack(t *testing.T) {
	app := decisionApp(t)
	dev := signInAccounts(t, app, "developer")
	importLedger(t, dev, "aging.csv", []byte(ledgerCSV), "2026-09-30")
	to := mustRedirect(t, "request", dev.post("/businesses/1001/limit-requests", "account", "A-1", "amount", "50,000", "reason", "New contract"))

	dev.Header.Set("Referer", app.URL+to)
	refused := dev.post(to+"/approve", "note", "mine")
	if href, _ := refused.Doc.Find("#problem-back").Attr("href"); refused.Status != http.StatusForbidden || href != to {
		t.Errorf("a refused approval: %d, back to %q, want %q", refused.Status, href, to)
	}
	dev.Header.Set("Referer", app.URL+"/decisions?x=1")
	if p := dev.Get("/decisions/999"); p.Status != http.StatusNotFound || attr(p.Doc.Find("#problem-back"), "href") != "/decisions?x=1" {
		t.Errorf("a missing request: %d, back to %q", p.Status, attr(p.Doc.Find("#problem-back"), "href"))
	}
	for _, ref := range []string{
		"https://evil.example/decisions",
		app.URL + "//evil.example/x",
		app.URL + "/\\evil.example/x",
		"javascript:alert(1)",
		"//evil.example/",
		app.URL + "/decisions/999", // the page itself
		"",
	} {
		dev.Header.Set("Referer", ref)
		p := dev.Get("/decisions/999")
		if p.Status != http.StatusNotFound || p.Doc.Find("#problem-back").Length() != 0 {
			t.Errorf("Referer %q: %d, back to %q", ref, p.Status, attr(p.Doc.Find("#problem-back"), "href"))
		}
	}
}

// attr is the attribute of the selection's first element, "" without one.
func attr(s *goquery.Selection, name string) string {
	v, _ := s.Attr(name)
	return v
}
