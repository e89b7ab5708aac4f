package handlers_test

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"creditdash/internal/apptest"
	"creditdash/internal/upstream/simulator"
)

// total is how many requests user made to the stand-in.
func total(app *apptest.App, user string) int {
	n := 0
	for _, c := range app.Sim.Requests()[user] {
		n += c
	}
	return n - app.Sim.Requests()[user]["/v1/Users/Login"]
}

func TestCachedPagesSpendNothing(t *testing.T) {
	app := apptest.Start(t, apptest.Options{})
	u := app.SignIn(t, "demo")
	app.Sim.Reset()
	page := u.Get("/businesses/1001")
	if page.Doc.Find(".quota").Length() != 0 {
		t.Errorf("an unlimited account shows a quota meter: %q", page.Text(".quota"))
	}
	cold := app.Sim.Requests()["demo"]
	want := []string{"/v1/Business/IdentificationGroup", "/v1/Business/NAICSCodes", "/v1/Business/Summary",
		"/v1/Business/CreditScoreHistory", "/v1/Business/RiskHistory"}
	if len(cold) != len(want) {
		t.Fatalf("cold overview called %v, want each of %v once", cold, want)
	}
	for _, op := range want {
		if cold[op] != 1 {
			t.Errorf("cold overview called %s %d times, want 1", op, cold[op])
		}
	}
	app.Sim.Reset()
	u.Get("/businesses/1001")
	if n := total(app, "demo"); n != 0 {
		t.Errorf("warm overview made %d requests, want 0", n)
	}
	// The other tabs reuse the header: every operation once over all four.
	for _, tab := range []string{"/payments", "/financials", "/officers"} {
		u.Get("/businesses/1001" + tab)
	}
	for op, n := range app.Sim.Requests()["demo"] {
		if n != 1 {
			t.Errorf("over the other tabs %s was called %d times, want once", op, n)
		}
	}
	if n := app.Sim.Requests()["demo"]["/v1/Business/IdentificationGroup"]; n != 0 {
		t.Errorf("the header was fetched again (%d) on the other tabs", n)
	}
}

func TestCacheNeverMixesUsersOnPages(t *testing.T) {
	app := apptest.Start(t, apptest.Options{})
	full := app.SignIn(t, "demo").Get("/businesses/1001/financials")
	limited := app.SignIn(t, "developer").Get("/businesses/1001/financials")
	if strings.Contains(full.Body, "not reported for any year") {
		t.Fatal("the Full Access user sees withheld data points")
	}
	if !strings.Contains(limited.Body, "not reported for any year") {
		t.Error("the API-Only user was served the Full Access user's statements")
	}
	if app.Sim.Requests()["developer"]["/v1/Business/LatestAnnualStatements"] != 1 {
		t.Error("the second user's statements did not come from the service")
	}
}

func TestStaleDataIsMarkedWithItsAgeAndReason(t *testing.T) {
	for _, c := range []struct {
		status int
		reason string
	}{{http.StatusInternalServerError, "did not answer"}, {http.StatusTooManyRequests, "hourly request limit"}} {
		clock := newClock(time.Now())
		app := apptest.Start(t, apptest.Options{Now: clock.Now})
		u := app.SignIn(t, "demo")
		before := u.Get("/businesses/1001")
		summary := before.Text("#summary p")
		if before.Doc.Find(".freshness.stale").Length() != 0 {
			t.Fatal("fresh data marked stale")
		}
		clock.Advance(20 * time.Minute)
		app.Sim.SetFaults(simulator.Faults{ErrorRate: 1, ErrorStatus: c.status})
		p := u.Get("/businesses/1001")
		if p.Status != http.StatusOK || p.Text("#summary p") != summary {
			t.Fatalf("service failing with %d: status %d, summary %q; want the older copy", c.status, p.Status, p.Text("#summary p"))
		}
		mark := p.Text(".freshness.stale")
		if !strings.Contains(mark, "Older data") || !strings.Contains(mark, "20 minutes ago") || !strings.Contains(mark, c.reason) {
			t.Errorf("service failing with %d: stale mark %q", c.status, mark)
		}
	}
}

func TestRefreshFetchesThePagesCopiesAgain(t *testing.T) {
	app := apptest.Start(t, apptest.Options{})
	u := app.SignIn(t, "demo")
	page := u.Get("/businesses/1001/payments")
	if !strings.Contains(page.Text(".freshness"), "Data fetched just now") {
		t.Fatalf("no fetched-at line: %q", page.Text(".freshness"))
	}
	_, fields, ok := page.Form(".freshness form.refresh")
	if !ok || len(fields["copy"]) != 4 || fields.Get("page") != "/businesses/1001/payments" {
		t.Fatalf("Refresh form fields %v, want the page and its 4 copies", fields)
	}
	app.Sim.Reset()
	r := u.Submit(page, ".freshness form.refresh")
	if r.Status != http.StatusSeeOther || r.Location() != "/businesses/1001/payments" {
		t.Fatalf("POST /refresh: status %d to %q, want 303 to the page", r.Status, r.Location())
	}
	u.Get(r.Location())
	if n := total(app, "demo"); n != 4 {
		t.Errorf("the refreshed page made %d requests, want 4 (every call once)", n)
	}
	u.Get(r.Location())
	if n := total(app, "demo"); n != 4 {
		t.Errorf("the page after the refresh made %d more requests, want 0", n-4)
	}
	// An old refresh link does nothing but show the page.
	if p := u.Get("/businesses/1001/payments?refresh=1"); p.Status != http.StatusOK || total(app, "demo") != 4 {
		t.Errorf("?refresh=1: status %d, %d requests; want 200 and no new request", p.Status, total(app, "demo"))
	}
}

func TestRefreshIsForThisUserOnlyAndNeedsItsToken(t *testing.T) {
	app := apptest.Start(t, apptest.Options{})
	demo := app.SignIn(t, "demo")
	dev := app.SignIn(t, "developer")
	page := demo.Get("/businesses/1001/officers")
	dev.Get("/businesses/1001/officers")
	_, fields, _ := page.Form(".freshness form.refresh")
	app.Sim.Reset()
	// The developer sends demo's copy tokens with the developer's own token.
	fields.Set("_csrf", dev.Token("/"))
	if r := dev.PostForm("/refresh", fields); r.Status != http.StatusSeeOther {
		t.Fatalf("developer's refresh: status %d", r.Status)
	}
	demo.Get("/businesses/1001/officers")
	if n := total(app, "demo"); n != 0 {
		t.Errorf("another user's refresh made demo's page ask the service %d times", n)
	}
	// Without the form token nothing is forgotten.
	fields.Del("_csrf")
	if r := demo.PostForm("/refresh", fields); r.Status != http.StatusForbidden {
		t.Errorf("refresh without a token: status %d, want 403", r.Status)
	}
	demo.Get("/businesses/1001/officers")
	if n := total(app, "demo"); n != 0 {
		t.Errorf("a refresh without a token forgot copies (%d requests)", n)
	}
}

func TestOrdinaryUserSpendsTheBudgetOnWhatMattersFirst(t *testing.T) {
	app := apptest.Start(t, apptest.Options{})
	u := app.SignIn(t, "ordinary")

	first := u.Get("/businesses/1001")
	if got := first.Text(".quota"); !strings.Contains(got, "5 of 10 requests left this hour, renews in") {
		t.Fatalf("quota meter after the first report: %q", got)
	}
	u.Get("/businesses/1002/payments") // header and two sections: 4 more
	p := u.Get("/businesses/1002")     // header cached; 3 sections, 1 request left
	if p.Status != http.StatusOK {
		t.Fatalf("status %d, want 200", p.Status)
	}
	if p.Doc.Find("#scores .problem").Length() != 0 || p.Doc.Find("#score-history [data-chart]").Length() == 0 {
		t.Errorf("the first section (scores) was not loaded with the last request: %q", p.Text("#scores"))
	}
	deferred := p.Doc.Find(".problem.deferred")
	if deferred.Length() != 2 {
		t.Fatalf("%d sections offered to load later, want 2 (summary and risk history)", deferred.Length())
	}
	link := deferred.First().Find("a")
	if !strings.Contains(link.Text(), "Load (uses 1 request)") || !strings.Contains(deferred.First().Text(), "renews at") {
		t.Errorf("deferred section says %q", deferred.First().Text())
	}
	if got := p.Text(".quota"); !strings.Contains(got, "0 of 10 requests left") {
		t.Errorf("quota meter: %q", got)
	}
	if n := total(app, "ordinary"); n != 10 {
		t.Errorf("%d requests spent, want exactly the 10 of the hour", n)
	}

	// With nothing left a new business still renders, every section offered.
	next := u.Get("/businesses/1003/officers")
	if next.Status != http.StatusOK || next.Doc.Find(".problem.deferred").Length() < 2 {
		t.Fatalf("a new report with no budget: status %d, %d deferred sections", next.Status, next.Doc.Find(".problem.deferred").Length())
	}
	if total(app, "ordinary") != 10 {
		t.Error("a report was loaded beyond the hourly budget without being asked")
	}

	// Asking anyway tells the limit inside the section, never a 429 page.
	href, _ := link.Attr("href")
	asked := u.Get(href)
	if asked.Status != http.StatusOK || !strings.Contains(asked.Text(".problem"), "Hourly request limit reached") {
		t.Errorf("loading a section past the limit: status %d, %q", asked.Status, asked.Text(".problem"))
	}
}

func TestLoadLinkSpendsOnTheAskedSection(t *testing.T) {
	app := apptest.Start(t, apptest.Options{})
	u := app.SignIn(t, "ordinary")
	u.Get("/businesses/1001")            // 5 requests
	u.Get("/businesses/1001/financials") // 3 more
	u.Get("/businesses/1001/officers")   // 1 more: 1 left
	if left := 10 - total(app, "ordinary"); left != 1 {
		t.Fatalf("setup: %d requests left, want 1", left)
	}
	// In page order the aging table would take the last request; the link
	// the user followed asks for the SIC breakdown, so it goes first.
	p := u.Get("/businesses/1001/payments?load=sic")
	if p.Doc.Find("#sic .problem").Length() != 0 || p.Doc.Find("#sic table").Length() == 0 {
		t.Errorf("the asked-for SIC section did not load: %q", p.Text("#sic .problem"))
	}
	if p.Doc.Find("#aging .problem.deferred").Length() != 1 {
		t.Fatalf("the aging section should wait: %q", p.Text("#aging"))
	}
	href, _ := p.Doc.Find("#aging .problem.deferred a").Attr("href")
	if !strings.Contains(href, "load=sic%2Cmonthly") {
		t.Errorf("aging load link = %q, want it to keep sic and add aging", href)
	}
	if n := total(app, "ordinary"); n != 10 {
		t.Errorf("%d requests spent, want 10", n)
	}
}

// A 429 that names no hourly limit shows that nothing is left and when it
// renews, never a made-up limit ("0 of 1 requests left").
func TestRefusalWithoutFiguresShowsNoMadeUpLimit(t *testing.T) {
	app := apptest.Start(t, apptest.Options{})
	u := app.SignIn(t, "demo")
	app.Sim.SetFaults(simulator.Faults{ErrorRate: 1, ErrorStatus: http.StatusTooManyRequests})
	u.Get("/businesses/1001")
	p := u.Get("/portfolio")
	quota := p.Text(".quota")
	if !strings.Contains(quota, "No requests left this hour, renews in") || strings.Contains(quota, " of ") {
		t.Errorf("quota after a refusal without figures: %q, want none left and the renewal, no limit", quota)
	}
}
