package api_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"creditdash/internal/api"
	"creditdash/internal/apptest"
)

// TestPushedNamesQueuedForTheSearch (issue 43.3): a names-only ledger
// pushed through the API queues the names no business of the team's
// matches, as the import page queues those past its searches: a token
// holds no session key, so nothing is searched at the push. The dry run
// says how many would wait; the push queues them (audited); a signed-in
// analyst's "look up" on the import page links the one the service knows
// and leaves the other not linked. A line with a business id, or a name
// the team's ledger knows, is never queued.
func TestPushedNamesQueuedForTheSearch(t *testing.T) {
	engines(t, func(t *testing.T, app *apptest.App, clk *clock) {
		dev := signIn(t, app, "developer")
		token := dev.makeToken("erp", "write", 10, clk.Now())
		known := strings.TrimSpace(dev.Get("/businesses/1001").Text("h1"))
		if known == "" {
			t.Fatal("business 1001 shows no name")
		}
		first := "Customer,Business Id,Total\nHarbour Foods,1002,200.00\n"
		call(t, app, token, http.MethodPost, "/api/v1/ledgers?as_of=2026-09-30", "text/csv", []byte(first)).into(t, http.StatusCreated, &api.ImportResult{})

		names := "Acme Receivables\nAged Receivables Summary\nAs at 31 October 2026\n\n" +
			"Contact,Current,Total\n" +
			"Harbour Foods,50.00,50.00\n" + // the team's ledger knows it: linked by name
			"\"" + strings.ToUpper(known) + "\",100.00,100.00\n" +
			"Quorvath Nimble Ltd,25.00,25.00\n" +
			"Total,175.00,175.00\n"
		before := app.Sim.Requests()["developer"]["/v1/Business/Search"]
		var dry api.ImportResult
		call(t, app, token, http.MethodPost, "/api/v1/ledgers?as_of=2026-10-31&mode=update&dry_run=true", "text/csv", []byte(names)).
			into(t, http.StatusOK, &dry)
		if !strings.Contains(dry.Summary, "2 names would be queued") {
			t.Errorf("dry run: %q", dry.Summary)
		}
		var pushed api.ImportResult
		call(t, app, token, http.MethodPost, "/api/v1/ledgers?as_of=2026-10-31&mode=update", "text/csv", []byte(names)).
			into(t, http.StatusCreated, &pushed)
		if pushed.Imported != 3 || !strings.Contains(pushed.Summary, "2 names queued to be looked up") {
			t.Errorf("push: %+v", pushed)
		}
		if got := app.Sim.Requests()["developer"]["/v1/Business/Search"] - before; got != 0 {
			t.Errorf("the push searched %d names; a token holds no session key", got)
		}
		if q := dev.Get("/audit?action=name-lookup").Text("table.audit tbody"); !strings.Contains(q, "2 queued") {
			t.Errorf("the queue is not audited: %.400s", q)
		}

		page := dev.Get("/accounts/import")
		if page.Doc.Find("#lookups tbody tr").Length() != 2 || !strings.Contains(page.Text("#lookups tbody"), "Quorvath Nimble Ltd") ||
			strings.Contains(page.Text("#lookups tbody"), "Harbour Foods") {
			t.Fatalf("the queue on the import page: %.600s", page.Text("#lookups"))
		}
		to := dev.Submit(page, "#lookups form")
		if to.Status != http.StatusSeeOther {
			t.Fatalf("look up: %d", to.Status)
		}
		if flash := dev.Get(to.Location()).Text(".flash"); !strings.Contains(flash, "2 names looked up: 1 linked") {
			t.Errorf("after looking up: %q", flash)
		}
		var acct api.Account
		get(t, app, token, "/api/v1/accounts/"+url.PathEscape(strings.ToUpper(known))).into(t, http.StatusOK, &acct)
		if acct.BusinessID == nil || *acct.BusinessID != 1001 {
			t.Errorf("the known name's account: %+v", acct)
		}
	})
}
