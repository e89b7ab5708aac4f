package handlers_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"

	"creditdash/internal/apptest"
	"creditdash/internal/roles"
)

// decisionApp is one app with decisionApps' roles, on SQLite (the store's
// own tests cover PostgreSQL).
func decisionApp(t *testing.T) *apptest.App {
	t.Helper()
	table, err := roles.Parse("test", "demo=manager:250000,ordinary=manager:1000000,developer=analyst:10000,trade=auditor", 0)
	if err != nil {
		t.Fatal(err)
	}
	return apptest.Start(t, apptest.Options{Roles: table})
}

// TestApproveLessThanAsked: the approve form offers the amount asked; more
// than asked, or an amount that is not one, is refused (422) keeping what
// was typed and the note; a smaller amount becomes the limit in force,
// shown on the request, its steps and the account, and the audit trail
// names both figures. A decline still needs its reason.
func TestApproveLessThanAsked(t *testing.T) {
	app := decisionApp(t)
	dev := signInAccounts(t, app, "developer")
	importLedger(t, dev, "aging.csv", []byte(ledgerCSV), "2026-09-30")
	to := mustRedirect(t, "request", dev.post("/businesses/1001/limit-requests", "account", "A-1", "amount", "50,000", "reason", "New contract"))
	boss := signInAccounts(t, app, "ordinary")
	if v, _ := boss.Get(to).Doc.Find("#decide #approve-amount").Attr("value"); v != "50,000" {
		t.Errorf("the approve form offers %q, want the 50,000 asked", v)
	}
	for _, typed := range []string{"50,000.01", "12,5", "-1"} {
		p := boss.post(to+"/approve", "amount", typed, "note", "Kept note")
		v, _ := p.Doc.Find("#approve-amount").Attr("value")
		if p.Status != http.StatusUnprocessableEntity || p.Text("#approve-amount-error") == "" || v != typed ||
			p.Text("#approve-note") != "Kept note" || p.Text("#status") != "Waiting for approval" {
			t.Errorf("approving %q: %d, error %q, kept %q / %q, status %q", typed, p.Status, p.Text("#approve-amount-error"), v,
				p.Text("#approve-note"), p.Text("#status"))
		}
	}
	if p := boss.post(to+"/approve", "amount", "60000", "note", "x"); !strings.Contains(p.Text("#approve-amount-error"), "at most the $50,000 asked") {
		t.Errorf("more than asked: %q", p.Text("#approve-amount-error"))
	}
	if p := boss.post(to+"/decline", "note", ""); p.Status != http.StatusUnprocessableEntity || !strings.Contains(p.Text("#note-error"), "declined") {
		t.Errorf("a decline without a reason: %d, %q", p.Status, p.Text("#note-error"))
	}
	mustRedirect(t, "approve less", boss.post(to+"/approve", "amount", "30,000", "note", "A step up first"))
	p := dev.Get(to)
	if p.Text("#status") != "Approved" || p.Text("#approved") != "$30,000 of $50,000 asked" ||
		!strings.Contains(p.Text("#steps"), "Approved $30,000 of $50,000 asked by ordinary") {
		t.Errorf("approved less: status %q, approved %q, steps %q", p.Text("#status"), p.Text("#approved"), p.Text("#steps"))
	}
	if row := dev.Get("/accounts").Doc.Find("table.accounts tbody tr").FilterFunction(func(_ int, s *goquery.Selection) bool {
		return strings.Contains(s.Text(), "A-1")
	}).Text(); !strings.Contains(row, "30,000") {
		t.Errorf("the account's row after approving 30,000: %q", row)
	}
	trade := app.SignIn(t, "trade")
	if row := trade.Get("/audit?action=limit&account=A-1").Text("table.audit tbody tr:first-child"); !strings.Contains(row, "30000 of 50000 asked") {
		t.Errorf("the limit change logged as %q", row)
	}
	if row := trade.Get("/audit?action=approve&account=A-1").Text("table.audit tbody tr:first-child"); !strings.Contains(row, "for 50000, approved 30000") {
		t.Errorf("the approval logged as %q", row)
	}
}
