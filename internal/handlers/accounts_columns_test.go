package handlers_test

import (
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"

	"creditdash/internal/apptest"
)

// accountHeads are the column heads of the accounts table.
func accountHeads(p *apptest.Page) []string {
	return p.Doc.Find("table.accounts thead th").Map(func(_ int, s *goquery.Selection) string { return strings.TrimSpace(s.Text()) })
}

// TestChooseAccountColumns: an analyst chooses the columns of /accounts
// with a form that works without script (CSRF-checked); the choice is
// theirs alone, kept in the store (both engines), brings them back to the
// page filtered as it was, can be undone in one click, and a choice of
// nothing is refused with a message, the kept one unchanged. An auditor
// chooses their own columns too.
func TestChooseAccountColumns(t *testing.T) {
	workspaceEngines(t, func(t *testing.T, opts apptest.Options) {
		app := apptest.Start(t, opts)
		demo := signInAccounts(t, app, "demo")
		importLedger(t, demo, "aging.csv", []byte(ledgerCSV), "2026-09-30")
		defaults := []string{"Account", "Balance", "Over 90", "Limit in force", "Utilization", "Risk band", "PD", "Expected loss", "Implied limit", "Owner"}
		page := demo.Get("/accounts")
		if got := accountHeads(page); !slices.Equal(got, defaults) {
			t.Fatalf("default columns = %q, want %q", got, defaults)
		}
		action, fields, ok := page.Form("#columns form")
		if !ok || action != "/accounts/columns" || fields.Get("_csrf") == "" {
			t.Fatalf("the chooser: %q %v %v", action, fields, ok)
		}
		if n := page.Doc.Find(`#columns input[name="col"]:checked`).Length(); n != len(defaults)-1 {
			t.Errorf("%d columns ticked, want %d", n, len(defaults)-1)
		}
		choose := func(u *wsUser, q string, cols ...string) *apptest.Page {
			form := url.Values{"_csrf": {u.token}, "q": {q}, "col": cols}
			return u.PostForm("/accounts/columns", form)
		}
		to := mustRedirect(t, "choose", choose(demo, "over=1&sort=el&next=//evil.example", "risk", "current", "no_such"))
		if to != "/accounts?over=1&sort=el#columns" {
			t.Errorf("after choosing: to %q", to)
		}
		page = demo.Get("/accounts")
		if got, want := accountHeads(page), []string{"Account", "Current", "Risk band"}; !slices.Equal(got, want) {
			t.Errorf("chosen columns = %q, want %q", got, want)
		}
		row := page.Doc.Find("table.accounts tbody tr").First()
		if n := row.Find("td").Length(); n != 2 || !strings.Contains(row.Find("td").First().Text(), "1,000") {
			t.Errorf("a row has %d cells (%q), want 2, Current first", n, row.Text())
		}
		if page.Doc.Find(`#columns button[name="reset"]`).Length() != 1 {
			t.Error("no way back to the usual columns")
		}

		if got := accountHeads(signInAccounts(t, app, "developer").Get("/accounts")); !slices.Equal(got, defaults) {
			t.Errorf("another analyst sees %q, want the defaults", got)
		}
		auditor := signInAccounts(t, app, "trade")
		mustRedirect(t, "auditor chooses", choose(auditor, "", "owner"))
		if got := accountHeads(auditor.Get("/accounts")); !slices.Equal(got, []string{"Account", "Owner"}) {
			t.Errorf("the auditor sees %q", got)
		}

		for _, bad := range [][]string{nil, {"no_such"}} {
			p := choose(demo, "", bad...)
			if p.Status != http.StatusBadRequest || !strings.Contains(p.Body, "Tick at least one column") {
				t.Errorf("choosing %q: status %d; %.300s", bad, p.Status, p.Text("main"))
			}
		}
		if p := demo.PostForm("/accounts/columns", url.Values{"col": {"pd"}}); p.Status != http.StatusForbidden {
			t.Errorf("without the CSRF token: status %d, want 403", p.Status)
		}
		if got := accountHeads(demo.Get("/accounts")); !slices.Equal(got, []string{"Account", "Current", "Risk band"}) {
			t.Errorf("refused choices changed the columns: %q", got)
		}
		mustRedirect(t, "reset", demo.post("/accounts/columns", "reset", "1", "col", "pd"))
		if got := accountHeads(demo.Get("/accounts")); !slices.Equal(got, defaults) {
			t.Errorf("after going back: %q, want the defaults", got)
		}
	})
}
