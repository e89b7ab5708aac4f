package erp_test

import (
	"encoding/csv"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"creditdash/internal/apptest"
	"creditdash/internal/roles"
	"creditdash/internal/store"
	"creditdash/internal/store/storetest"
)

// teamRoles: two managers, an analyst and an auditor.
const teamRoles = "demo=manager:250000,ordinary=manager:1000000,developer=analyst:10000,trade=auditor"

// engines runs fn on SQLite and PostgreSQL.
func engines(t *testing.T, fn func(t *testing.T, app *apptest.App)) {
	table, err := roles.Parse("test", teamRoles, 0)
	if err != nil {
		t.Fatal(err)
	}
	t.Run("sqlite", func(t *testing.T) { fn(t, apptest.Start(t, apptest.Options{Roles: table})) })
	t.Run("postgres", func(t *testing.T) {
		fn(t, apptest.Start(t, apptest.Options{Roles: table, DatabaseURL: storetest.Database(t)}))
	})
}

// member is a signed-in member with a CSRF token for the page's forms.
type member struct {
	*apptest.User
	t    *testing.T
	csrf string
}

func signIn(t *testing.T, app *apptest.App, name string) *member {
	t.Helper()
	u := app.SignIn(t, name)
	tok := u.Token("/limits/export")
	if tok == "" {
		t.Fatal("no CSRF token on /limits/export")
	}
	return &member{User: u, t: t, csrf: tok}
}

// post sends a form with the token, as the page's forms do.
func (m *member) post(path string, kv ...string) *apptest.Page {
	m.t.Helper()
	form := url.Values{"_csrf": {m.csrf}}
	for i := 0; i+1 < len(kv); i += 2 {
		form.Add(kv[i], kv[i+1])
	}
	return m.PostForm(path, form)
}

// file reads a download back as CSV, failing on anything else.
func file(t *testing.T, what string, p *apptest.Page) [][]string {
	t.Helper()
	if p.Status != http.StatusOK || !strings.HasPrefix(p.Header.Get("Content-Type"), "text/csv") ||
		!strings.HasPrefix(p.Header.Get("Content-Disposition"), "attachment") {
		t.Fatalf("%s: %d %s %s; %.300s", what, p.Status, p.Header.Get("Content-Type"), p.Header.Get("Content-Disposition"), p.Body)
	}
	rows, err := csv.NewReader(strings.NewReader(p.Body)).ReadAll()
	if err != nil {
		t.Fatalf("%s: not CSV: %v", what, err)
	}
	return rows
}

// wantRows compares a file read back with the rows wanted.
func wantRows(t *testing.T, what string, got, want [][]string) {
	t.Helper()
	if !slices.EqualFunc(got, want, slices.Equal) {
		t.Errorf("%s:\n got %q\nwant %q", what, got, want)
	}
}

// TestLimitsBackToTheERP, through the router on both engines: the
// worksheet names each limit in force the ERP lacks and each hold with its
// reason; a preview is a file in the system's shape and records nothing;
// recording an export answers the file (parsed back row by row), is
// audited, lists the export and empties the worksheet; its file comes
// again byte for byte; after a raise and a manager's new threshold the
// next export holds only what changed since (a new limit, a release);
// with nothing changed nothing is recorded. An auditor reads but cannot
// record, an analyst cannot set the threshold, and a bad threshold or
// system is refused with what was typed kept.
func TestLimitsBackToTheERP(t *testing.T) {
	engines(t, func(t *testing.T, app *apptest.App) {
		ctx := t.Context()
		mgr := store.Analyst{Service: apptest.WorkspaceService, User: "demo"}
		line := func(acct, name string, balance float64) store.LedgerLine {
			return store.LedgerLine{Account: acct, Name: name, Balance: balance, Current: balance}
		}
		if _, err := app.Store.ImportLedger(ctx, mgr, store.ImportSpec{AsOf: time.Date(2026, 10, 31, 0, 0, 0, 0, time.UTC), File: "aging.csv",
			Lines: []store.LedgerLine{line("A-1", "Acme, Inc.", 1000), line("B-2", "Bolt Ltd", 5000), line("C-3", "=Cog", 200), line("D-4", "Dune", 300)}}); err != nil {
			t.Fatal(err)
		}
		limit := func(acct string, amount float64) {
			t.Helper()
			r, err := app.Store.RequestLimit(ctx, mgr, store.RequestSpec{Account: acct, Amount: amount, Reason: "Trade terms", Authority: 250000})
			if err != nil || r.Status != store.StatusApproved {
				t.Fatalf("limit %s: %+v, %v", acct, r, err)
			}
		}
		limit("A-1", 20000)
		limit("B-2", 4000) // 5,000 owed: 25 % over, past the 10 % threshold
		limit("C-3", 1000)
		if _, err := app.Store.RecordReview(ctx, mgr, store.Review{Account: "D-4", Outcome: "hold", Note: "Cheques returned"}); err != nil {
			t.Fatal(err)
		}

		dev := signIn(t, app, "developer")
		p := dev.Get("/limits/export")
		if p.Status != http.StatusOK || p.Text("#worksheet-counts") != "3 limits to send, 2 holds, 0 releases." {
			t.Fatalf("worksheet: %d %q", p.Status, p.Text("main"))
		}
		rows := p.Doc.Find("table.erp-worksheet tbody tr")
		if rows.Length() != 4 || !strings.Contains(rows.Eq(1).Text(), "over-limit") || !strings.Contains(rows.Eq(3).Text(), "review-hold") ||
			!strings.Contains(rows.Eq(0).Text(), "$20,000") {
			t.Errorf("worksheet rows: %q", p.Text("table.erp-worksheet tbody"))
		}
		if p.Doc.Find("form.erp-export").Length() != 5 || p.Doc.Find("form.threshold-form").Length() != 0 {
			t.Errorf("an analyst's forms: %d exports, %d thresholds", p.Doc.Find("form.erp-export").Length(), p.Doc.Find("form.threshold-form").Length())
		}

		// A preview records nothing.
		wantRows(t, "the NetSuite preview", file(t, "preview", dev.Get("/limits/export.csv?system=netsuite")), [][]string{
			{"External ID", "Company Name", "Credit Limit", "Hold"},
			{"A-1", "Acme, Inc.", "20000", ""}, {"B-2", "Bolt Ltd", "4000", "On"}, {"C-3", "'=Cog", "1000", ""}, {"D-4", "Dune", "", "On"}})
		if p := dev.Get("/limits/export"); p.Doc.Find("table.erp-worksheet tbody tr").Length() != 4 || p.Doc.Find("table.erp-exports").Length() != 0 {
			t.Error("a preview changed the worksheet or listed an export")
		}
		if p := dev.Get("/limits/export.csv?system=sap"); p.Status != http.StatusBadRequest || !strings.Contains(p.Body, "netsuite, business-central") {
			t.Errorf("an unknown system: %d %.300s", p.Status, p.Body)
		}

		// The auditor reads and cannot record.
		aud := signIn(t, app, "trade")
		if p := aud.Get("/limits/export"); p.Status != http.StatusOK || p.Doc.Find("form.erp-export").Length() != 0 {
			t.Errorf("auditor's page: %d, %d export forms", p.Status, p.Doc.Find("form.erp-export").Length())
		}
		if p := aud.post("/limits/export.csv", "system", "generic"); p.Status != http.StatusForbidden {
			t.Errorf("an auditor's export: %d", p.Status)
		}

		// The export: recorded, audited, its file as the system takes it.
		sent := dev.post("/limits/export.csv", "system", "business-central")
		wantRows(t, "the Business Central export", file(t, "export", sent), [][]string{
			{"No.", "Name", "Credit Limit (LCY)", "Blocked"},
			{"A-1", "Acme, Inc.", "20000", ""}, {"B-2", "Bolt Ltd", "4000", "Ship"}, {"C-3", "'=Cog", "1000", ""}, {"D-4", "Dune", "", "Ship"}})
		p = dev.Get("/limits/export")
		if p.Doc.Find("#worksheet-empty").Length() != 1 || p.Doc.Find("table.erp-exports tbody tr").Length() != 1 ||
			!strings.Contains(p.Text("table.erp-exports"), "4 accounts: 3 limits, 2 holds, 0 releases") {
			t.Errorf("after the export: %q", p.Text("main"))
		}
		again, _ := p.Doc.Find("table.erp-exports a").Attr("href")
		if a := dev.Get(again); a.Status != http.StatusOK || a.Body != sent.Body || a.Header.Get("Content-Disposition") != sent.Header.Get("Content-Disposition") {
			t.Errorf("the file again (%s): %d, same bytes %v", again, a.Status, a.Body == sent.Body)
		}
		if a := signIn(t, app, "ordinary").Get(strings.Replace(again, "/file", "0/file", 1)); a.Status != http.StatusNotFound {
			t.Errorf("no such export: %d", a.Status)
		}
		if audit := dev.Get("/audit?action=erp-export").Text("main"); !strings.Contains(audit, "business-central: 4 accounts (3 limits, 2 holds, 0 releases)") ||
			!strings.Contains(audit, "developer") {
			t.Errorf("the export in the audit trail: %q", audit)
		}

		// The threshold: a manager's, refused when not a percentage.
		if p := dev.post("/limits/threshold", "threshold", "30"); p.Status != http.StatusForbidden {
			t.Errorf("an analyst's threshold: %d", p.Status)
		}
		boss := signIn(t, app, "demo")
		if p := boss.post("/limits/threshold", "threshold", "thirty"); p.Status != http.StatusUnprocessableEntity ||
			p.Doc.Find("#threshold-error").Length() != 1 || p.Doc.Find("#threshold-value").AttrOr("value", "") != "thirty" {
			t.Errorf("a bad threshold: %d %q", p.Status, p.Text("#threshold"))
		}
		if p := boss.post("/limits/threshold", "threshold", "30"); p.Status != http.StatusSeeOther {
			t.Fatalf("threshold: %d", p.Status)
		}
		limit("C-3", 1500)

		// Only what changed since: C-3's raise and B-2's release (5,000 is
		// within 30 % of 4,000).
		wantRows(t, "the generic export", file(t, "second export", dev.post("/limits/export.csv", "system", "generic")), [][]string{
			{"account", "name", "credit_limit", "limit_changed", "previous_limit", "hold", "reasons"},
			{"B-2", "Bolt Ltd", "4000", "no", "4000", "release", ""}, {"C-3", "'=Cog", "1500", "yes", "1000", "", ""}})
		if p := dev.post("/limits/export.csv", "system", "generic"); p.Status != http.StatusSeeOther || p.Location() != "/limits/export?done=nothing" {
			t.Errorf("an export of nothing: %d %s", p.Status, p.Location())
		}
		if p := dev.Get("/limits/export"); p.Doc.Find("table.erp-exports tbody tr").Length() != 2 {
			t.Errorf("exports listed: %d", p.Doc.Find("table.erp-exports tbody tr").Length())
		}
	})
}
