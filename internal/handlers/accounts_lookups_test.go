package handlers_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"creditdash/internal/apptest"
	"creditdash/internal/roles"
	"creditdash/internal/store/storetest"
	"creditdash/internal/upstream/simulator"
	"creditdash/internal/views"
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
			!strings.Contains(flash, "3 names queued to be looked up") || !strings.Contains(flash, "3 names of the team's accounts wait for the service's search. Your account's hourly limit is not known yet") {
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
		// demo's account has no hourly limit: the names can go now.
		if when := page.Text("#lookups-when"); !strings.Contains(when, "not known yet, or it has none: they can be looked up now") {
			t.Errorf("when: %q", when)
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

// TestQueuedNamesSayWhen (issue 43.3): past an account's hourly limit the
// import and the import page say how many names wait and when they can be
// looked up (when the limit renews, from the service's own window); once
// it has, the next import looks the oldest up with what its own names
// leave of its searches, and says so.
func TestQueuedNamesSayWhen(t *testing.T) {
	table, err := roles.Parse("test", "ordinary=manager:1000000,trade=auditor", 0)
	if err != nil {
		t.Fatal(err)
	}
	run := func(t *testing.T, opts apptest.Options) {
		start := time.Now().UTC().Truncate(time.Minute)
		clk := newClock(start)
		opts.Roles, opts.Now, opts.Sim = table, clk.Now, simulator.Options{Now: clk.Now, SessionTTL: 3 * time.Hour}
		app := apptest.Start(t, opts)
		u := signInAccounts(t, app, "ordinary") // ten requests an hour
		searches := func() int { return app.Sim.Requests()["ordinary"]["/v1/Business/Search"] }
		var csv strings.Builder
		csv.WriteString(",Total\n")
		for i := range 14 {
			fmt.Fprintf(&csv, "Quorvath Nimble %d Ltd,100.00\n", i)
		}
		asOf := start.AddDate(0, 0, -2).Format("2006-01-02")
		p := importLedger(t, u, "names.csv", []byte(csv.String()), asOf)
		waiting := 14 - searches()
		if waiting <= 0 || waiting == 14 && searches() != 0 {
			t.Fatalf("%d searches, %d waiting", searches(), waiting)
		}
		renews := views.DateTime(start.Add(time.Hour))
		wantWhen := "no requests left this hour, so they can be looked up from " + renews + ", when its hourly limit renews"
		if flash := p.Text(".flash"); !strings.Contains(flash, fmt.Sprintf("%d names queued to be looked up", waiting)) ||
			!strings.Contains(flash, wantWhen) {
			t.Errorf("the import says %q; want %d queued and %q", flash, waiting, wantWhen)
		}
		page := u.Get("/accounts/import")
		if !strings.HasPrefix(page.Text("#lookups > p"), views.Plural(waiting, "account")+" of names") || !strings.Contains(page.Text("#lookups-when"), wantWhen) ||
			!strings.Contains(page.Text("#lookups-when"), "or they are looked up at your first import after that") {
			t.Errorf("the import page: %q", page.Text("#lookups"))
		}

		clk.Advance(61 * time.Minute)
		before := searches()
		linked := "account,name,business_id,balance\nK-1,Known Co,1002,10\n"
		next := importLedger(t, u, "linked.csv", []byte(linked), start.AddDate(0, 0, -1).Format("2006-01-02"))
		looked := searches() - before
		if looked <= 0 || looked > 10 || looked > waiting {
			t.Fatalf("the next import looked up %d queued names of %d", looked, waiting)
		}
		if flash := next.Text(".flash"); !strings.Contains(flash, fmt.Sprintf("%d names queued before looked up: 0 linked to the one business of their name, %d left not linked", looked, looked)) {
			t.Errorf("the next import says %q", flash)
		}
		after := u.Get("/accounts/import")
		if left := waiting - looked; left == 0 && after.Doc.Find("#lookups").Length() != 0 ||
			left > 0 && !strings.HasPrefix(after.Text("#lookups > p"), views.Plural(left, "account")+" of names") {
			t.Errorf("%d should wait: %q", waiting-looked, after.Text("#lookups"))
		}
		if audited := strings.Count(app.SignIn(t, "trade").Get("/audit?action=name-lookup").Text("table.audit tbody"), "found no single business"); audited != looked {
			t.Errorf("%d look-ups audited, want %d", audited, looked)
		}
	}
	t.Run("sqlite", func(t *testing.T) { run(t, apptest.Options{}) })
	t.Run("postgres", func(t *testing.T) { run(t, apptest.Options{DatabaseURL: storetest.Database(t)}) })
}
