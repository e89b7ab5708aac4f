package handlers_test

import (
	"net/http"
	"strconv"
	"strings"
	"testing"

	"creditdash/internal/apptest"
)

// qboSummary is QuickBooks Online's A/R Aging Summary as it exports it:
// names only, a blank first header cell, a TOTAL row and a footer.
const qboSummary = "Craig's Design and Landscaping Services\nA/R Aging Summary\nAs of September 30, 2026\n\n" +
	",Current,1 - 30,31 - 60,61 - 90,91 and over,Total\n" +
	"Amy's Bird Sanctuary,\"$18,400.00\",,,,,\"$18,400.00\"\n" +
	"Bill's Windsurf Shop,,$85.00,,,,$85.00\n" +
	"Cool Cars,\"$2,369.52\",\"$1,000.00\",,,$100.00,\"$3,469.52\"\n" +
	"Freeman Sporting Goods,-$50.00,,,,,-$50.00\n" +
	"Kookies by Kathy,,,\"$887,721.63\",,,\"$887,721.63\"\n" +
	"TOTAL,\"$20,719.52\",\"$1,085.00\",\"$887,721.63\",$0.00,$100.00,\"$909,626.15\"\n\n\n" +
	"\"Wednesday, September 30, 2026 03:04:05 PM GMT-08:00\"\n"

// TestImportQuickBooksAsExported (issue 43.3): the summary imports as it
// is: the preview reconciles the file's total with what it imports, says
// the total and footer rows are left out and the names are not linked;
// the import keeps every customer, keyed by name.
func TestImportQuickBooksAsExported(t *testing.T) {
	workspaceEngines(t, func(t *testing.T, opts apptest.Options) {
		app := apptest.Start(t, opts)
		u := signInAccounts(t, app, "demo")
		p := u.upload("AR Aging Summary.csv", []byte(qboSummary), "2026-09-30")
		if p.Status != http.StatusOK {
			t.Fatalf("preview: status %d; %.400s", p.Status, p.Text("main"))
		}
		if got := p.Text("#reconciliation"); got != "File total 909,626.15, imported 909,626.15." {
			t.Errorf("reconciliation = %q", got)
		}
		if got := p.Text("#read-as"); !strings.Contains(got, "1 total row") || !strings.Contains(got, "1 heading or footer row") ||
			!strings.Contains(got, "5 accounts name no business id") {
			t.Errorf("read as = %q", got)
		}
		to := mustRedirect(t, "import", u.Submit(p, "form.import-confirm"))
		if !strings.HasPrefix(to, "/accounts") {
			t.Fatalf("import leads to %q", to)
		}
		accts := u.Get("/accounts").Text("main")
		for _, name := range []string{"Amy's Bird Sanctuary", "Kookies by Kathy", "Freeman Sporting Goods"} {
			if !strings.Contains(accts, name) {
				t.Errorf("/accounts lacks %q", name)
			}
		}
		// A month later the team knows Cool Cars as business 1003: the
		// next names-only file links it by its name, and only it.
		known := "account,name,business_id,balance\nCC-1,\"COOL CARS, INC.\",1003,10\n"
		mustRedirect(t, "import", u.Submit(u.upload("known.csv", []byte(known), "2026-10-30"), "form.import-confirm"))
		mustRedirect(t, "import", u.Submit(u.upload("AR Aging Summary.csv", []byte(qboSummary), "2026-10-31"), "form.import-confirm"))
		got, err := app.Store.Accounts(t.Context(), team, "2026-10-31")
		if err != nil {
			t.Fatal(err)
		}
		links := map[string]int32{}
		for _, a := range got {
			links[a.Account] = a.BusinessID
		}
		if links["Cool Cars"] != 1003 || links["Kookies by Kathy"] != 0 || len(links) != 5 {
			t.Errorf("links after the names-only import = %v, want Cool Cars linked to 1003 and the rest not linked", links)
		}
	})
}

// TestImportAmbiguousDecimalsAsks (issue 43.3): a file whose amounts could
// use either separator offers the choice; until it is made the ambiguous
// rows are skipped, never guessed; chosen, they import by it; both
// engines (the waiting file is kept in the store).
func TestImportAmbiguousDecimalsAsks(t *testing.T) {
	workspaceEngines(t, func(t *testing.T, opts apptest.Options) {
		app := apptest.Start(t, opts)
		u := signInAccounts(t, app, "demo")
		p := u.upload("eu.csv", []byte("account,business_id,balance\nA-1,1001,\"1,250\"\nA-2,1002,500\n"), "2026-09-30")
		if p.Status != http.StatusOK || p.Doc.Find("#decimal-choice").Length() != 1 || !strings.Contains(p.Text("#refusal-counts"), "ambiguous amount: 1") {
			t.Fatalf("preview: status %d, choice %d, refusals %q", p.Status, p.Doc.Find("#decimal-choice").Length(), p.Text("#refusal-counts"))
		}
		_, fields, _ := p.Form("form.mapping-form")
		fields.Set("decimal", "comma")
		for i, f := range []string{"account", "business_id", "balance"} {
			fields.Set("map_"+strconv.Itoa(i), f) // the selects as the page chose them
		}
		again := u.PostForm("/accounts/import", fields)
		if again.Status != http.StatusOK || again.Text("#refusal-counts") != "" || !strings.Contains(again.Text("#read-as"), "1.234,56 (as chosen)") {
			t.Fatalf("with a decimal comma: status %d, refusals %q, read as %q; %.600s", again.Status, again.Text("#refusal-counts"), again.Text("#read-as"), again.Text("#file-error")+again.Text(".form-error"))
		}
		if got := again.Text("#reconciliation"); !strings.Contains(got, "imported 501.25") {
			t.Errorf("reconciliation = %q, want 1.25 + 500 imported", got)
		}
	})
}
