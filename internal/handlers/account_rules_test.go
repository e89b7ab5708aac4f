package handlers_test

import (
	"net/http"
	"strings"
	"testing"

	"creditdash/internal/apptest"
)

// agedLedgerCSV has one account mostly over 90 days (Harlow, 60 %) and one
// current (Pelham), as a team's aging export gives them.
const agedLedgerCSV = "Customer No.;Name;Total Due;Current;1-30;Over 90\n" +
	"C-201;Harlow Fixings Ltd;12.500,00;5.000,00;0,00;7.500,00\n" +
	"C-202;Pelham Joinery;8.000,00;8.000,00;0,00;0,00\n"

// A rule on the team's accounts is offered by the form, refuses a bad
// percentage with 422 keeping what was typed, and puts the matching
// account with its balance into the digest preview, the other not.
func TestAccountRuleInDigestPreview(t *testing.T) {
	app := apptest.Start(t, apptest.Options{})
	u := signInAccounts(t, app, "demo")
	importLedger(t, u, "aging.csv", []byte(agedLedgerCSV), "2026-10-31")
	if n := u.Get("/alerts").Doc.Find(`select[name=scope] option[value=accounts]`).Length(); n != 1 {
		t.Fatalf("the rule form offers the accounts scope %d times, want once", n)
	}
	bad := u.post("/alerts/rules", "scope", "accounts", "condition", "over90_above", "threshold", "150%")
	if bad.Status != http.StatusUnprocessableEntity || !strings.Contains(bad.Text(".form-error"), "percentage") {
		t.Fatalf("share over 90 days above 150 %%: status %d, message %q; want 422 on the percentage", bad.Status, bad.Text(".form-error"))
	}
	if v, _ := bad.Doc.Find("#rule-threshold").Attr("value"); v != "150%" {
		t.Errorf("the typed threshold was not kept: %q", v)
	}
	wrong := u.post("/alerts/rules", "scope", "portfolio", "condition", "over_limit")
	if wrong.Status != http.StatusUnprocessableEntity || !strings.Contains(wrong.Text(".form-error"), "team's accounts") {
		t.Errorf("over limit on the portfolio: status %d, message %q; want 422 naming the accounts scope", wrong.Status, wrong.Text(".form-error"))
	}
	mustRedirect(t, "the accounts rule", u.post("/alerts/rules", "scope", "accounts", "condition", "over90_above", "threshold", "50"))
	if got := u.Get("/alerts").Text("main"); !strings.Contains(got, "share of balance over 90 days above 50 % on any of the team's accounts") {
		t.Errorf("the rule is not listed in words: %s", got)
	}
	p := u.Get("/digest/preview")
	if p.Status != http.StatusOK {
		t.Fatalf("GET /digest/preview: status = %d", p.Status)
	}
	// The section runs from its heading to the next (the bridge's); the
	// reviews above it list every account.
	_, got, ok := strings.Cut(p.Text("#digest-preview"), "Accounts your rules watch")
	got, _, _ = strings.Cut(got, "Change in expected loss")
	if !ok || !strings.Contains(got, "Account C-201, Harlow Fixings Ltd: balance $12,500, no limit in force") {
		t.Errorf("the preview lacks Harlow with its balance: %s", got)
	}
	if strings.Contains(got, "C-202") {
		t.Errorf("the preview lists Pelham, which no rule matches: %s", got)
	}
}
