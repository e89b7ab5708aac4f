package handlers_test

import (
	"net/http"
	"strings"
	"testing"

	"creditdash/internal/apptest"
	"creditdash/internal/roles"
)

// TestRequesterSeesOutcomes: a requester's home page tells them what
// another decided of their requests (amount, who and the note), until
// they mark the outcomes seen; their e-mail digest, sent through a real
// SMTP server, tells the same.
func TestRequesterSeesOutcomes(t *testing.T) {
	table, err := roles.Parse("test", "demo=manager:250000,ordinary=manager:1000000,developer=analyst:10000,trade=auditor", 0)
	if err != nil {
		t.Fatal(err)
	}
	mb := apptest.StartMailbox(t, "", "")
	app := apptest.Start(t, apptest.Options{Roles: table, SMTPURL: mb.URL})
	dev := signInAccounts(t, app, "developer")
	importLedger(t, dev, "aging.csv", []byte(ledgerCSV), "2026-09-30")
	if dev.Get("/").Doc.Find("#outcomes").Length() != 0 {
		t.Fatal("outcomes shown before any request")
	}
	asked := mustRedirect(t, "request", dev.post("/businesses/1001/limit-requests", "account", "A-1", "amount", "50,000", "reason", "New contract"))
	big := mustRedirect(t, "request", dev.post("/businesses/1001/limit-requests", "account", "A-1", "amount", "90,000", "reason", "Bigger"))
	mustRedirect(t, "at once", dev.post("/businesses/1001/limit-requests", "account", "A-1", "amount", "5,000", "reason", "Small"))
	if dev.Get("/").Doc.Find("#outcomes").Length() != 0 {
		t.Error("a request approved at once, within the requester's authority, is told as news")
	}
	boss := signInAccounts(t, app, "ordinary")
	mustRedirect(t, "approve", boss.post(asked+"/approve", "amount", "30000", "note", "A step up first"))
	mustRedirect(t, "decline", boss.post(big+"/decline", "note", "Not before the audited accounts"))

	home := dev.Get("/")
	items := home.Doc.Find("#outcomes li")
	if items.Length() != 2 {
		t.Fatalf("%d outcomes on the home page, want 2: %q", items.Length(), home.Text("#outcomes"))
	}
	if first := items.Eq(0).Text(); !strings.Contains(first, "Declined: $90,000 asked") || !strings.Contains(first, "by ordinary") ||
		!strings.Contains(first, "Not before the audited accounts") {
		t.Errorf("the decline: %q", first)
	}
	if second := items.Eq(1).Text(); !strings.Contains(second, "Approved $30,000 of $50,000 asked") || !strings.Contains(second, "A step up first") {
		t.Errorf("the approval: %q", second)
	}
	if href, _ := items.Eq(1).Find("a").Attr("href"); href != asked {
		t.Errorf("the approval links to %q, want %q", href, asked)
	}
	if boss.Get("/").Doc.Find("#outcomes").Length() != 0 {
		t.Error("the decider is told of outcomes of requests not theirs")
	}

	subscribe(t, app, mb, dev, "dev@example.com", "off")
	mustRedirect(t, "send now", dev.post("/settings/digest/send"))
	m := mb.Wait(t, "digest", isDigest("dev@example.com"))
	for _, want := range []string{"Your limit requests decided", "Account A-1: Approved $30,000 of $50,000 asked by ordinary",
		"A step up first", "Declined: $90,000 asked by ordinary", apptest.PublicURL + asked} {
		if !strings.Contains(m.Text, want) {
			t.Errorf("the digest lacks %q:\n%s", want, m.Text)
		}
	}

	if to := mustRedirect(t, "mark seen", dev.Submit(home, "#outcomes form")); to != "/" {
		t.Errorf("marking seen leads to %q", to)
	}
	if after := dev.Get("/"); after.Doc.Find("#outcomes").Length() != 0 {
		t.Errorf("after marking seen: %q", after.Text("#outcomes"))
	}
	if p := dev.post("/decisions/outcomes/seen", "upto", "soon"); p.Status != http.StatusBadRequest {
		t.Errorf("marking with no time: %d", p.Status)
	}
}
