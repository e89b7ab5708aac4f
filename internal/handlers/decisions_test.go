package handlers_test

import (
	"net/http"
	"strings"
	"testing"

	"creditdash/internal/apptest"
	"creditdash/internal/roles"
	"creditdash/internal/store/storetest"
)

// decisionApps runs fn on SQLite and PostgreSQL with the roles of these
// tests: two managers of different authority, an analyst and an auditor.
func decisionApps(t *testing.T, fn func(t *testing.T, app *apptest.App)) {
	table, err := roles.Parse("test", "demo=manager:250000,ordinary=manager:1000000,developer=analyst:10000,trade=auditor", 0)
	if err != nil {
		t.Fatal(err)
	}
	t.Run("sqlite", func(t *testing.T) { fn(t, apptest.Start(t, apptest.Options{Roles: table})) })
	t.Run("postgres", func(t *testing.T) {
		fn(t, apptest.Start(t, apptest.Options{Roles: table, DatabaseURL: storetest.Database(t)}))
	})
}

// wantRefused checks a 403 that names rule.
func wantRefused(t *testing.T, what string, p *apptest.Page, rule string) {
	t.Helper()
	if p.Status != http.StatusForbidden || !strings.Contains(p.Text("main"), rule) {
		t.Errorf("%s: status %d, %q; want 403 naming %q", what, p.Status, p.Text("main"), rule)
	}
}

// TestLimitRequestWithinAuthority: an analyst's request within their
// authority is approved at once, sets the limit, keeps its evidence and
// the calculator's rationale, and is logged so.
func TestLimitRequestWithinAuthority(t *testing.T) {
	decisionApps(t, func(t *testing.T, app *apptest.App) {
		dev := signInAccounts(t, app, "developer")
		importLedger(t, dev, "aging.csv", []byte(ledgerCSV), "2026-09-30")
		grantLimit(t, app, "A-1", 1000)
		to := mustRedirect(t, "request", dev.post("/businesses/1001/limit-requests", "account", "A-1", "amount", "8,000",
			"reason", "Orders doubled", "monthly_sales", "60500", "months_allowed", "2", "loss_budget", "2000"))
		if !strings.HasPrefix(to, "/decisions/") {
			t.Fatalf("request leads to %q", to)
		}
		p := dev.Get(to)
		if p.Status != http.StatusOK || p.Text("#status") != "Approved" {
			t.Fatalf("decision page: %d, status %q", p.Status, p.Text("#status"))
		}
		if steps := p.Text("#steps"); !strings.Contains(steps, "Requested $8,000 by developer") || !strings.Contains(steps, "Approved by developer") ||
			!strings.Contains(steps, "within the requester's own authority") {
			t.Errorf("steps = %q", steps)
		}
		if r := p.Text(".calc-rationale"); !strings.Contains(r, "Loss cap: $28,592 (binds)") || !strings.Contains(r, "Recommended limit: $28,000") {
			t.Errorf("rationale = %q", r)
		}
		links := p.Doc.Find("#evidence a[href*='/evidence/']")
		if links.Length() != 4 {
			t.Fatalf("%d evidence links, want financials, officers, overview and payments", links.Length())
		}
		for i := range 4 {
			href, _ := links.Eq(i).Attr("href")
			ev := app.SignIn(t, "trade").Get(href)
			if ev.Status != http.StatusOK || !strings.Contains(ev.Text(".snapshot-banner"), "evidence of a limit request") {
				t.Errorf("evidence %s: %d, banner %q", href, ev.Status, ev.Text(".snapshot-banner"))
			}
		}
		if p.Doc.Find("#decide, #withdraw").Length() != 0 {
			t.Error("a decided request offers to decide or withdraw")
		}
		row := dev.Get("/audit?action=limit&account=A-1").Text("table.audit tbody tr:first-child")
		if !strings.Contains(row, "1000") || !strings.Contains(row, "8000") || !strings.Contains(row, "approved by developer") {
			t.Errorf("the limit change logged as %q", row)
		}
	})
}

// TestLimitRequestFourEyes: above authority the request waits; its
// requester, an analyst and an auditor are refused with the rule named
// and logged; a decline needs a reason (422, typed note kept); a manager
// within authority approves; a second decider sees what happened (409).
func TestLimitRequestFourEyes(t *testing.T) {
	decisionApps(t, func(t *testing.T, app *apptest.App) {
		demo := signInAccounts(t, app, "demo")
		importLedger(t, demo, "aging.csv", []byte(ledgerCSV), "2026-09-30")
		to := mustRedirect(t, "request", demo.post("/businesses/1001/limit-requests", "account", "A-1", "amount", "300000", "reason", "New contract"))
		p := demo.Get(to)
		if p.Text("#status") != "Waiting for approval" || p.Doc.Find("#withdraw").Length() != 1 || p.Doc.Find("#decide").Length() != 0 {
			t.Fatalf("pending for its requester: status %q, withdraw %d, decide %d", p.Text("#status"), p.Doc.Find("#withdraw").Length(), p.Doc.Find("#decide").Length())
		}
		wantRefused(t, "the requester approving", demo.post(to+"/approve"), "Four eyes")
		dev := signInAccounts(t, app, "developer")
		wantRefused(t, "an analyst approving", dev.post(to+"/approve"), "Only managers and admins approve or decline")
		wantRefused(t, "another withdrawing", dev.post(to+"/withdraw"), "Only the requester withdraws")
		trade := signInAccounts(t, app, "trade")
		wantRefused(t, "an auditor approving", trade.post(to+"/approve"), "Auditors read everything")
		wantRefused(t, "an auditor requesting", trade.post("/businesses/1001/limit-requests", "account", "A-1", "amount", "1", "reason", "x"), "Auditors read everything")

		boss := signInAccounts(t, app, "ordinary")
		if p := boss.Get(to); p.Doc.Find("#decide").Length() != 1 {
			t.Fatal("the manager within authority is not offered to decide")
		}
		bad := boss.post(to+"/decline", "note", "   ")
		if bad.Status != http.StatusUnprocessableEntity || bad.Text("#note-error") == "" {
			t.Errorf("a decline without a reason: %d, %q", bad.Status, bad.Text("#note-error"))
		}
		bare := boss.post(to + "/approve")
		if bare.Status != http.StatusUnprocessableEntity || bare.Text("#approve-note-error") == "" || bare.Text("#status") != "Waiting for approval" {
			t.Errorf("an approval without a note: %d, %q, status %q", bare.Status, bare.Text("#approve-note-error"), bare.Text("#status"))
		}
		mustRedirect(t, "approve", boss.post(to+"/approve", "note", "Strong payer"))
		done := boss.Get(to + "?done=approved")
		if done.Text("#status") != "Approved" || !strings.Contains(done.Text("#steps"), "Approved by ordinary") || !strings.Contains(done.Text(".flash"), "Approved") {
			t.Errorf("after approval: %q / %q", done.Text("#status"), done.Text("#steps"))
		}
		late := demo.post(to + "/withdraw")
		if late.Status != http.StatusConflict || !strings.Contains(late.Text("#notice"), "already approved by ordinary") {
			t.Errorf("withdrawing too late: %d, %q", late.Status, late.Text("#notice"))
		}
		refusals := trade.Get("/audit?action=refused")
		if n := refusals.Doc.Find("table.audit tbody tr").Length(); n != 5 {
			t.Errorf("%d refusals logged, want 5: %q", n, refusals.Text("table.audit"))
		}
		row := trade.Get("/audit?action=limit&account=A-1").Text("table.audit tbody tr:first-child")
		if !strings.Contains(row, "300000") || !strings.Contains(row, "ordinary") {
			t.Errorf("the approved limit logged as %q", row)
		}
		if v := trade.Get("/audit/verify"); !strings.Contains(v.Text("main"), "Intact") {
			t.Errorf("verify: %q", v.Text("main"))
		}
	})
}

// TestLimitRequestRefusals: bad input comes back with what was typed
// (422); an account the team's ledger does not link to the business is
// refused (403) with the rule; a withdrawal by its requester works.
func TestLimitRequestRefusals(t *testing.T) {
	decisionApps(t, func(t *testing.T, app *apptest.App) {
		dev := signInAccounts(t, app, "developer")
		importLedger(t, dev, "aging.csv", []byte(ledgerCSV), "2026-09-30")
		p := dev.post("/businesses/1001/limit-requests", "account", "A-1", "amount", "12a", "reason", "")
		if p.Status != http.StatusUnprocessableEntity || p.Text("#amount-error") == "" || p.Text("#reason-error") == "" {
			t.Fatalf("bad input: %d, %q / %q", p.Status, p.Text("#amount-error"), p.Text("#reason-error"))
		}
		if v, _ := p.Doc.Find("#amount").Attr("value"); v != "12a" {
			t.Errorf("typed amount not kept: %q", v)
		}
		long := dev.post("/businesses/1001/limit-requests", "account", "A-1", "amount", "5", "reason", strings.Repeat("x", 2001))
		if long.Status != http.StatusUnprocessableEntity || len(long.Text("#reason")) != 2001 {
			t.Errorf("a long reason: %d, kept %d characters", long.Status, len(long.Text("#reason")))
		}
		wantRefused(t, "another business's account", dev.post("/businesses/1001/limit-requests", "account", "A-2", "amount", "5", "reason", "x"),
			"only for an account this team's ledger links to the business")
		if p := dev.Get("/decisions/999"); p.Status != http.StatusNotFound {
			t.Errorf("no such request: %d", p.Status)
		}
		to := mustRedirect(t, "request", dev.post("/businesses/1001/limit-requests", "account", "A-1", "amount", "90000", "reason", "x"))
		mustRedirect(t, "withdraw", dev.post(to+"/withdraw"))
		if s := dev.Get(to).Text("#status"); s != "Withdrawn" {
			t.Errorf("after withdrawing: %q", s)
		}
		if p := dev.Get("/businesses/1001/limit-requests"); p.Status != http.StatusSeeOther {
			t.Errorf("GET of the form's address: %d", p.Status)
		}
	})
}

// TestRequestFormsOnCalculatorAndPanel: the calculator offers the request
// with its recommended limit and inputs; the account tile offers it too;
// auditors are offered neither.
func TestRequestFormsOnCalculatorAndPanel(t *testing.T) {
	app := apptest.Start(t, apptest.Options{})
	dev := signInAccounts(t, app, "developer")
	importLedger(t, dev, "aging.csv", []byte(ledgerCSV), "2026-09-30")
	calc := dev.Get("/businesses/1001/limit?monthly_sales=60500&loss_budget=2000")
	if v, _ := calc.Doc.Find("#request-form #amount").Attr("value"); v != "28,000" {
		t.Fatalf("the calculator's request form asks for %q, want 28,000", v)
	}
	p := dev.Submit(calc, "#request-form")
	if p.Status != http.StatusUnprocessableEntity || p.Text("#reason-error") == "" {
		t.Fatalf("no reason: %d", p.Status)
	}
	if v, _ := p.Doc.Find(`#request-form input[name="loss_budget"]`).Attr("value"); v != "2000" {
		t.Errorf("the calculator's inputs not kept on the refused form: %q", v)
	}
	action, fields, _ := p.Form("#request-form")
	fields.Set("reason", "Seasonal peak")
	to := mustRedirect(t, "request from the calculator", dev.PostForm(action, fields))
	d := dev.Get(to)
	if d.Text("#status") != "Waiting for approval" || !strings.Contains(d.Text(".calc-rationale"), "Recommended limit: $28,000") {
		t.Errorf("the calculator's request: %q, %q", d.Text("#status"), d.Text(".calc-rationale"))
	}
	tile := dev.Get("/businesses/1001")
	if tile.Doc.Find(".account-tile #request-form").Length() != 1 {
		t.Fatal("no request form in the account tile")
	}
	action, fields, _ = tile.Form(".account-tile #request-form")
	fields.Set("amount", "2,000")
	fields.Set("reason", "Steady payer")
	to = mustRedirect(t, "request from the tile", dev.PostForm(action, fields))
	if s := dev.Get(to).Text("#status"); s != "Approved" {
		t.Errorf("a request within authority from the tile: %q", s)
	}
	trade := app.SignIn(t, "trade")
	if trade.Get("/businesses/1001").Doc.Find("#request-form").Length()+trade.Get("/businesses/1001/limit?monthly_sales=1&loss_budget=1").Doc.Find("#request-form").Length() != 0 {
		t.Error("an auditor is offered the request form")
	}
}

// TestDecisionsList: the header counts what waits for a manager; the
// lists show waiting for me, mine and the team's recent decisions.
func TestDecisionsList(t *testing.T) {
	decisionApps(t, func(t *testing.T, app *apptest.App) {
		dev := signInAccounts(t, app, "developer")
		importLedger(t, dev, "aging.csv", []byte(ledgerCSV), "2026-09-30")
		big := mustRedirect(t, "big", dev.post("/businesses/1001/limit-requests", "account", "A-1", "amount", "400000", "reason", "big"))
		mustRedirect(t, "small", dev.post("/businesses/1001/limit-requests", "account", "A-1", "amount", "20000", "reason", "small"))
		boss, demo := app.SignIn(t, "ordinary"), app.SignIn(t, "demo")
		if got := boss.Get("/").Text(".decisions-link .unread-count"); got != "2" {
			t.Errorf("the 1,000,000 manager's header: %q", got)
		}
		if got := demo.Get("/accounts").Text(".decisions-link .unread-count"); got != "1" {
			t.Errorf("the 250,000 manager's header: %q", got)
		}
		if got := dev.Get("/").Text(".decisions-link"); got != "Decisions" {
			t.Errorf("an analyst's header: %q", got)
		}
		p := boss.Get("/decisions")
		if p.Status != http.StatusOK || p.Doc.Find("#waiting tbody tr").Length() != 2 || p.Doc.Find("#mine tbody tr").Length() != 0 {
			t.Fatalf("/decisions for the manager: %d, %d waiting", p.Status, p.Doc.Find("#waiting tbody tr").Length())
		}
		mustRedirect(t, "approve", signInAccounts(t, app, "ordinary").post(big+"/approve", "note", "Within policy"))
		if got := boss.Get("/decisions").Doc.Find("#waiting tbody tr").Length(); got != 1 {
			t.Errorf("after approving: %d waiting", got)
		}
		mine := dev.Get("/decisions")
		if mine.Doc.Find("#mine tbody tr").Length() != 2 || !strings.Contains(mine.Text("#recent"), "Approved by ordinary") ||
			!strings.Contains(mine.Text("#waiting"), "Only managers decide") {
			t.Errorf("/decisions for the analyst: mine %d, recent %q", mine.Doc.Find("#mine tbody tr").Length(), mine.Text("#recent"))
		}
	})
}
