package handlers_test

import (
	"net/http"
	"testing"

	"creditdash/internal/apptest"
)

// TestAuditorSeesNoFormsItCannotUse: an auditor's pages leave out every
// form the server would refuse it (upload, save, note, watch, dated copy,
// rules, digest, category, refresh, fetch scores) and say why once, while
// an analyst's same pages have them; the server still refuses the
// auditor's posts.
func TestAuditorSeesNoFormsItCannotUse(t *testing.T) {
	app := apptest.Start(t, apptest.Options{})
	dev := signInAccounts(t, app, "developer")
	importLedger(t, dev, "aging.csv", []byte(ledgerCSV), "2026-09-30")
	auditor := signInAccounts(t, app, "trade")
	for _, c := range []struct{ path, form string }{
		{"/businesses/1001", "form.note-form"},
		{"/businesses/1001", "form.watch-form"},
		{"/businesses/1001", "form.snapshot-form"},
		{"/accounts/import", "form.import-form"},
		{"/accounts", `a[href="/accounts/import"]`},
		{"/businesses/1001/limit?monthly_sales=60500&loss_budget=2000", `form[method="post"][action="/businesses/1001/limit"]`},
		{"/alerts", "form#rule-form"},
		{"/settings/digest", `form[action="/settings/digest"]`},
		{"/settings/supplier-category", `form[action="/settings/supplier-category"]`},
		{"/refresh-plan", `form[action="/refresh-plan"]`},
	} {
		if p := dev.Get(c.path); p.Doc.Find(c.form).Length() == 0 {
			t.Errorf("GET %s as an analyst: no %s (status %d)", c.path, c.form, p.Status)
		}
		p := auditor.Get(c.path)
		mustStatus(t, c.path, p, http.StatusOK)
		if p.Doc.Find(c.form).Length() != 0 {
			t.Errorf("GET %s as an auditor: %s shown", c.path, c.form)
		}
	}
	if p := auditor.Get("/accounts/import"); p.Doc.Find(".read-only-note").Length() != 1 {
		t.Errorf("the import page does not tell the auditor why it has no form: %q", p.Text("main"))
	}
	for _, path := range []string{"/businesses/1001/notes", "/accounts/import", "/settings/supplier-category", "/refresh-plan"} {
		if p := auditor.post(path, "text", "x", "category", "36"); p.Status != http.StatusForbidden {
			t.Errorf("POST %s as an auditor: status %d, want 403", path, p.Status)
		}
	}
}
