package handlers_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"creditdash/internal/apptest"
)

// TestUnknownNamesSearchedThenQueued (issue 43.3): a names-only file's names
// no business of the team matches are looked up through Business/Search,
// at most 20 an import: the one business of exactly its name links an
// account (audited as the search's), a name the search does not find stays
// not linked, and the names past the budget wait on the import page until
// an analyst presses "look up", which settles them within the hour's
// requests; an auditor sees the queue but may not work it.
func TestUnknownNamesSearchedThenQueued(t *testing.T) {
	decisionApps(t, func(t *testing.T, app *apptest.App) {
		u := signInAccounts(t, app, "demo")
		known := strings.TrimSpace(u.Get("/businesses/1001").Text("h1"))
		if known == "" {
			t.Fatal("business 1001 shows no name")
		}
		var csv strings.Builder
		csv.WriteString(",Total\n" + strings.ToUpper(known) + ",\"1,000.00\"\n")
		for i := range 22 {
			fmt.Fprintf(&csv, "Quorvath Nimble %d Ltd,100.00\n", i)
		}
		before := app.Sim.Requests()["demo"]["/v1/Business/Search"]
		p := importLedger(t, u, "names.csv", []byte(csv.String()), "2026-09-30")
		if got := app.Sim.Requests()["demo"]["/v1/Business/Search"] - before; got != 20 {
			t.Errorf("the import searched %d names, want its budget of 20", got)
		}
		if flash := p.Text(".flash"); !strings.Contains(flash, "1 linked to the one business of their name") ||
			!strings.Contains(flash, "3 names past the import's budget of searches queued") {
			t.Errorf("the import says %q", flash)
		}

		auditor := app.SignIn(t, "trade")
		links := auditor.Get("/audit?action=account-link").Text("table.audit tbody")
		if !strings.Contains(links, strings.ToUpper(known)) || !strings.Contains(links, "Business/Search found one business of exactly this name") {
			t.Errorf("the search's link is not audited: %.600s", links)
		}
		waiting := auditor.Get("/accounts/import")
		if !strings.Contains(waiting.Text("#lookups"), "3 accounts") || waiting.Doc.Find("#look-up").Length() != 0 {
			t.Errorf("the auditor's import page: %.400s", waiting.Text("#lookups"))
		}
		if r := auditor.PostForm("/accounts/lookups", nil); r.Status != http.StatusForbidden {
			t.Errorf("an auditor worked the queue: %d", r.Status)
		}

		page := u.Get("/accounts/import")
		if page.Doc.Find("#lookups tbody tr").Length() != 3 || !strings.Contains(page.Text("#look-up"), "Look up the next 3") {
			t.Fatalf("the queue on the import page: %.600s", page.Text("#lookups"))
		}
		to := mustRedirect(t, "look up", u.Submit(page, "#lookups form"))
		after := u.Get(to)
		if flash := after.Text(".flash"); !strings.Contains(flash, "3 names looked up: 0 linked") {
			t.Errorf("after looking up: %q", flash)
		}
		if after.Doc.Find("#lookups").Length() != 0 {
			t.Errorf("names still wait: %.300s", after.Text("#lookups"))
		}
		if got := app.Sim.Requests()["demo"]["/v1/Business/Search"] - before; got != 23 {
			t.Errorf("%d searches in all, want 23", got)
		}
		notFound := auditor.Get("/audit?action=name-lookup").Text("table.audit tbody")
		if strings.Count(notFound, "found no single business") != 3 || !strings.Contains(notFound, "3 queued") {
			t.Errorf("look-ups audited: %.800s", notFound)
		}
		unlinked := u.Get("/accounts?unlinked=1")
		if !strings.Contains(unlinked.Text("main"), "Quorvath Nimble 21 Ltd") || strings.Contains(unlinked.Text("table"), strings.ToUpper(known)) {
			t.Errorf("not linked: %.600s", unlinked.Text("main"))
		}
	})
}
