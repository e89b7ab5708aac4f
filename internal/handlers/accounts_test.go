package handlers_test

import (
	"bytes"
	"mime/multipart"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"creditdash/internal/apptest"
	"creditdash/internal/store"
)

// team is the test deployment's team key.
var team = store.Analyst{Service: apptest.WorkspaceService, User: "demo"}

// upload posts a ledger file to the import form as a browser would.
func (u *wsUser) upload(name string, data []byte, asOf string) *apptest.Page {
	u.t.Helper()
	var b bytes.Buffer
	w := multipart.NewWriter(&b)
	_ = w.WriteField("_csrf", u.token)
	_ = w.WriteField("as_of", asOf)
	if name != "" {
		fw, _ := w.CreateFormFile("file", name)
		_, _ = fw.Write(data)
	}
	_ = w.Close()
	req, _ := http.NewRequest(http.MethodPost, u.appURL+"/accounts/import", &b)
	req.Header.Set("Content-Type", w.FormDataContentType())
	return u.Do(req)
}

// ledgerCSV has two good rows, one a formula-looking name, and one bad.
const ledgerCSV = "Customer No.;Name;Business Id;Total Due;Current;1-30;Credit Limit;Terms\n" +
	"A-1;Westbridge;1001;1.500,00;1.000,00;500,00;1.000,00;Net 30\n" +
	"A-2;=HYPERLINK(\"http://x\");1002;200;200;0;5.000,00;30\n" +
	"A-3;Bad total;1003;900;100;0;1.000;30\n"

// importLedger previews and imports a ledger, returning the accounts page
// it lands on.
func importLedger(t *testing.T, u *wsUser, name string, data []byte, asOf string) *apptest.Page {
	t.Helper()
	p := u.upload(name, data, asOf)
	if p.Status != http.StatusOK {
		t.Fatalf("preview: status = %d; body: %.600s", p.Status, p.Body)
	}
	to := mustRedirect(t, "import", u.Submit(p, "form.import-confirm"))
	if !strings.HasPrefix(to, "/accounts?import=") {
		t.Fatalf("import went to %q", to)
	}
	return u.Get(to)
}

// TestImportPreviewWritesNothingThenImports: the preview lists the rows it
// would skip with their numbers and writes nothing; its button imports
// the valid rows, and every analyst of the deployment sees them while an
// analyst of another service sees none.
func TestImportPreviewWritesNothingThenImports(t *testing.T) {
	workspaceEngines(t, func(t *testing.T, opts apptest.Options) {
		if opts.DatabaseURL == "" {
			opts.DataDir = t.TempDir() // the other service's app shares the file
		}
		app := apptest.Start(t, opts)
		u := signInAccounts(t, app, "demo")
		p := u.upload("aging.csv", []byte(ledgerCSV), "2026-09-30")
		if p.Status != http.StatusOK {
			t.Fatalf("preview: status = %d; %.500s", p.Status, p.Body)
		}
		bad := p.Text("table.import-bad tbody")
		if !strings.Contains(bad, "4") || !strings.Contains(bad, "add up to 100.00, not to the balance 900.00") {
			t.Errorf("refused rows = %q, want row 4 and its reason", bad)
		}
		if got := p.Text("#preview-title ~ p strong"); !strings.Contains(got, "2 rows can be imported, 1 row would be skipped") {
			t.Errorf("summary = %q", got)
		}
		if dates, err := app.Store.LedgerDates(t.Context(), team); err != nil || len(dates) != 0 {
			t.Fatalf("after the preview the team has ledgers %v (%v); a preview writes nothing", dates, err)
		}
		page := u.Get(mustRedirect(t, "import", u.Submit(p, "form.import-confirm")))
		if flash := page.Text(".flash"); !strings.Contains(flash, "2 accounts imported, 1 row skipped") {
			t.Errorf("flash = %q", flash)
		}
		other := signInAccounts(t, app, "ordinary")
		list := other.Get("/accounts")
		// The file's limit is the ERP's: shown beside the limit in force
		// (none yet), flagged, never adopted.
		if got := list.Text("table.accounts tbody tr:first-child"); !strings.Contains(got, "A-1") || !strings.Contains(got, "$1,500") ||
			!strings.Contains(got, "$1,000 differs") || strings.Contains(got, "150.0%") {
			t.Errorf("ordinary's accounts = %q, want A-1 at $1,500, its ERP limit $1,000 flagged and no limit in force", got)
		}
		if !strings.Contains(list.Body, "midpoint") {
			t.Error("the accounts page does not say PD is the band midpoint")
		}
		elseOpts := opts
		elseOpts.ServiceName, elseOpts.SameService = "https://another.example", app
		elsewhere := apptest.Start(t, elseOpts)
		if got := signInAccounts(t, elsewhere, "demo").Get("/accounts"); strings.Contains(got.Body, "A-1") {
			t.Error("an analyst of another service sees the team's accounts")
		}
	})
}

// signInAccounts signs in and keeps the import page's CSRF token.
func signInAccounts(t *testing.T, app *apptest.App, name string) *wsUser {
	t.Helper()
	u := signInWS(t, app, name)
	u.appURL = app.URL
	return u
}

// TestImportRefusals: every refused file says why with its status and
// writes nothing; the date typed is kept.
func TestImportRefusals(t *testing.T) {
	app := apptest.Start(t, apptest.Options{})
	u := signInAccounts(t, app, "demo")
	var many bytes.Buffer
	many.WriteString("account,business_id,balance\n")
	for range 250001 {
		many.WriteString("A,1,1\n")
	}
	// Issue 47: a header of a million columns costs one pass over its
	// bytes and is refused naming the bound.
	wide := append(bytes.Repeat([]byte("a,"), 1000000), "balance\nA\n"...)
	for _, c := range []struct {
		name   string
		file   string
		data   []byte
		status int
		want   string
	}{
		{"no file", "", nil, http.StatusUnprocessableEntity, "Choose a CSV or XLSX file"},
		{"binary", "x.pdf", []byte("%PDF\x00\x01\x02"), http.StatusUnprocessableEntity, "neither a CSV file nor an XLSX"},
		{"no balance", "a.csv", []byte("account,name\nA,x\n"), http.StatusUnprocessableEntity, "column header names a balance"},
		{"too many rows", "big.csv", many.Bytes(), http.StatusUnprocessableEntity, "more than 250,000 rows"},
		{"a million columns", "wide.csv", wide, http.StatusUnprocessableEntity, "at most 200 columns are read"},
		{"too large", "huge.csv", bytes.Repeat([]byte("a,b,balance\n"), 11<<20/12), http.StatusRequestEntityTooLarge, "over 10 MB"},
	} {
		p := u.upload(c.file, c.data, "2026-09-30")
		if p.Status != c.status || !strings.Contains(p.Body, c.want) {
			t.Errorf("%s: status = %d, want %d with %q; body: %.300s", c.name, p.Status, c.status, c.want, p.Text("main"))
		}
	}
	// A future date is refused on import, with what was typed kept.
	p := u.upload("a.csv", []byte(ledgerCSV), "2026-09-30")
	_, fields, _ := p.Form("form.import-confirm")
	fields.Set("as_of", "2999-01-01")
	p = u.PostForm("/accounts/import/confirm", fields)
	if p.Status != http.StatusUnprocessableEntity || p.Text("#confirm-as-of-error") == "" {
		t.Errorf("future date: status %d, error %q", p.Status, p.Text("#confirm-as-of-error"))
	}
	if v, _ := p.Doc.Find("#confirm-as-of").Attr("value"); v != "2999-01-01" {
		t.Errorf("the date typed is not kept: %q", v)
	}
	// Without the token the import is refused.
	fields.Set("as_of", "2026-09-30")
	fields.Del("_csrf")
	if p := u.PostForm("/accounts/import/confirm", fields); p.Status != http.StatusForbidden {
		t.Errorf("import without CSRF token: status %d", p.Status)
	}
	// An upload no longer kept asks for the file again.
	fields.Set("_csrf", u.token)
	fields.Set("upload", "stale")
	if p := u.PostForm("/accounts/import/confirm", fields); p.Status != http.StatusUnprocessableEntity || !strings.Contains(p.Body, "choose the file again") {
		t.Errorf("stale upload: status %d", p.Status)
	}
	if dates, _ := app.Store.LedgerDates(t.Context(), team); len(dates) != 0 {
		t.Errorf("refused imports wrote ledgers %v", dates)
	}
}

// TestImportRemapsColumnsByHand: headers no alias knows are mapped in the
// preview, which reads the kept upload again without a new upload.
func TestImportRemapsColumnsByHand(t *testing.T) {
	app := apptest.Start(t, apptest.Options{})
	u := signInAccounts(t, app, "demo")
	p := u.upload("odd.csv", []byte("Kto,Firma,Saldo\nK1,1001,250\n"), "2026-09-30")
	if p.Status != http.StatusUnprocessableEntity || p.Text("#mapping-error") == "" {
		t.Fatalf("unknown headers: status %d, mapping error %q", p.Status, p.Text("#mapping-error"))
	}
	_, fields, _ := p.Form("form.mapping-form")
	fields.Set("map_0", "account")
	fields.Set("map_1", "business_id")
	fields.Set("map_2", "balance")
	p = u.PostForm("/accounts/import", fields)
	if p.Status != http.StatusOK || !strings.Contains(p.Text("#preview"), "1 row can be imported") {
		t.Fatalf("remapped: status %d; %.400s", p.Status, p.Text("#preview"))
	}
	page := u.Get(mustRedirect(t, "import", u.Submit(p, "form.import-confirm")))
	if !strings.Contains(page.Text("table.accounts"), "K1") {
		t.Errorf("the remapped account is not listed")
	}
}

// TestAccountsDownloads: the CSV's header is exactly the documented one
// and formulas are defused; the workbook holds the same rows.
func TestAccountsDownloads(t *testing.T) {
	workspaceEngines(t, func(t *testing.T, opts apptest.Options) {
		app := apptest.Start(t, opts)
		u := signInAccounts(t, app, "demo")
		importLedger(t, u, "aging.csv", []byte(ledgerCSV), "2026-09-30")
		csv := u.Get("/accounts.csv")
		lines := strings.Split(strings.TrimSpace(csv.Body), "\n")
		want := "account,name,business_id,balance,current,days_1_30,days_31_60,days_61_90,days_over_90,credit_limit,terms_days,utilization,risk_score,pd,expected_loss,implied_limit,next_review,owner"
		if csv.Status != http.StatusOK || strings.TrimSpace(lines[0]) != want || len(lines) != 3 {
			t.Fatalf("accounts.csv = %d %q", csv.Status, csv.Body)
		}
		if !strings.Contains(lines[2], `"'=HYPERLINK(""http://x"")"`) {
			t.Errorf("formula name not defused: %q", lines[2])
		}
		// credit_limit is the limit in force: none until a decision.
		if !strings.HasPrefix(lines[1], "A-1,Westbridge,1001,1500,1000,500,0,0,0,,30,,") {
			t.Errorf("row = %q", lines[1])
		}
		grantLimit(t, app, "A-1", 1000)
		lines = strings.Split(strings.TrimSpace(u.Get("/accounts.csv").Body), "\n")
		if !strings.HasPrefix(lines[1], "A-1,Westbridge,1001,1500,1000,500,0,0,0,1000,30,1.5,") {
			t.Errorf("row with a limit in force = %q", lines[1])
		}
		over := u.Get("/accounts.csv?over=1")
		if n := len(strings.Split(strings.TrimSpace(over.Body), "\n")); n != 2 {
			t.Errorf("over-limit download has %d lines, want the header and A-1", n)
		}
		x := u.Get("/accounts.xlsx")
		if x.Status != http.StatusOK || !strings.HasPrefix(x.Body, "PK") {
			t.Errorf("accounts.xlsx: status %d", x.Status)
		}
	})
}

// TestSampleLedgerAndKnownScores: the demo's sample ledger imports; a
// report's overview records the team's scores, so the account shows its
// Risk band, PD and expected loss; linking by SupplierId and fetching
// missing scores fill in the rest.
func TestSampleLedgerAndKnownScores(t *testing.T) {
	app := apptest.Start(t, apptest.Options{})
	u := signInAccounts(t, app, "demo")
	imp := u.Get("/accounts/import")
	if imp.Doc.Find(`button[name="sample"]`).Length() != 2 {
		t.Fatal("the import page offers no sample ledgers in demo mode")
	}
	p := u.PostForm("/accounts/import", url.Values{"_csrf": {u.token}, "sample": {"demo-ledger-current.csv"}})
	if p.Status != http.StatusOK || len(p.Doc.Find("table.import-bad tbody tr").Nodes) != 2 {
		t.Fatalf("sample preview: status %d, %d refused rows, want the two planted", p.Status, len(p.Doc.Find("table.import-bad tbody tr").Nodes))
	}
	mustRedirect(t, "import sample", u.Submit(p, "form.import-confirm"))
	if got := u.Get("/accounts?band=none").Text("table.accounts"); !strings.Contains(got, "no score known yet") {
		t.Errorf("before any report, accounts have no score: %q", got)
	}
	u.Get("/businesses/1001")
	row := u.Get("/accounts?band=2").Text("table.accounts tbody")
	if !strings.Contains(row, "Westbridge") || !strings.Contains(row, "6.995%") {
		t.Errorf("after 1001's report, the band-2 accounts = %q; want 1001 with PD 6.995%%", row)
	}
	to := mustRedirect(t, "link", u.post("/accounts/link"))
	if !strings.Contains(u.Get(to).Text(".flash"), "6 of 6 accounts linked") {
		t.Errorf("link flash = %q", u.Get(to).Text(".flash"))
	}
	to = mustRedirect(t, "fetch", u.post("/accounts/scores"))
	if !strings.Contains(u.Get(to).Text(".flash"), "Scores fetched for 50 of the 50") {
		t.Errorf("fetch flash = %q", u.Get(to).Text(".flash"))
	}
}
