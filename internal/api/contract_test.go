package api_test

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/getkin/kin-openapi/openapi3filter"

	"creditdash/internal/api"
	"creditdash/internal/apptest"
	"creditdash/internal/store"
)

// TestOpenAPIDocumentAndEveryAnswer: the document is served as embedded
// and is valid OpenAPI; every operation's answers, successes and failures,
// are held to it (call validates each), through a ledger pushed as a file
// and as JSON lines, pages of accounts walked by cursor with filters, one
// account, decisions, alerts and refusals.
func TestOpenAPIDocumentAndEveryAnswer(t *testing.T) {
	engines(t, func(t *testing.T, app *apptest.App, clk *clock) {
		doc := get(t, app, "", "/api/v1/openapi.json")
		if doc.Status != http.StatusOK || !bytes.Equal(doc.Body, api.Document) {
			t.Fatalf("openapi.json: %d, %d bytes", doc.Status, len(doc.Body))
		}
		dev := signIn(t, app, "developer")
		token := dev.makeToken("erp", "write", 10, clk.Now())

		// A dry run writes nothing and says what it would do.
		var dry api.ImportResult
		call(t, app, token, http.MethodPost, "/api/v1/ledgers?as_of=2026-09-30&dry_run=true", "text/csv", []byte(agingCSV)).
			into(t, http.StatusOK, &dry)
		if !dry.DryRun || dry.ID != "" || dry.Imported != 2 || dry.Skipped != 1 || dry.Refused[0].Row != 4 ||
			!strings.Contains(dry.Summary, "2 new (A-1, A-2)") {
			t.Errorf("dry run: %+v", dry)
		}
		var page api.AccountPage
		get(t, app, token, "/api/v1/accounts").into(t, http.StatusOK, &page)
		if len(page.Accounts) != 0 {
			t.Fatalf("a dry run imported %d accounts", len(page.Accounts))
		}

		// JSON lines: 120 accounts, each line an object of the import's
		// fields; a line the importer refuses is named by its number.
		var lines bytes.Buffer
		for i := range 120 {
			fmt.Fprintf(&lines, `{"account":"J-%03d","name":"Jay %d Ltd","balance":%d.5,"current":%d.5,"days_over_90":0,"owner":"%s"}`+"\n",
				i, i, 100+i, 100+i, map[bool]string{true: "bob", false: "ann"}[i%4 == 0])
			if i == 5 {
				lines.Truncate(lines.Len() - 2)
				lines.WriteString(`,"business_id":1001}` + "\n")
			}
		}
		lines.WriteString("\n" + `{"account":"J-BAD","balance":"ten"}` + "\n")
		var pushed api.ImportResult
		a := call(t, app, token, http.MethodPost, "/api/v1/ledgers?as_of=2026-10-31", "application/jsonl", lines.Bytes())
		a.into(t, http.StatusCreated, &pushed)
		if pushed.Imported != 120 || pushed.Skipped != 1 || pushed.Refused[0].Row != 122 || pushed.ID == "" ||
			!strings.HasPrefix(a.Header.Get("Location"), "/accounts?import=") {
			t.Errorf("JSON lines: %+v", pushed)
		}
		// The import page's own log lists it, as any import.
		if p := dev.Get("/accounts/import"); p.Status != http.StatusOK {
			t.Errorf("import page: %d", p.Status)
		}
		a = call(t, app, token, http.MethodPost, "/api/v1/ledgers?as_of=2026-10-31", "application/jsonl",
			[]byte(`{"account":"X","balance":1}`+"\n"+`{"acount":"Y"}`+"\n"+`[1]`+"\n"))
		if p := a.problem(t); a.Status != http.StatusUnprocessableEntity || len(p.Errors) != 2 || p.Errors[0].Field != "line 2" || p.Errors[1].Field != "line 3" {
			t.Errorf("bad JSON lines: %d %+v", a.Status, p)
		}
		for _, q := range []string{"", "?as_of=2999-01-01", "?as_of=2026-10-31&mode=merge", "?as_of=2026-10-31&decimal=dot"} {
			if a := call(t, app, token, http.MethodPost, "/api/v1/ledgers"+q, "text/csv", []byte(agingCSV)); a.Status != http.StatusUnprocessableEntity {
				t.Errorf("ledger %q: %d", q, a.Status)
			}
		}
		if a := call(t, app, token, http.MethodPost, "/api/v1/ledgers?as_of=2026-10-31", "text/csv", []byte("who,what\nx,y\n")); a.Status != http.StatusUnprocessableEntity ||
			!strings.Contains(a.problem(t).Errors[0].Detail, "balance") {
			t.Errorf("a file without a balance: %d %s", a.Status, a.Body)
		}

		// Pages of 50 walk the newest ledger's 120 accounts (the record
		// keeps too, owing nothing as of it).
		var seen []string
		next := "/api/v1/accounts?limit=50&q=j-"
		for next != "" {
			var p api.AccountPage
			get(t, app, token, next).into(t, http.StatusOK, &p)
			for _, acc := range p.Accounts {
				seen = append(seen, acc.Account)
			}
			next = ""
			if p.Next != nil {
				next = *p.Next
			}
		}
		if len(seen) != 120 || seen[0] != "J-000" || seen[119] != "J-119" {
			t.Errorf("walked %d accounts: %v…", len(seen), seen[:min(3, len(seen))])
		}
		get(t, app, token, "/api/v1/accounts?owner=bob&linked=false").into(t, http.StatusOK, &page)
		if len(page.Accounts) != 30 || page.NextCursor != nil || page.Accounts[0].Ledger == nil || page.Accounts[0].Ledger.Balance != 100.5 {
			t.Errorf("bob's: %d, first %+v", len(page.Accounts), page.Accounts[0])
		}
		get(t, app, token, "/api/v1/accounts?business_id=1001").into(t, http.StatusOK, &page)
		if len(page.Accounts) != 1 || page.Accounts[0].Account != "J-005" || *page.Accounts[0].BusinessID != 1001 {
			t.Errorf("business 1001: %+v", page.Accounts)
		}
		a = get(t, app, token, "/api/v1/accounts?limit=500&linked=maybe&over_limit=yes&cursor=zz&business_id=x")
		if p := a.problem(t); a.Status != http.StatusUnprocessableEntity || len(p.Errors) != 5 {
			t.Errorf("bad filters: %d %+v", a.Status, p.Errors)
		}
		var acc api.AccountRecord
		get(t, app, token, "/api/v1/accounts/J-007").into(t, http.StatusOK, &acc)
		if acc.Name != "Jay 7 Ltd" || acc.Ledger.AsOf != "2026-10-31" || acc.Limit != nil || len(acc.Decisions) != 0 {
			t.Errorf("J-007: %+v", acc)
		}
		for _, path := range []string{"/api/v1/accounts/NOPE", "/api/v1/decisions/12", "/api/v1/decisions/x", "/api/v1/nothing"} {
			if a := get(t, app, token, path); a.Status != http.StatusNotFound {
				t.Errorf("%s: %d", path, a.Status)
			} else {
				a.problem(t)
			}
		}

		// Decisions: a request, then the page of them.
		var d api.Decision
		postJSON(t, app, token, "/api/v1/limit-requests", map[string]any{"account": "J-007", "amount": 5000.5, "reason": "New customer"}).
			into(t, http.StatusCreated, &d)
		var dp api.DecisionPage
		get(t, app, token, "/api/v1/decisions?limit=1").into(t, http.StatusOK, &dp)
		if len(dp.Decisions) != 1 || dp.Decisions[0].ID != d.ID || dp.NextCursor != nil {
			t.Errorf("decisions: %+v", dp)
		}
		if a := get(t, app, token, "/api/v1/decisions?status=maybe&cursor=zz"); a.Status != http.StatusUnprocessableEntity {
			t.Errorf("bad decision filters: %d", a.Status)
		}

		// Alerts: the token holder's own, as their rules raised them.
		an := store.Analyst{Service: apptest.WorkspaceService, User: "developer"}
		rule, err := app.Store.AddRule(t.Context(), an, store.RuleSpec{Scope: store.ScopeBusiness, BusinessID: 1001, TargetName: "Westbridge",
			Score: store.ScoreRisk, Condition: store.Above, Threshold: 3})
		if err != nil {
			t.Fatal(err)
		}
		old := 3.0
		if _, err := app.Store.RecordAlerts(t.Context(), an, []store.Triggered{{RuleID: rule.ID, BusinessID: 1001, BusinessName: "Westbridge",
			Year: 2026, Month: time.September, Old: &old, New: 4}}); err != nil {
			t.Fatal(err)
		}
		var al api.AlertList
		get(t, app, token, "/api/v1/alerts").into(t, http.StatusOK, &al)
		if len(al.Alerts) != 1 || al.Alerts[0].Month != "2026-09" || al.Alerts[0].Value != 4 || *al.Alerts[0].Previous != 3 || al.Alerts[0].Read {
			t.Errorf("alerts: %+v", al.Alerts)
		}
		mgr := signIn(t, app, "demo")
		get(t, app, mgr.makeToken("mine", "read", 3, clk.Now()), "/api/v1/alerts").into(t, http.StatusOK, &al)
		if len(al.Alerts) != 0 {
			t.Errorf("another member sees %d of developer's alerts", len(al.Alerts))
		}
	})
}

// TestContractCatchesDrift: the check every answer passes fails an answer
// that is not as documented, so the tests above cannot pass by accident.
func TestContractCatchesDrift(t *testing.T) {
	router, err := contract()
	if err != nil {
		t.Fatal(err)
	}
	req, _ := http.NewRequest(http.MethodGet, "http://creditdash.test/api/v1/accounts", nil)
	route, params, err := router.FindRoute(req)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		status int
		ct     string
		body   string
	}{
		{http.StatusOK, "application/json", `{"accounts":[{"account":"A-1"}],"next_cursor":null,"next":null}`},
		{http.StatusOK, "application/json", `{"accounts":[],"next_cursor":7,"next":null}`},
		{http.StatusUnauthorized, "application/json", `{"type":"about:blank","title":"Unauthorized","status":401,"detail":"x"}`},
		{http.StatusUnprocessableEntity, api.ProblemType, `{"type":"about:blank","title":"x","status":422}`},
		{http.StatusTeapot, api.ProblemType, `{"type":"about:blank","title":"x","status":418,"detail":"x"}`},
	} {
		in := &openapi3filter.ResponseValidationInput{
			RequestValidationInput: &openapi3filter.RequestValidationInput{Request: req, PathParams: params, Route: route},
			Status:                 c.status, Header: http.Header{"Content-Type": {c.ct}},
			Options: &openapi3filter.Options{IncludeResponseStatus: true},
		}
		in.SetBodyBytes([]byte(c.body))
		if err := openapi3filter.ValidateResponse(context.Background(), in); err == nil {
			t.Errorf("%d %s %s passed the contract", c.status, c.ct, c.body)
		}
	}
}
