package handlers_test

import (
	"database/sql"
	"net/http"
	"strings"
	"testing"

	"creditdash/internal/apptest"
)

// TestAccountChangesInTheAuditTrail: a ledger imported (with what it did,
// counted and named, and each account it adds) and calculator inputs
// saved through the router appear in /audit with who, what, the account
// and old and new values; the import logs no limit (the file's are the
// ERP's); the log verifies intact.
func TestAccountChangesInTheAuditTrail(t *testing.T) {
	eachAuditEngine(t, func(t *testing.T, app *apptest.App, _ *sql.DB) {
		u := signInAccounts(t, app, "demo")
		importLedger(t, u, "aging.csv", []byte(ledgerCSV), "2026-09-30")
		p := u.Get("/businesses/1001/limit?monthly_sales=60500&loss_budget=2000")
		mustRedirect(t, "save", u.Submit(p, `form[method="post"][action="/businesses/1001/limit"]`))

		auditor := app.SignIn(t, "trade")
		imports := auditor.Get("/audit?action=ledger-import")
		if imports.Status != http.StatusOK || imports.Doc.Find("table.audit tbody tr").Length() != 1 ||
			!strings.Contains(imports.Text("table.audit"), `"aging.csv": 2026-09-30, full ledger: 2 accounts in the file; 2 new (A-1, A-2)`) ||
			!strings.Contains(imports.Text("table.audit"), "1 row skipped") {
			t.Errorf("imports logged: %d rows, %q", imports.Doc.Find("table.audit tbody tr").Length(), imports.Text("table.audit"))
		}
		if n := auditor.Get("/audit?action=limit").Doc.Find("table.audit tbody tr").Length(); n != 0 {
			t.Errorf("the import logged %d limits", n)
		}
		created := auditor.Get("/audit?action=account-create&account=A-1")
		row := created.Text("table.audit tbody tr")
		if created.Doc.Find("table.audit tbody tr").Length() != 1 || !strings.Contains(row, "demo") || !strings.Contains(row, "name=Westbridge") {
			t.Errorf("A-1's creation logged as %q", row)
		}
		inputs := auditor.Get("/audit?action=limit-inputs").Text("table.audit tbody tr")
		if !strings.Contains(inputs, "A-1") || !strings.Contains(inputs, "monthly_sales=60500; months_allowed=2; loss_budget=2000") {
			t.Errorf("inputs logged as %q", inputs)
		}
		if v := auditor.Get("/audit/verify"); !strings.Contains(v.Text("main"), "Intact, 10 entries") {
			t.Errorf("verify: %q", v.Text("main"))
		}
	})
}
