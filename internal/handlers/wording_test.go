package handlers_test

import (
	"net/http"
	"strings"
	"testing"

	"creditdash/internal/apptest"
)

// TestPlainWording: the import preview says what it read in one sentence
// without stray separators; an account the ledger gave no name is listed
// by its number alone ("For account A-9."), never "A-9 · ."; the report's
// account tile reads "owed, ledger of …" in lower case; and the import's
// audit entry says "skipped", as the import itself does.
func TestPlainWording(t *testing.T) {
	app := apptest.Start(t, apptest.Options{})
	u := signInAccounts(t, app, "demo")
	p := u.upload("aging.csv", []byte(ledgerCSV), "2026-09-30")
	if p.Status != http.StatusOK {
		t.Fatalf("preview: status %d", p.Status)
	}
	got := p.Text("#preview-title + p")
	if !strings.HasPrefix(got, "CSV, semicolon separated, UTF-8; headers on row 1; 3 data rows.") || strings.Contains(got, " ,") || strings.Contains(got, " ;") {
		t.Errorf("preview sentence = %q", got)
	}
	importLedger(t, u, "aging.csv", []byte(ledgerCSV+"A-9;;1009;100;100;0;1.000,00;30\n"), "2026-09-30")
	if row := u.Get("/audit?action=ledger-import").Text("table.audit tbody tr"); !strings.Contains(row, "1 row skipped") || strings.Contains(row, "refused") {
		t.Errorf("import's audit entry = %q, want skipped", row)
	}
	report := u.Get("/businesses/1009")
	if got := strings.TrimSpace(report.Doc.Find(".account-tile .request-form p.muted").First().Text()); got != "For account A-9." {
		t.Errorf("request form of a nameless account = %q, want For account A-9.", got)
	}
	if got := report.Text(".account-tile .zone-word"); !strings.HasPrefix(got, "owed, ledger of 2026-09-30") {
		t.Errorf("account tile = %q", got)
	}
	calc := u.Get("/businesses/1009/limit")
	if strings.Contains(calc.Body, "A-9 · <") || strings.Contains(calc.Text("main"), "A-9 · .") {
		t.Error("the calculator lists the nameless account with a dangling separator")
	}
}
