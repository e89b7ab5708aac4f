package handlers_test

import (
	"net/http"
	"strings"
	"testing"

	"creditdash/internal/apptest"
)

// TestPolicyLimitApplied: with a policy in force whose one class's limit
// is 40 % of the trade cap, the calculator shows the policy's limit for
// the account beside its caps, named and traced to its figures, and says
// a request is held against the saved inputs until they are saved; a
// request within the authority and the at-once amount but above the
// policy limit waits for a second person, naming the limit on its page
// and in the audit trail, one within it is approved at once; an
// application's approval form proposes the policy limit (below the
// limit asked) and an approval above it waits.
func TestPolicyLimitApplied(t *testing.T) {
	decisionApps(t, func(t *testing.T, app *apptest.App) {
		dev := signInAccounts(t, app, "developer") // analyst, up to 10,000
		importLedger(t, dev, "aging.csv", []byte(ledgerCSV), "2026-09-30")
		demo := signInAccounts(t, app, "demo") // manager, up to 250,000
		page := demo.Get("/policy")
		mustRedirect(t, "save", postPolicy(t, demo, page, "classes", "All", "cap_All", "trade", "share_All", "40", "max_All", "",
			"atonce_All", "100,000", "note", "Forty per cent of the trade cap"))
		boss := signInAccounts(t, app, "ordinary")
		action, _, ok := boss.Get("/policy").Form("#version-1 form.activate-policy")
		if !ok {
			t.Fatal("version 1 cannot be put in force")
		}
		mustRedirect(t, "activate", boss.post(action))

		// Net 30: 2 months allowed, so a trade cap of 50,000 and a policy
		// limit of 20,000; the saved inputs give 8,000 (10,000 × 2 × 40 %).
		calc := dev.Get("/businesses/1001/limit?account=A-1&monthly_sales=25,000&loss_budget=100,000")
		if calc.Status != http.StatusOK {
			t.Fatalf("calculator: %d", calc.Status)
		}
		if got := calc.Text("#policy-limit h3"); !strings.HasSuffix(got, "$20,000") {
			t.Errorf("the policy limit = %q, want $20,000", got)
		}
		if got := calc.Text("#policy-rule"); !strings.Contains(got, "Policy version 1, class All") || !strings.Contains(got, "40 % of the trade cap (50,000) = 20,000") {
			t.Errorf("the policy rule = %q", got)
		}
		if !strings.Contains(calc.Text("#policy-saved"), "No inputs are saved for account A-1") {
			t.Errorf("no word that the request is held against saved inputs: %q", calc.Text("#policy-saved"))
		}
		saved := dev.Get(mustRedirect(t, "save inputs", dev.Submit(dev.Get("/businesses/1001/limit?account=A-1&monthly_sales=10,000&loss_budget=100,000"),
			`form[method="post"][action="/businesses/1001/limit"]`)))
		if got := saved.Text("#policy-limit h3"); !strings.HasSuffix(got, "$8,000") || saved.Text("#policy-saved") != "" {
			t.Errorf("after saving: %q, %q", got, saved.Text("#policy-saved"))
		}
		if v, _ := saved.Doc.Find("#request input[name=amount]").Attr("value"); v != "8,000" {
			t.Errorf("the request form proposes %q, want the policy limit 8,000", v)
		}

		waits := dev.Get(mustRedirect(t, "request 9,000", dev.post("/businesses/1001/limit-requests", "account", "A-1", "amount", "9,000", "reason", "More orders")))
		if waits.Text("#status") != "Waiting for approval" || !strings.Contains(waits.Text("#policy"), "above policy version 1's limit of 8000") {
			t.Errorf("9,000 within authority and at-once, above the policy limit: %q, %q", waits.Text("#status"), waits.Text("#policy"))
		}
		if a := dev.Get("/audit?action=limit-request&account=A-1").Text("table.audit tbody"); !strings.Contains(a, "40 % of the trade cap (20,000) = 8,000") {
			t.Errorf("the request's audit entry does not trace the policy limit: %q", a)
		}
		at := dev.Get(mustRedirect(t, "request 8,000", dev.post("/businesses/1001/limit-requests", "account", "A-1", "amount", "8,000", "reason", "Steady")))
		if at.Text("#status") != "Approved" {
			t.Errorf("8,000 within the policy limit: %q", at.Text("#status"))
		}
		if a := dev.Get("/audit?action=approve&account=A-1").Text("table.audit tbody"); !strings.Contains(a, "limit of 8000 for class All") {
			t.Errorf("the approval does not name the policy limit: %q", a)
		}

		// An application: 12,500 a month on Net 30 gives a trade cap of
		// 25,000, a policy limit of 10,000, below the 40,000 asked.
		path := apptest.Invite(t, demo.User, "Policy Trading", "buyer@policy.test", "")
		a := applyAs(t, app, path, "Policy Trading", "ann@policy.test")
		id := strconvI(a.ID)
		mustRedirect(t, "match", demo.post("/applications/"+id+"/match", "business", "1001"))
		ap := demo.Get("/applications/" + id)
		if got := ap.Text("#policy-rule"); !strings.Contains(got, "40 % of the trade cap (25,000) = 10,000") || !strings.Contains(got, "Monthly sales 12,500 × 2 months") {
			t.Errorf("the application's policy limit = %q", got)
		}
		if v, _ := ap.Doc.Find("#amount").Attr("value"); v != "10,000" || !strings.Contains(ap.Text("#policy-proposed"), "below the limit asked") {
			t.Errorf("the approval proposes %q (%q), want the policy limit 10,000", v, ap.Text("#policy-proposed"))
		}
		mustRedirect(t, "approve above the policy", demo.post("/applications/"+id+"/decide", "outcome", "approve", "amount", "30,000", "note", "Good references"))
		if got := demo.Get("/applications/" + id).Text("#status"); !strings.Contains(got, "waiting for a second manager") {
			t.Errorf("30,000 within authority, above the policy limit: %q", got)
		}
	})
}
