package handlers_test

import (
	"net/http"
	"strings"
	"testing"

	"creditdash/internal/apptest"
)

// TestLimitCalculator: caps with their rationale, the lowest binding and
// rounded down to 1,000, the band-2 warning; refused inputs keep what was
// typed (422); saved inputs give the account its implied limit.
func TestLimitCalculator(t *testing.T) {
	app := apptest.Start(t, apptest.Options{})
	u := signInAccounts(t, app, "demo")
	// 1001 is band 2 (PD 6.995 %): a 2,000 loss budget allows 28,591.85.
	p := u.Get("/businesses/1001/limit?monthly_sales=60%2C500&months_allowed=2&loss_budget=2000")
	if p.Status != http.StatusOK {
		t.Fatalf("calculator: status %d; %.300s", p.Status, p.Text("main"))
	}
	caps := p.Text(".calc-caps")
	if !strings.Contains(caps, "Trade cap: $121,000") || !strings.Contains(caps, "Loss cap: $28,592 (binds)") ||
		!strings.Contains(caps, "Loss budget 2,000 ÷ PD 6.995 % (Risk band 2") {
		t.Errorf("caps = %q", caps)
	}
	if got := p.Text("#result-title"); got != "Recommended limit: $28,000" {
		t.Errorf("result = %q, want the loss cap rounded down to $28,000", got)
	}
	if !strings.Contains(p.Text("#result"), "Risk band 2 is severe") {
		t.Error("no warning for band 2")
	}
	if !strings.Contains(caps, "Balance-sheet cap") {
		t.Error("the balance-sheet cap is not named")
	}
	bad := u.Get("/businesses/1001/limit?monthly_sales=12a&loss_budget=-5")
	if bad.Status != http.StatusUnprocessableEntity || bad.Text("#monthly_sales-error") == "" || bad.Text("#loss_budget-error") == "" {
		t.Errorf("bad inputs: status %d, errors %q / %q", bad.Status, bad.Text("#monthly_sales-error"), bad.Text("#loss_budget-error"))
	}
	if v, _ := bad.Doc.Find("#monthly_sales").Attr("value"); v != "12a" {
		t.Errorf("typed value not kept: %q", v)
	}
	// No account of 1001 yet: nothing to save for.
	if p.Doc.Find(`form[method="post"][action="/businesses/1001/limit"]`).Length() != 0 {
		t.Error("a save form without an account")
	}
	importLedger(t, u, "aging.csv", []byte(ledgerCSV), "2026-09-30")
	p = u.Get("/businesses/1001/limit?monthly_sales=60500&loss_budget=2000")
	if v, _ := p.Doc.Find("#months_allowed").Attr("value"); v != "2" {
		t.Errorf("months allowed default = %q, want 30 days ÷ 30 + 1 = 2", v)
	}
	to := mustRedirect(t, "save", u.Submit(p, `form[method="post"][action="/businesses/1001/limit"]`))
	saved := u.Get(to)
	if !strings.Contains(saved.Text(".flash"), "Inputs saved") || !strings.Contains(saved.Text(".limit-form"), "saved for account A-1 by demo") {
		t.Errorf("after saving: flash %q, note %q", saved.Text(".flash"), saved.Text(".limit-form"))
	}
	row := signInAccounts(t, app, "ordinary").Get("/accounts?sort=implied&desc=1").Text("table.accounts tbody tr:first-child")
	if !strings.Contains(row, "A-1") || !strings.Contains(row, "$28,000") {
		t.Errorf("A-1's row = %q, want the implied limit $28,000", row)
	}
	// Saving without the token is refused.
	_, fields, _ := p.Form(`form[method="post"][action="/businesses/1001/limit"]`)
	fields.Del("_csrf")
	if r := u.PostForm("/businesses/1001/limit", fields); r.Status != http.StatusForbidden {
		t.Errorf("save without CSRF: status %d", r.Status)
	}
}
