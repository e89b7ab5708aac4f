package api_test

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"creditdash/internal/api"
	"creditdash/internal/apptest"
	"creditdash/internal/roles"
	"creditdash/internal/store"
)

// agingCSV is an ERP's aging report as the import page takes it:
// semicolons, decimal commas, a row whose aging does not add up to its
// balance, which the importer refuses.
const agingCSV = "Customer No.;Name;Business Id;Total Due;Current;1-30;Credit Limit;Terms\n" +
	"A-1;Westbridge;1001;1.500,00;1.000,00;500,00;1.000,00;Net 30\n" +
	"A-2;Harbour Foods;1002;200;200;0;5.000,00;30\n" +
	"A-3;Bad total;1003;900;100;0;1.000;30\n"

// pushCSV pushes agingCSV as of 2026-09-30 with the token.
func pushCSV(t *testing.T, app *apptest.App, token string) api.ImportResult {
	t.Helper()
	var res api.ImportResult
	call(t, app, token, http.MethodPost, "/api/v1/ledgers?as_of=2026-09-30", "text/csv", []byte(agingCSV)).into(t, http.StatusCreated, &res)
	return res
}

// TestLimitRequestsThroughTheAPI: a request through the API is the
// token holder's, under their authority: within it approved at once and
// the limit in force, above it waiting for a manager other than the
// requester, whose decision on the page then sets the limit; amounts
// typed as people type them are read as the pages read them.
func TestLimitRequestsThroughTheAPI(t *testing.T) {
	engines(t, func(t *testing.T, app *apptest.App, clk *clock) {
		dev := signIn(t, app, "developer")
		devToken := dev.makeToken("erp", "write", 10, clk.Now())
		if res := pushCSV(t, app, devToken); res.Imported != 2 || res.Skipped != 1 {
			t.Fatalf("push: %+v", res)
		}

		var d api.Decision
		postJSON(t, app, devToken, "/api/v1/limit-requests", map[string]any{"account": "A-1", "amount": "8,000", "reason": "Orders doubled"}).
			into(t, http.StatusCreated, &d)
		if d.Status != "approved" || d.Amount != 8000 || d.RequestedBy != "developer" || d.DecidedBy == nil || *d.DecidedBy != "developer" ||
			d.Authority != 10000 {
			t.Errorf("within authority: %+v", d)
		}
		var acc api.AccountRecord
		get(t, app, devToken, "/api/v1/accounts/A-1").into(t, http.StatusOK, &acc)
		if acc.Limit == nil || *acc.Limit != 8000 || len(acc.Decisions) != 1 || acc.Decisions[0].ID != d.ID {
			t.Errorf("A-1 after the approval: limit %v, decisions %+v", acc.Limit, acc.Decisions)
		}

		var waiting api.Decision
		a := postJSON(t, app, devToken, "/api/v1/limit-requests", map[string]any{"account": "A-1", "amount": 50000, "reason": "Big order"})
		a.into(t, http.StatusCreated, &waiting)
		if waiting.Status != "pending" || waiting.DecidedBy != nil || a.Header.Get("Location") != "/api/v1/decisions/"+waiting.ID {
			t.Errorf("above authority: %+v, Location %q", waiting, a.Header.Get("Location"))
		}
		get(t, app, devToken, "/api/v1/accounts/A-1").into(t, http.StatusOK, &acc)
		if *acc.Limit != 8000 {
			t.Errorf("a waiting request changed the limit to %v", *acc.Limit)
		}
		// Four eyes: the requester cannot decide it on the page; a
		// manager can, and the API reads the decision.
		if p := dev.post(waiting.URL+"/approve", "note", "mine"); p.Status != http.StatusForbidden {
			t.Errorf("the requester approves their own: %d", p.Status)
		}
		mgr := signIn(t, app, "demo")
		if p := mgr.post(waiting.URL+"/approve", "note", "Collateral seen"); p.Status != http.StatusSeeOther {
			t.Fatalf("the manager's approval: %d %s", p.Status, p.Text("main"))
		}
		var decided api.Decision
		get(t, app, devToken, "/api/v1/decisions/"+waiting.ID).into(t, http.StatusOK, &decided)
		if decided.Status != "approved" || *decided.DecidedBy != "demo" || *decided.Note != "Collateral seen" {
			t.Errorf("decided: %+v", decided)
		}
		var pending api.DecisionPage
		get(t, app, devToken, "/api/v1/decisions?status=pending").into(t, http.StatusOK, &pending)
		if len(pending.Decisions) != 0 {
			t.Errorf("still pending: %+v", pending.Decisions)
		}

		// Refused input names each field; nothing is asked.
		a = postJSON(t, app, devToken, "/api/v1/limit-requests", map[string]any{"account": "", "amount": "12,5", "reason": ""})
		p := a.problem(t)
		fields := map[string]bool{}
		for _, e := range p.Errors {
			fields[e.Field] = true
		}
		if a.Status != http.StatusUnprocessableEntity || !fields["account"] || !fields["amount"] || !fields["reason"] {
			t.Errorf("bad request: %d %+v", a.Status, p)
		}
		a = call(t, app, devToken, http.MethodPost, "/api/v1/limit-requests", "text/plain", []byte("A-1 5000"))
		if a.Status != http.StatusUnsupportedMediaType {
			t.Errorf("a text body: %d", a.Status)
		}
		a = call(t, app, devToken, http.MethodPost, "/api/v1/limit-requests", "application/json", []byte(`{"account":"A-1","amount":1,"reason":"x","extra":1}`))
		if a.Status != http.StatusUnprocessableEntity {
			t.Errorf("an unknown member: %d", a.Status)
		}
		// An auditor's token writes nothing, whatever it is.
		aud := signIn(t, app, "trade")
		audToken := aud.makeToken("reports", "read", 10, clk.Now())
		a = postJSON(t, app, audToken, "/api/v1/limit-requests", map[string]any{"account": "A-1", "amount": 1, "reason": "x"})
		if a.Status != http.StatusForbidden {
			t.Errorf("an auditor's request: %d", a.Status)
		}
		var all api.DecisionPage
		get(t, app, audToken, "/api/v1/decisions?account=A-1").into(t, http.StatusOK, &all)
		if len(all.Decisions) != 2 {
			t.Errorf("A-1 has %d decisions, want 2", len(all.Decisions))
		}
	})
}

// TestTokenActsWithTheRoleOfToday: a token made by a manager acts with the
// role its member has when it is used: once an admin makes them an
// auditor, its write is refused (403, in the audit trail) though the token
// is a write token.
func TestTokenActsWithTheRoleOfToday(t *testing.T) {
	before, err := roles.Parse("test", "boss=admin:250000,ordinary=manager:1000000", 0)
	if err != nil {
		t.Fatal(err)
	}
	clk := &clock{}
	app := apptest.Start(t, apptest.Options{Roles: before, Now: clk.Now})
	mgr := signIn(t, app, "ordinary")
	token := mgr.makeToken("erp", "write", 10, clk.Now())
	pushCSV(t, app, token)
	var d api.Decision
	postJSON(t, app, token, "/api/v1/limit-requests", map[string]any{"account": "A-2", "amount": 900000, "reason": "Within my authority"}).
		into(t, http.StatusCreated, &d)
	if d.Status != "approved" {
		t.Fatalf("a manager's request within authority: %+v", d)
	}

	// A lowering takes effect at once, without a second admin.
	boss := store.Analyst{Service: apptest.WorkspaceService, User: "boss"}
	if _, err := app.Store.ChangeMember(context.Background(), boss, store.MemberSpec{Name: "ordinary", Role: roles.Auditor, Reason: "moves to audit"}, 0); err != nil {
		t.Fatal(err)
	}
	a := postJSON(t, app, token, "/api/v1/limit-requests", map[string]any{"account": "A-2", "amount": 1000, "reason": "Again"})
	if a.Status != http.StatusForbidden || !strings.Contains(a.problem(t).Detail, "Auditors read everything") {
		t.Errorf("an auditor's write token: %d %s", a.Status, a.Body)
	}
	if trail := auditText(t, app); !strings.Contains(trail, "ordinary refused  -> request-limit POST /api/v1/limit-requests") {
		t.Errorf("the refusal is not in the audit trail:\n%s", trail)
	}
	var acc api.AccountRecord
	get(t, app, token, "/api/v1/accounts/A-2").into(t, http.StatusOK, &acc)
	if acc.Limit == nil || *acc.Limit != 900000 {
		t.Errorf("A-2's limit: %v", acc.Limit)
	}
}
