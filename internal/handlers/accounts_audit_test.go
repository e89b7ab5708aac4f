package handlers_test

import (
	"database/sql"
	"net/http"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"

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
		if v := auditor.Get("/audit/verify"); !strings.Contains(v.Text("main"), "Intact, 9 entries") {
			t.Errorf("verify: %q", v.Text("main"))
		}
	})
}

// TestImportChangesAuditedOneByOne (issue 47.3): through the router on
// both engines, re-importing a date logs each account it changes in its
// own entry (an owner filled in, a link made, an ERP limit changed, a
// balance replaced, an account the full ledger leaves out) and the
// replaced ledger kept as a version; a file's owner that the owner form
// would refuse is refused on its row, saying why, and fills nothing.
func TestImportChangesAuditedOneByOne(t *testing.T) {
	eachAuditEngine(t, func(t *testing.T, app *apptest.App, _ *sql.DB) {
		u := signInAccounts(t, app, "demo")
		previewAndImport(t, u, "oct.csv", "Customer No.,Name,Business Id,Total Due,Credit Limit,Owner\n"+
			"A-1,Westbridge,1001,1500,5000,alice\n"+
			"A-2,Eastgate,,200,1000,\n"+
			"A-3,Northway,1003,900,900,alice\n", "2026-10-31", "full")
		p := u.upload("oct again.csv", []byte("Customer No.,Name,Business Id,Total Due,Credit Limit,Owner\n"+
			"A-1,Westbridge,1001,1700,5000,alice\n"+
			"A-2,Eastgate,1002,200,1500,bob\n"+
			"A-4,Southend,1004,50,100,=cmd|x\n"), "2026-10-31")
		if !strings.Contains(p.Text("main"), "is not a user name") {
			t.Errorf("the preview does not refuse the owner =cmd|x: %.600s", p.Text("main"))
		}
		action, fields, ok := p.Form("form.import-confirm")
		if !ok {
			t.Fatalf("no import offered: %.600s", p.Text("main"))
		}
		mustRedirect(t, "import again", u.PostForm(action, fields))

		auditor := app.SignIn(t, "trade")
		rows := map[string]string{}
		auditor.Get("/audit?action=import-change").Doc.Find("table.audit tbody tr").Each(func(_ int, r *goquery.Selection) {
			cells := r.Find("td").Map(func(_ int, td *goquery.Selection) string { return strings.TrimSpace(td.Text()) })
			for _, acc := range cells {
				if strings.HasPrefix(acc, "A-") {
					rows[acc] += strings.Join(cells, " | ")
				}
			}
		})
		want := map[string][]string{
			"A-1": {"balance=1500", "balance=1700"},
			"A-2": {"owner=", "link=0", "erp_limit=1000", "owner=bob", "link=1002", "erp_limit=1500"},
			"A-3": {"balance=900", "no line", "owing nothing"},
		}
		if len(rows) != len(want) {
			t.Errorf("changes logged for %d accounts, want %d: %v", len(rows), len(want), rows)
		}
		for acc, ws := range want {
			for _, w := range ws {
				if !strings.Contains(rows[acc], w) {
					t.Errorf("%s's change lacks %q: %q", acc, w, rows[acc])
				}
			}
		}
		if v := auditor.Get("/audit?action=ledger-version").Text("table.audit tbody"); !strings.Contains(v, "ledger of 2026-10-31 imported by demo") {
			t.Errorf("the version kept is logged as %q", v)
		}
		if n := auditor.Get("/audit?action=account-create&account=A-4").Doc.Find("table.audit tbody tr").Length(); n != 0 {
			t.Errorf("A-4, refused for its owner, was created")
		}
		if v := auditor.Get("/audit/verify"); !strings.Contains(v.Text("main"), "Intact") {
			t.Errorf("verify: %q", v.Text("main"))
		}
	})
}
