package handlers_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"

	"creditdash/internal/apptest"
)

// simCalls is how many calls the stand-in has answered for user.
func simCalls(app *apptest.App, user string) int {
	n := 0
	for _, c := range app.Sim.Requests()[user] {
		n += c
	}
	return n
}

// TestCreditMemo: a request approved by another manager has a credit memo
// linked from its page that prints the decision and its approver, the
// calculator's caps, the business with its industry and officers, the four
// scores with their probability, the payment trend and worst supplier
// categories, Z″ worked out, the peers and the requester's notes, each
// section dated and linked to the copy it came from; it is put together
// without a service call, so it reads the same after the service changed.
func TestCreditMemo(t *testing.T) {
	decisionApps(t, func(t *testing.T, app *apptest.App) {
		demo := signInAccounts(t, app, "demo")
		importLedger(t, demo, "aging.csv", []byte(ledgerCSV), "2026-09-30")
		mustRedirect(t, "note", demo.post("/businesses/1001/notes", "text", "Owner says a new contract starts in March."))
		to := mustRedirect(t, "request", demo.post("/businesses/1001/limit-requests", "account", "A-1", "amount", "300000",
			"reason", "New contract", "monthly_sales", "60500", "months_allowed", "2", "loss_budget", "2000"))
		boss := signInAccounts(t, app, "ordinary")
		mustRedirect(t, "approve", boss.post(to+"/approve", "note", "Strong payer"))

		page := boss.Get(to)
		href, _ := page.Doc.Find("#memo-link").Attr("href")
		if href != to+"/memo" {
			t.Fatalf("the request's page links the memo as %q, want %q", href, to+"/memo")
		}
		auditor := app.SignIn(t, "trade") // an auditor reads it too
		before := simCalls(app, "trade")
		m := auditor.Get(href)
		if m.Status != http.StatusOK {
			t.Fatalf("GET %s: status %d", href, m.Status)
		}
		if n := simCalls(app, "trade") - before; n != 0 {
			t.Errorf("the memo made %d service calls", n)
		}
		for _, c := range []struct{ sel, want string }{
			{"#memo-status", "Approved"},
			{"#memo-approvers", "ordinary"},
			{"#memo-amount", "$300,000"},
			{"#memo-steps", "Requested $300,000 by demo"},
			{"#memo-calculator", "Loss cap: $28,592 (binds)"},
			{"#sheet-business", "Westbridge"},
			{"#sheet-industry", "Industry:"},
			{"#sheet-score-table", "Risk"},
			{"#sheet-score-table", "%"},
			{"#sheet-trend", "DBT"},
			{"#sheet-worst", ""},
			{"#sheet-z-line", "Z″"},
			{"#sheet-ratios", "Working capital"},
			{"#sheet-peers", ""},
			{"#sheet-officers-part", "Officers"},
			{"#sheet-notes-part", "Owner says a new contract starts in March."},
		} {
			if got := m.Text(c.sel); m.Doc.Find(c.sel).Length() == 0 || !strings.Contains(got, c.want) {
				t.Errorf("memo %s = %q, want it to hold %q", c.sel, got, c.want)
			}
		}
		if n := m.Doc.Find(".sheet-source").Length(); n != 5 {
			t.Errorf("%d sections name their source, want 5: %q", n, m.Text(".sheet-source"))
		}
		m.Doc.Find(".sheet-source a").Each(func(_ int, a *goquery.Selection) {
			link, _ := a.Attr("href")
			if !strings.HasPrefix(link, to+"/evidence/") {
				t.Errorf("a source links %q, not a copy of the request", link)
			}
			if ev := boss.Get(link); ev.Status != http.StatusOK {
				t.Errorf("source %s: status %d", link, ev.Status)
			}
		})
		if m.Doc.Find(".sheet-source time[datetime]").Length() != 5 {
			t.Error("a source is not dated")
		}
		if m.Doc.Find("main form").Length() != 0 {
			t.Error("the memo holds a form")
		}
	})
}

// TestCreditMemoRefusals: a memo of an unknown or malformed request is a
// 404, never a 500.
func TestCreditMemoRefusals(t *testing.T) {
	app := apptest.Start(t, apptest.Options{})
	u := app.SignIn(t, "demo")
	for _, path := range []string{"/decisions/123456789/memo", "/decisions/abc/memo", "/decisions/-1/memo"} {
		if p := u.Get(path); p.Status != http.StatusNotFound {
			t.Errorf("GET %s: status %d, want 404", path, p.Status)
		}
	}
}
