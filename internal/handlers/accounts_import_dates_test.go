package handlers_test

import (
	"database/sql"
	"net/http"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"

	"creditdash/internal/apptest"
)

// openItemsSlashed is an open-items list whose due dates are all slashed
// and all read two ways: 03/04/2026 is 3 April or 4 March.
const openItemsSlashed = "Customer No.,Customer Name,Document No.,Due Date,Remaining Amount\n" +
	"A-1,Westbridge,INV-1,03/04/2026,100.00\n" +
	"A-1,Westbridge,INV-2,05/06/2026,50.00\n" +
	"A-2,Eastgate,INV-3,02/01/2026,70.00\n"

// accountsCSVRow is an account's row of accounts.csv, from balance to
// over 90 days: "balance,current,1-30,31-60,61-90,over 90".
func accountsCSVRow(t *testing.T, u *wsUser, account string) string {
	t.Helper()
	for _, line := range strings.Split(u.Get("/accounts.csv").Body, "\n") {
		if f := strings.Split(line, ","); f[0] == account {
			return strings.Join(f[3:9], ",")
		}
	}
	return ""
}

// TestAmbiguousSlashedDatesAsk (issue 43.3): a file whose slashed dates all
// read two ways is not read month first silently: the preview asks which
// comes first and skips those rows as "ambiguous date" until it is chosen;
// chosen, the items are aged that way and the import keeps the choice.
// A file with one date that shows its order (13/04/2026) is read by it,
// without asking.
func TestAmbiguousSlashedDatesAsk(t *testing.T) {
	eachAuditEngine(t, func(t *testing.T, app *apptest.App, _ *sql.DB) {
		u := signInAccounts(t, app, "demo")
		p := u.upload("open items.csv", []byte(openItemsSlashed), "2026-05-31")
		if p.Status != http.StatusOK || p.Doc.Find("#date-choice").Length() != 1 {
			t.Fatalf("the preview does not ask the dates' order: %d %.600s", p.Status, p.Text("main"))
		}
		if !strings.Contains(p.Text("main"), "ambiguous date") || p.Doc.Find("form.import-confirm").Length() != 0 {
			t.Errorf("the ambiguous rows are not skipped until the order is chosen: %.800s", p.Text("main"))
		}
		action, fields, ok := p.Form("form.mapping-form")
		if !ok {
			t.Fatal("no mapping form")
		}
		fields.Set("dates", "day")
		p.Doc.Find("form.mapping-form select").Each(func(_ int, sel *goquery.Selection) {
			v, _ := sel.Find("option[selected]").Attr("value") // as the page chose
			fields.Set(sel.AttrOr("name", ""), v)
		})
		p = u.PostForm(action, fields)
		if p.Status != http.StatusOK || !strings.Contains(p.Text("main"), "Slashed dates read day first (31/10/2026) (as chosen)") {
			t.Fatalf("the order chosen is not said: %d %.800s", p.Status, p.Text("#preview"))
		}
		if v, _ := p.Doc.Find(`form.import-confirm input[name="dates"]`).Attr("value"); v != "day" {
			t.Errorf("the import form carries dates=%q", v)
		}
		action, fields, ok = p.Form("form.import-confirm")
		if !ok {
			t.Fatalf("no import offered once the order is chosen: %.800s", p.Text("main"))
		}
		mustRedirect(t, "import", u.PostForm(action, fields))
		// Day first at 31 May: INV-1 due 3 April is 58 days late, INV-2
		// due 5 June not yet due; INV-3 due 2 January is 149 days late.
		if got := accountsCSVRow(t, u, "A-1"); got != "150,50,0,100,0,0" {
			t.Errorf("A-1 aged as %q, want day first: 150,50,0,100,0,0", got)
		}
		if got := accountsCSVRow(t, u, "A-2"); got != "70,0,0,0,0,70" {
			t.Errorf("A-2 aged as %q, want 70 over 90 days", got)
		}

		// One date that shows its order decides for the file.
		shown := strings.Replace(openItemsSlashed, "INV-3,02/01/2026", "INV-3,13/01/2026", 1)
		p = u.upload("open items shown.csv", []byte(shown), "2026-05-31")
		if p.Doc.Find("#date-choice").Length() != 0 || !strings.Contains(p.Text("main"), "Slashed dates read day first (31/10/2026), as the file's own dates show") {
			t.Errorf("a file whose dates show their order is asked, or not read by it: %.800s", p.Text("main"))
		}
	})
}
