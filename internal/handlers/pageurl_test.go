package handlers_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"creditdash/internal/apptest"
)

// A refused form is answered with its page, and that page's links to
// refresh, watch and share are the page's own, not the form's address,
// which is not a page of its own.
func TestRefusedFormsLinkToTheirPage(t *testing.T) {
	app := apptest.Start(t, apptest.Options{})
	u := signInWS(t, app, "demo")

	p := u.post("/businesses/1001/notes", "text", "  ")
	if p.Status != http.StatusUnprocessableEntity {
		t.Fatalf("an empty note: status %d, want 422", p.Status)
	}
	refresh, _ := p.Doc.Find(`form input[name="page"]`).Attr("value")
	back, _ := p.Doc.Find(`form input[name="back"]`).Attr("value")
	share, _ := p.Doc.Find("#share-url").Attr("value")
	if refresh != "/businesses/1001" || back != "/businesses/1001" || !strings.HasSuffix(share, "/businesses/1001") {
		t.Errorf("refused note: refresh %q, watch back %q, share %q; want each at /businesses/1001", refresh, back, share)
	}

	p = u.post("/alerts/rules", "scope", "galaxy", "score", "risk", "condition", "below", "threshold", "3")
	if p.Status != http.StatusUnprocessableEntity {
		t.Fatalf("a bad rule: status %d, want 422", p.Status)
	}
	if refresh, _ := p.Doc.Find(`form input[name="page"]`).Attr("value"); refresh != "/alerts" {
		t.Errorf("refused rule: refresh goes to %q, want /alerts", refresh)
	}
}

// A form sent after the session ended comes back, once signed in, to the
// page it was sent from, never to the form's own address.
func TestSignedOutFormReturnsToItsPage(t *testing.T) {
	app := apptest.Start(t, apptest.Options{})
	u := app.NewUser(t)
	tok := u.Token("/login")
	for _, c := range []struct {
		referer, want string
	}{
		{app.URL + "/alerts", "/login?next=%2Falerts"},
		{app.URL + "/businesses/1001/payments?load=all", "/login?next=" + url.QueryEscape("/businesses/1001/payments?load=all")},
		{"", "/login"},
		{"https://elsewhere.example/alerts", "/login"},
	} {
		req, err := http.NewRequest(http.MethodPost, app.URL+"/alerts/rules", strings.NewReader(url.Values{"_csrf": {tok}}.Encode()))
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		if c.referer != "" {
			req.Header.Set("Referer", c.referer)
		}
		p := u.Do(req)
		if p.Status != http.StatusSeeOther || p.Location() != c.want {
			t.Errorf("sent from %q: %d to %q, want 303 to %q", c.referer, p.Status, p.Location(), c.want)
		}
	}
}
