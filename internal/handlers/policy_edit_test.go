package handlers_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"

	"creditdash/internal/apptest"
)

// postPolicy posts the policy form of p with the changes in kv.
func postPolicy(t *testing.T, u *wsUser, p *apptest.Page, kv ...string) *apptest.Page {
	t.Helper()
	action, fields, ok := p.Form("form.policy-form")
	if !ok {
		t.Fatal("no policy form on the page")
	}
	// Form reads inputs only: the selects as a browser sends them.
	p.Doc.Find("form.policy-form select").Each(func(_ int, sel *goquery.Selection) {
		name, _ := sel.Attr("name")
		v, _ := sel.Find("option[selected]").Attr("value")
		fields.Set(name, v)
	})
	for i := 0; i+1 < len(kv); i += 2 {
		fields.Set(kv[i], kv[i+1])
	}
	var flat []string
	for k, vs := range fields {
		if k != "_csrf" && k != "csrf" && len(vs) > 0 {
			flat = append(flat, k, vs[0])
		}
	}
	return u.post(action, flat...)
}

// TestCreditPolicyVersions: a manager saves a version from the form (an
// analyst is refused; a missing note or an ambiguous amount comes back
// with what was typed); its editor cannot put it in force, another
// manager can, and both steps are audited. With it in force, a request
// within the requester's authority but above the class's at-once amount
// waits for a second person, and one within both is approved at once
// naming the policy; with none in force, as before.
func TestCreditPolicyVersions(t *testing.T) {
	decisionApps(t, func(t *testing.T, app *apptest.App) {
		dev := signInAccounts(t, app, "developer") // analyst, up to 10,000
		importLedger(t, dev, "aging.csv", []byte(ledgerCSV), "2026-09-30")
		demo := signInAccounts(t, app, "demo") // manager
		page := demo.Get("/policy")
		if page.Status != http.StatusOK || !strings.Contains(page.Text("#active"), "No version is in force") {
			t.Fatalf("GET /policy: %d, %q", page.Status, page.Text("#active"))
		}
		if dev.Get("/policy").Doc.Find("form.policy-form").Length() != 0 {
			t.Error("an analyst is offered the policy form")
		}
		wantRefused(t, "an analyst saving a version", dev.post("/policy/versions", "note", "x"), "Only managers edit the team's credit policy")

		bad := postPolicy(t, demo, page, "atonce_C", "12,5", "note", "")
		if bad.Status != http.StatusUnprocessableEntity || !strings.Contains(bad.Text(".policy-rules-form"), "ambiguous") || bad.Text("#note-error") == "" {
			t.Fatalf("a bad form: %d, %q, note %q", bad.Status, bad.Text(".policy-rules-form .form-error"), bad.Text("#note-error"))
		}
		if v, _ := bad.Doc.Find("#atonce_C").Attr("value"); v != "12,5" {
			t.Errorf("the typed amount came back as %q", v)
		}
		to := mustRedirect(t, "save", postPolicy(t, demo, demo.Get("/policy"), "atonce_A", "5,000", "atonce_B", "5,000", "atonce_C", "5,000",
			"atonce_D", "5,000", "note", "At once up to 5,000 only"))
		saved := demo.Get(to)
		if !strings.Contains(saved.Text(".flash"), "Version 1 saved") {
			t.Errorf("after saving: %q", saved.Text(".flash"))
		}
		if _, _, ok := saved.Form("#version-1 form.activate-policy"); ok {
			t.Error("its editor is offered to put version 1 in force")
		}
		if !strings.Contains(saved.Text("#version-1"), "another manager puts it in force") {
			t.Errorf("version 1's row: %q", saved.Text("#version-1"))
		}
		boss := signInAccounts(t, app, "ordinary") // another manager
		action, _, ok := boss.Get("/policy").Form("#version-1 form.activate-policy")
		if !ok {
			t.Fatal("another manager is not offered to put version 1 in force")
		}
		own := demo.post(action)
		if own.Status != http.StatusForbidden || !strings.Contains(own.Text("#notice"), "Four eyes") {
			t.Errorf("its editor activating: %d, %q", own.Status, own.Text("#notice"))
		}
		mustRedirect(t, "activate", boss.post(action))
		on := dev.Get("/policy")
		if !strings.Contains(on.Text("#active-label"), "Version 1") || !strings.Contains(on.Text("#active"), "at once up to $5,000") {
			t.Errorf("in force: %q", on.Text("#active"))
		}
		if a := dev.Get("/audit?action=policy-activate").Text("table.audit tbody"); !strings.Contains(a, "ordinary") || !strings.Contains(a, "version 1") {
			t.Errorf("the activation's audit entry = %q", a)
		}
		if a := dev.Get("/audit?action=policy-version").Text("table.audit tbody"); !strings.Contains(a, "At once up to 5,000 only") {
			t.Errorf("the version's audit entry = %q", a)
		}

		// The policy's limit reads the inputs saved for the account: 28,000
		// here (the loss cap of band 2), above both requests.
		mustRedirect(t, "save inputs", dev.Submit(dev.Get("/businesses/1001/limit?account=A-1&monthly_sales=60500&loss_budget=2000"),
			`form[method="post"][action="/businesses/1001/limit"]`))
		waits := dev.Get(mustRedirect(t, "request 8,000", dev.post("/businesses/1001/limit-requests", "account", "A-1", "amount", "8,000", "reason", "More orders")))
		if waits.Text("#status") != "Waiting for approval" || !strings.Contains(waits.Text("main"), "credit policy") {
			t.Errorf("8,000 within authority, above the policy's 5,000: %q, %q", waits.Text("#status"), waits.Text("main"))
		}
		at := dev.Get(mustRedirect(t, "request 4,000", dev.post("/businesses/1001/limit-requests", "account", "A-1", "amount", "4,000", "reason", "Steady")))
		if at.Text("#status") != "Approved" {
			t.Errorf("4,000 within both: %q", at.Text("#status"))
		}
		if a := dev.Get("/audit?action=approve&account=A-1").Text("table.audit tbody"); !strings.Contains(a, "policy version 1") {
			t.Errorf("the approval at once does not name the policy: %q", a)
		}
	})
}
