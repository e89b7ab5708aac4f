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

// limitLedger is a team's aging export on two dates: Harlow (business
// 1001) goes from under to over the limit a manager approves between
// them; Pelham (1003) stays well under its own.
func limitLedger(harlow, pelham string) []byte {
	return []byte("Customer No.;Name;Business Id;Owner;Total Due;Current\n" +
		"C-301;Harlow Fixings Ltd;1001;sam;" + harlow + ";" + harlow + "\n" +
		"C-302;Pelham Joinery;1003;kit;" + pelham + ";" + pelham + "\n")
}

// Issue 48: with limits in force (one approved by four eyes, at less than
// asked), a ledger putting an account over its limit fires the analyst's
// over-limit and utilisation rules for it alone, in the digest preview
// with its balance, limit and owner; the digest's other sections mark
// customers the same way and keep alerts on businesses without an account
// apart.
func TestAccountRulesWithLimitsInForce(t *testing.T) {
	app := decisionApp(t)
	dev := signInAccounts(t, app, "developer")
	importLedger(t, dev, "aging-sep.csv", limitLedger("30.000,00", "2.000,00"), "2026-09-30")
	big := mustRedirect(t, "request above authority", dev.post("/businesses/1001/limit-requests", "account", "C-301", "amount", "50,000", "reason", "Bigger orders"))
	boss := signInAccounts(t, app, "ordinary")
	waiting := section(boss.Get("/digest/preview"), "Decisions waiting for you", "Your limit requests decided")
	if !strings.Contains(waiting, "Account C-301: limit $50,000 asked by developer") || !strings.Contains(waiting, "(balance $30,000, no limit in force, owner sam)") {
		t.Errorf("the manager's waiting request lacks the account's balance, limit and owner: %s", waiting)
	}
	mustRedirect(t, "approve less", boss.post(big+"/approve", "amount", "40,000", "note", "A step up first"))
	small := mustRedirect(t, "request within authority", dev.post("/businesses/1003/limit-requests", "account", "C-302", "amount", "8,000", "reason", "Steady payer"))
	for _, to := range []string{big, small} {
		if s := dev.Get(to).Text("#status"); s != "Approved" {
			t.Fatalf("%s: status %q, want Approved", to, s)
		}
	}
	importLedger(t, dev, "aging-oct.csv", limitLedger("46.000,00", "3.000,00"), "2026-10-31")
	mustRedirect(t, "over limit rule", dev.post("/alerts/rules", "scope", "accounts", "condition", "over_limit"))
	mustRedirect(t, "utilisation rule", dev.post("/alerts/rules", "scope", "accounts", "condition", "util_above", "threshold", "90"))
	// Score alerts on a customer (1001) and on a business the team does
	// not sell to (1002), raised as their reports are read.
	for _, id := range []string{"1001", "1002"} {
		mustRedirect(t, "risk rule", dev.post("/alerts/rules", "scope", "business", "business", id, "score", "risk", "condition", "below", "threshold", "10"))
		dev.Get("/businesses/" + id)
	}
	p := dev.Get("/digest/preview")
	if p.Status != http.StatusOK {
		t.Fatalf("GET /digest/preview: status = %d", p.Status)
	}
	watched := section(p, "Accounts your rules watch", "Change in expected loss")
	for _, want := range []string{"Account C-301, Harlow Fixings Ltd: balance $46,000, limit $40,000, owner sam — ", "balance over the limit in force", "utilisation above 90 %"} {
		if !strings.Contains(watched, want) {
			t.Errorf("the watched accounts lack %q: %s", want, watched)
		}
	}
	if strings.Contains(watched, "C-302") {
		t.Errorf("Pelham, at 37.5 %% of its limit, is watched: %s", watched)
	}
	cust := section(p, "Alerts raised on your customers", "Alerts raised on other businesses")
	other := section(p, "Alerts raised on other businesses", "Decisions waiting for you")
	if !strings.Contains(cust, "(1001)") || !strings.Contains(cust, "account C-301, balance $46,000, limit $40,000, owner sam") || strings.Contains(cust, "(1002)") {
		t.Errorf("alerts on customers: %s", cust)
	}
	if !strings.Contains(other, "(1002)") || !strings.Contains(other, "no account in the team's record") || strings.Contains(other, "(1001)") {
		t.Errorf("alerts on other businesses: %s", other)
	}
}

// section is the digest preview's text from one heading to the next.
func section(p *apptest.Page, from, to string) string {
	_, s, _ := strings.Cut(p.Text("#digest-preview"), from)
	s, _, _ = strings.Cut(s, to)
	return s
}
