package handlers_test

import (
	"net/http"
	"strings"
	"testing"

	"creditdash/internal/apptest"
)

// Behind a balancer the request's Host may name a replica: with PUBLIC_URL
// set, the share link of a report and the links of notes.csv name the site.
func TestPublicURLNamesEveryAbsoluteLink(t *testing.T) {
	const site = "https://credit.example.test:8443"
	app := apptest.Start(t, apptest.Options{PublicURL: site + "/"})
	u := signInWS(t, app, "demo")

	p := u.Get("/businesses/1001/payments")
	share, _ := p.Doc.Find("#share-url").Attr("value")
	if p.Status != http.StatusOK || share != site+"/businesses/1001/payments" {
		t.Errorf("share link %q (status %d); want %s/businesses/1001/payments", share, p.Status, site)
	}

	mustRedirect(t, "a note", u.post("/businesses/1001/notes", "text", "call back"))
	csv := u.Get("/notes.csv")
	if !strings.Contains(csv.Body, "\n"+site+"/notes/") || strings.Contains(csv.Body, app.URL) {
		t.Errorf("notes.csv links do not name %s: %q", site, csv.Body)
	}
}

// Without PUBLIC_URL the links keep the request's Host, port included.
func TestShareLinkKeepsTheRequestsPort(t *testing.T) {
	app := apptest.Start(t, apptest.Options{})
	u := app.SignIn(t, "demo")
	share, _ := u.Get("/businesses/1001").Doc.Find("#share-url").Attr("value")
	if share != app.URL+"/businesses/1001" {
		t.Errorf("share link %q; want %s/businesses/1001", share, app.URL)
	}
}
