package handlers_test

import (
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"

	"creditdash/internal/apptest"
)

// TestSheetsCarryTheTeamsExposure: the credit memo and the credit summary
// print the team's own exposure to the account (the newest ledger's
// balance and aging, the limit in force and its use, expected loss as
// unknown rather than $0 without a score) and the limit's history: every
// limit approved, newest first, with its date, who decided, the amount
// asked and the amount approved; a business the team has no account of
// says so. Both engines.
func TestSheetsCarryTheTeamsExposure(t *testing.T) {
	decisionApps(t, func(t *testing.T, app *apptest.App) {
		demo := signInAccounts(t, app, "demo")
		importLedger(t, demo, "aging.csv", []byte(ledgerCSV), "2026-09-30")
		mustRedirect(t, "at once", demo.post("/businesses/1001/limit-requests", "account", "A-1", "amount", "5,000", "reason", "First order"))
		to := mustRedirect(t, "request", demo.post("/businesses/1001/limit-requests", "account", "A-1", "amount", "300,000", "reason", "New contract"))
		boss := signInAccounts(t, app, "ordinary")
		mustRedirect(t, "approve", boss.post(to+"/approve", "amount", "200000", "note", "A step up first"))

		check := func(what string, p *apptest.Page) {
			t.Helper()
			part := p.Doc.Find("#sheet-exposure-part")
			acct := part.Find(`.sheet-account[data-account="A-1"]`)
			if acct.Length() != 1 {
				t.Fatalf("%s: no exposure of account A-1: %q", what, part.Text())
			}
			text := strings.Join(strings.Fields(acct.Text()), " ")
			for _, want := range []string{"Account A-1 · Westbridge", "ledger as of 2026-09-30", "$1,500", "$1,000", "$500"} {
				if !strings.Contains(text, want) {
					t.Errorf("%s: the exposure lacks %q: %q", what, want, text)
				}
			}
			if got := acct.Find(".exposure-limit").Text(); got != "$200,000" {
				t.Errorf("%s: limit in force %q, want $200,000", what, got)
			}
			if got := acct.Find(".exposure-el").Text(); got == "$0" || got == "" {
				t.Errorf("%s: expected loss %q", what, got)
			}
			rows := acct.Find("table.limit-history tbody tr").Map(func(_ int, r *goquery.Selection) string {
				return strings.Join(r.Find("td").Map(func(_ int, td *goquery.Selection) string {
					return strings.Join(strings.Fields(td.Text()), " ")
				}), " | ")
			})
			if len(rows) != 2 {
				t.Fatalf("%s: %d limits in the history, want 2: %q", what, len(rows), rows)
			}
			if !strings.Contains(rows[0], "(in force) | $200,000 | $300,000 | ordinary | demo") {
				t.Errorf("%s: the newest limit %q", what, rows[0])
			}
			if !strings.Contains(rows[1], " | $5,000 | $5,000 | demo | demo") || strings.Contains(rows[1], "in force") {
				t.Errorf("%s: the first limit %q", what, rows[1])
			}
			if href, _ := acct.Find("table.limit-history a").First().Attr("href"); href != to {
				t.Errorf("%s: the newest limit links %q, want %q", what, href, to)
			}
		}
		check("memo", boss.Get(to+"/memo"))
		check("summary", demo.Get("/businesses/1001/summary"))
		other := demo.Get("/businesses/1005/summary")
		if got := other.Text("#sheet-exposure-note"); !strings.Contains(got, "Not one of the team's accounts") {
			t.Errorf("a business the team has no account of: %q", got)
		}
	})
}
