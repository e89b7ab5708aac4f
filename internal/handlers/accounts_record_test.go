package handlers_test

import (
	"net/http"
	"regexp"
	"strings"
	"testing"

	"creditdash/internal/apptest"
)

// monthCSV is a month's file as a system without a limit column exports
// it (QuickBooks has none): three accounts with an owner column.
const monthCSV = "Customer No.,Name,Business Id,Total Due,Current,1-30,Owner\n" +
	"A-1,Westbridge,1001,1500,1000,500,alice\n" +
	"A-2,Eastgate,1002,200,200,0,alice\n" +
	"A-3,Northway,1003,900,900,0,alice\n"

// partialCSV is one line of the same month.
const partialCSV = "Customer No.,Name,Business Id,Total Due,Current,1-30\n" +
	"A-1,Westbridge,1001,1500,1000,500\n"

// previewAndImport previews a file and imports it in mode ("full" or
// "update"), returning the preview and the accounts page it lands on.
func previewAndImport(t *testing.T, u *wsUser, name, data, asOf, mode string) (*apptest.Page, *apptest.Page) {
	t.Helper()
	p := u.upload(name, []byte(data), asOf)
	if p.Status != http.StatusOK {
		t.Fatalf("preview of %s: status %d; %.400s", name, p.Status, p.Text("main"))
	}
	action, fields, ok := p.Form("form.import-confirm")
	if !ok {
		t.Fatalf("the preview of %s offers no import", name)
	}
	fields.Set("mode", mode) // the radio a browser sends
	to := mustRedirect(t, "import "+name, u.PostForm(action, fields))
	return p, u.Get(to)
}

// recordState is what the done-when of issue 43 says a re-import leaves
// as it was: each account's row (limit in force, owner, implied limit from
// the saved inputs, risk band), each next review date, and expected loss.
func recordState(t *testing.T, u *wsUser) (rows map[string]string, el string) {
	t.Helper()
	csv := u.Get("/accounts.csv")
	rows = map[string]string{}
	for _, line := range strings.Split(strings.TrimSpace(csv.Body), "\n")[1:] {
		f := strings.Split(line, ",")
		// account, business, credit_limit, risk_score, implied_limit,
		// next_review, owner: the record, not the day's balances.
		rows[f[0]] = strings.Join([]string{f[2], f[9], f[12], f[15], f[16], f[17]}, ",")
	}
	m := regexp.MustCompile(`expected loss (\$[0-9,.]+|unknown)`).FindStringSubmatch(u.Get("/accounts").Text("main"))
	if m == nil {
		t.Fatalf("the accounts page states no expected loss: %.600s", u.Get("/accounts").Text("main"))
	}
	return rows, m[1]
}

// TestReimportsKeepTheRecordThroughTheRouter: a month's file, a limit
// approved by four eyes, an owner assigned, calculator inputs saved, a
// review recorded and the businesses' scores known; re-importing the
// month's file, a partial file (as an update, then as the full ledger)
// and the full file again leaves every limit, owner, input, review date
// and known score as it was and expected loss unchanged; the preview
// says, counted and named, what each import would do.
func TestReimportsKeepTheRecordThroughTheRouter(t *testing.T) {
	decisionApps(t, func(t *testing.T, app *apptest.App) {
		dev := signInAccounts(t, app, "developer") // an analyst, authority 10,000
		boss := signInAccounts(t, app, "demo")     // a manager
		previewAndImport(t, dev, "oct.csv", monthCSV, "2026-10-31", "full")
		for _, b := range []string{"/businesses/1001", "/businesses/1002", "/businesses/1003"} {
			dev.Get(b) // the team learns the scores
		}
		to := mustRedirect(t, "request", dev.post("/businesses/1001/limit-requests", "account", "A-1", "amount", "40,000", "reason", "Orders doubled"))
		mustRedirect(t, "approve", boss.post(to+"/approve", "note", "ok"))
		mustRedirect(t, "owner", dev.post("/accounts/A-2/owner", "owner", "demo"))
		p := dev.Get("/businesses/1003/limit?monthly_sales=20000&loss_budget=500")
		mustRedirect(t, "save inputs", dev.Submit(p, `form[method="post"][action="/businesses/1003/limit"]`))
		mustRedirect(t, "review", dev.post("/accounts/A-1/review", "outcome", "keep", "note", "fine"))
		before, el := recordState(t, dev)
		if !strings.HasPrefix(before["A-1"], "1001,40000,") || !strings.HasSuffix(before["A-2"], ",demo") || strings.Split(before["A-3"], ",")[3] == "" {
			t.Fatalf("set-up: %v", before)
		}

		steps := []struct{ name, data, mode string }{
			{"oct again.csv", monthCSV, "full"},
			{"one line.csv", partialCSV, "update"},
			{"one line.csv", partialCSV, "full"},
			{"oct again.csv", monthCSV, "full"},
		}
		for _, s := range steps {
			preview, page := previewAndImport(t, dev, s.name, s.data, "2026-10-31", s.mode)
			if s.data == partialCSV {
				plan := preview.Text("#import-plan")
				for _, want := range []string{"0 new accounts", "is kept as a version", "2 accounts in that ledger but not in the file: A-2, A-3",
					"owe nothing", "left as they were", "Total imported: $1,500"} {
					if !strings.Contains(plan, want) {
						t.Errorf("the plan of a partial file lacks %q: %q", want, plan)
					}
				}
			}
			if n := page.Doc.Find("table.accounts tbody tr").Length(); n != 3 {
				t.Errorf("after %s (%s): /accounts lists %d accounts, want the record's 3", s.name, s.mode, n)
			}
			after, elAfter := recordState(t, dev)
			for acc, want := range before {
				if after[acc] != want {
					t.Errorf("after %s (%s): %s = %q, want %q", s.name, s.mode, acc, after[acc], want)
				}
			}
			if s.data == monthCSV && elAfter != el {
				t.Errorf("after %s (%s): expected loss %s, want %s", s.name, s.mode, elAfter, el)
			}
		}
		if n := dev.Get("/audit?action=limit").Doc.Find("table.audit tbody tr").Length(); n != 1 {
			t.Errorf("%d limit changes logged, want the one approval", n)
		}
		if n := dev.Get("/audit?action=ledger-import").Doc.Find("table.audit tbody tr").Length(); n != 5 {
			t.Errorf("%d imports logged, want 5", n)
		}
	})
}

// TestAnAnalystsFileCannotRaiseALimit: an analyst's file with a limit
// column sets no limit: the ERP's limits are kept and flagged on /accounts
// and the worklist; requesting them is an explicit step through the usual
// rules: within authority approved at once, above it waiting for a
// manager; an auditor may not take it.
func TestAnAnalystsFileCannotRaiseALimit(t *testing.T) {
	decisionApps(t, func(t *testing.T, app *apptest.App) {
		dev := signInAccounts(t, app, "developer") // analyst, authority 10,000
		file := "Customer No.,Name,Business Id,Total Due,Current,Credit Limit\n" +
			"A-1,Westbridge,1001,1500,1500,900000\n" +
			"A-2,Eastgate,1002,200,200,5000\n"
		preview, page := previewAndImport(t, dev, "erp.csv", file, "2026-10-31", "full")
		if got := preview.Text("#plan-erp"); !strings.Contains(got, "2 ERP limits") || !strings.Contains(got, "A-1: ERP $900,000, in force none") {
			t.Errorf("the plan's ERP limits = %q", got)
		}
		row := page.Text("table.accounts tbody tr:first-child")
		if !strings.Contains(row, "$900,000 differs") || strings.Contains(row, "over limit") {
			t.Errorf("A-1's row = %q, want the ERP's $900,000 flagged beside no limit in force", row)
		}
		if got := strings.TrimSpace(page.Text("#erp-differs")); !strings.Contains(got, "2 accounts with an ERP limit") {
			t.Errorf("/accounts says %q", got)
		}
		if got := dev.Get("/worklist?reason=erp-limit-differs").Text("table.worklist"); !strings.Contains(got, "ERP limit differs: the ledger's ERP limit $900,000, the limit in force none") {
			t.Errorf("worklist = %q", got)
		}
		if n := dev.Get("/audit?action=limit").Doc.Find("table.audit tbody tr").Length(); n != 0 {
			t.Fatalf("the import set %d limits", n)
		}
		wantRefused(t, "an auditor adopting", signInAccounts(t, app, "trade").post("/accounts/erp-limits", "reason", "x"), "")
		if p := dev.post("/accounts/erp-limits", "reason", " "); p.Status != http.StatusBadRequest && p.Status != http.StatusUnprocessableEntity {
			t.Errorf("no reason: status %d", p.Status)
		}
		to := mustRedirect(t, "adopt", dev.post("/accounts/erp-limits", "reason", "the ERP is right"))
		if flash := dev.Get(to).Text(".flash"); !strings.Contains(flash, "2 limit requests made for the ERP's limits: 1 approved at once") ||
			!strings.Contains(flash, "1 waiting for a second pair of eyes") {
			t.Errorf("flash = %q", flash)
		}
		rows, _ := recordState(t, dev)
		if !strings.HasPrefix(rows["A-1"], "1001,,") || !strings.HasPrefix(rows["A-2"], "1002,5000,") {
			t.Errorf("limits in force after the requests: %v; want A-1 none (waiting), A-2 5,000 (within authority)", rows)
		}
		// Asking again makes no second request for A-1, still waiting.
		to = mustRedirect(t, "adopt again", dev.post("/accounts/erp-limits", "reason", "again"))
		if flash := dev.Get(to).Text(".flash"); !strings.Contains(flash, "0 limit requests") {
			t.Errorf("second flash = %q", flash)
		}
		boss := signInAccounts(t, app, "ordinary") // a manager of 1,000,000
		waiting := boss.Get("/decisions").Doc.Find(`a[href^="/decisions/"]`).First().AttrOr("href", "")
		mustRedirect(t, "approve", boss.post(waiting+"/approve", "note", "checked"))
		if rows, _ := recordState(t, dev); !strings.HasPrefix(rows["A-1"], "1001,900000,") {
			t.Errorf("after the manager's approval A-1 = %q", rows["A-1"])
		}
	})
}

// TestRestoreAReplacedLedger: a partial file replacing a month is kept
// as a version the import page lists; restoring it (a CSRF-checked POST,
// refused to auditors) puts the full month back and is audited.
func TestRestoreAReplacedLedger(t *testing.T) {
	decisionApps(t, func(t *testing.T, app *apptest.App) {
		dev := signInAccounts(t, app, "developer")
		previewAndImport(t, dev, "oct.csv", monthCSV, "2026-10-31", "full")
		_, page := previewAndImport(t, dev, "one line.csv", partialCSV, "2026-10-31", "full")
		if !strings.Contains(page.Text(".flash"), "kept as a version") || !strings.Contains(page.Text("#not-in-ledger"), "2 accounts") {
			t.Errorf("after the partial file: flash %q, note %q", page.Text(".flash"), page.Text("#not-in-ledger"))
		}
		imp := dev.Get("/accounts/import")
		row := imp.Text("#versions tbody tr")
		if !strings.Contains(row, "2026-10-31") || !strings.Contains(row, "oct.csv") || !strings.Contains(row, "replaced by developer") {
			t.Fatalf("kept versions = %q", row)
		}
		action, fields, _ := imp.Form("#versions form")
		bare := fields
		bare.Del("_csrf")
		if p := dev.PostForm(action, bare); p.Status != http.StatusForbidden {
			t.Errorf("restore without CSRF: %d", p.Status)
		}
		wantRefused(t, "an auditor restoring", signInAccounts(t, app, "trade").post(action), "")
		to := mustRedirect(t, "restore", dev.post(action))
		p := dev.Get(to)
		if !strings.Contains(p.Text(".flash"), "2026-10-31 is restored") || p.Text("#not-in-ledger") != "" {
			t.Errorf("after the restore: flash %q, not in ledger %q", p.Text(".flash"), p.Text("#not-in-ledger"))
		}
		if row := p.Text("table.accounts tbody tr:last-child"); !strings.Contains(row, "A-3") || !strings.Contains(row, "$900") {
			t.Errorf("A-3 after the restore = %q", row)
		}
		if got := dev.Get("/audit?action=ledger-restore").Text("table.audit tbody tr"); !strings.Contains(got, "developer") || !strings.Contains(got, "2026-10-31") {
			t.Errorf("restore logged as %q", got)
		}
		if p := dev.post(action); p.Status != http.StatusBadRequest && p.Status != http.StatusUnprocessableEntity {
			t.Errorf("restoring a version no longer kept: %d", p.Status)
		}
	})
}

// TestAddAnAccountByHand: an account for a business no ledger holds; bad
// input keeps what was typed (422); the new account is listed, audited,
// and a limit request for the new customer has it.
func TestAddAnAccountByHand(t *testing.T) {
	decisionApps(t, func(t *testing.T, app *apptest.App) {
		dev := signInAccounts(t, app, "developer")
		if p := dev.Get("/accounts/new"); p.Status != http.StatusOK || p.Doc.Find(`form[action="/accounts/new"]`).Length() != 1 {
			t.Fatalf("/accounts/new: %d", p.Status)
		}
		bad := dev.post("/accounts/new", "account", "N-1", "name", "Newco", "business_id", "12a", "reason", "new customer")
		if bad.Status != http.StatusUnprocessableEntity || bad.Text("#business_id-error") == "" {
			t.Errorf("a bad business id: %d %q", bad.Status, bad.Text("#business_id-error"))
		}
		if v, _ := bad.Doc.Find("#name").Attr("value"); v != "Newco" {
			t.Errorf("the typed name is not kept: %q", v)
		}
		wantRefused(t, "an auditor adding", signInAccounts(t, app, "trade").post("/accounts/new", "account", "N-1", "name", "Newco",
			"business_id", "1005", "reason", "x"), "")
		to := mustRedirect(t, "add", dev.post("/accounts/new", "account", "N-1", "name", "Newco", "business_id", "1005", "reason", "new customer"))
		if !strings.HasPrefix(to, "/businesses/1005") {
			t.Errorf("adding leads to %q", to)
		}
		again := dev.post("/accounts/new", "account", "N-1", "name", "Other", "business_id", "1006", "reason", "again")
		if again.Status != http.StatusUnprocessableEntity || !strings.Contains(again.Text("#account-error"), "already has an account N-1") {
			t.Errorf("a number taken: %d %q", again.Status, again.Text("#account-error"))
		}
		if row := dev.Get("/accounts").Text("table.accounts tbody"); !strings.Contains(row, "N-1") || !strings.Contains(row, "Newco") {
			t.Errorf("/accounts = %q", row)
		}
		if got := dev.Get("/audit?action=account-create").Text("table.audit tbody tr"); !strings.Contains(got, "added by hand: new customer") {
			t.Errorf("logged as %q", got)
		}
		req := mustRedirect(t, "request", dev.post("/businesses/1005/limit-requests", "account", "N-1", "amount", "5,000", "reason", "first order"))
		if p := dev.Get(req); p.Text("#status") != "Approved" {
			t.Errorf("the new customer's request: %q", p.Text("#status"))
		}
	})
}
