package handlers_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"

	"creditdash/internal/apptest"
)

// TestPortfolioNavigation: every portfolio page lists the folders, the
// score map, the quadrant and the stress page, its own marked current.
func TestPortfolioNavigation(t *testing.T) {
	app := apptest.Start(t, apptest.Options{})
	u := app.SignIn(t, "demo")
	for path, current := range map[string]string{
		"/portfolio":              "Folders",
		"/portfolio/folders/101":  "Folders",
		"/portfolio/scores":       "Score map",
		"/portfolio/quadrant":     "Two signals",
		"/portfolio/stress":       "Folder stress",
		"/portfolio/stress?x=1":   "Folder stress",
		"/portfolio/quadrant?f=1": "Two signals",
	} {
		p := u.Get(path)
		mustStatus(t, path, p, http.StatusOK)
		nav := p.Doc.Find(`nav[aria-label="Portfolio"]`)
		var hrefs []string
		nav.Find("a").Each(func(_ int, a *goquery.Selection) { h, _ := a.Attr("href"); hrefs = append(hrefs, h) })
		if got := strings.Join(hrefs, " "); got != "/portfolio /portfolio/scores /portfolio/quadrant /portfolio/stress" {
			t.Errorf("GET %s: portfolio navigation = %q", path, got)
		}
		if got := strings.TrimSpace(nav.Find(`a[aria-current="page"]`).Text()); got != current {
			t.Errorf("GET %s: current = %q, want %q", path, got, current)
		}
	}
	if p := u.Get("/businesses/1001"); p.Doc.Find(`nav[aria-label="Portfolio"]`).Length() != 0 {
		t.Error("a report shows the portfolio's navigation")
	}
}

// accountMenu is the header's account menu: the watch list, the
// trade-provider choice and Sign out.
const accountMenu = `header.site details.account-menu nav[aria-label="Your account"]`

// TestTradeProviderNavOnlyWithProviders: an account without providers
// has no trade-provider entry in the header's account menu (and a clear
// page when it goes there); an account with them gets it once the
// dashboard has learnt so, from the customer page that asked for a
// provider, without a request of its own.
func TestTradeProviderNavOnlyWithProviders(t *testing.T) {
	app := apptest.Start(t, apptest.Options{})
	demo := app.SignIn(t, "demo")
	for _, path := range []string{"/", "/portfolio", tradePath, "/"} {
		p := demo.Get(path)
		link := p.Doc.Find(accountMenu + ` a[href="` + tradePath + `"]`).Length()
		if path != tradePath && link != 0 {
			t.Errorf("GET %s as demo: the account menu offers the trade-provider page", path)
		}
		if path == tradePath && !strings.Contains(p.Text(".no-providers"), "no trade providers") {
			t.Errorf("GET %s as demo: %q, want the no-providers explanation", path, p.Text("main"))
		}
	}

	trade := app.SignIn(t, "trade")
	before := app.Sim.Requests()["trade"]["/v1/Trade/TradeProviders"]
	if p := trade.Get("/customers/C1-1001"); p.Status != http.StatusConflict {
		t.Fatalf("GET /customers/C1-1001 before choosing: status %d, want 409", p.Status)
	}
	home := trade.Get("/")
	if home.Doc.Find(accountMenu+` a[href="`+tradePath+`"]`).Length() != 1 {
		t.Error("GET / as trade after a 409: no trade-provider entry in the account menu")
	}
	if after := app.Sim.Requests()["trade"]["/v1/Trade/TradeProviders"]; after != before {
		t.Errorf("learning that trade has providers cost %d TradeProviders requests, want 0", after-before)
	}
}

// TestProviderChoiceReturnsToTheCustomer: the 409 page's link carries the
// customer page, the provider form keeps it, and choosing goes back there;
// a next that leaves the site is dropped. A customer id then not found
// names the provider used.
func TestProviderChoiceReturnsToTheCustomer(t *testing.T) {
	app := apptest.Start(t, apptest.Options{})
	u := app.SignIn(t, "trade")
	conflict := u.Get("/customers/C1-1001/payments")
	href, _ := conflict.Doc.Find(`main a[href^="` + tradePath + `"]`).Attr("href")
	if href != tradePath+"?next=%2Fcustomers%2FC1-1001%2Fpayments" {
		t.Fatalf("409 link = %q, want the trade page returning to the payments tab", href)
	}
	form := u.Get(href)
	next, _ := form.Doc.Find(`form.trade-form input[name="next"]`).Attr("value")
	if next != "/customers/C1-1001/payments" {
		t.Fatalf("the provider form's next = %q", next)
	}
	p := u.PostForm(tradePath, url.Values{"_csrf": {u.Token(tradePath)}, "provider": {"TP-1"}, "next": {next}})
	if p.Status != http.StatusSeeOther || p.Location() != "/customers/C1-1001/payments" {
		t.Fatalf("POST provider with next: status %d to %q, want 303 to the customer's payments", p.Status, p.Location())
	}
	if got := u.Get(p.Location()); got.Status != http.StatusOK {
		t.Errorf("GET %s after choosing: status %d, want 200", p.Location(), got.Status)
	}
	for _, evil := range []string{"//evil.example/x", "https://evil.example/", "/\\evil", "/login"} {
		if form := u.Get(tradePath + "?next=" + url.QueryEscape(evil)); form.Doc.Find(`input[name="next"]`).Length() != 0 {
			t.Errorf("GET %s?next=%s: the form keeps it", tradePath, evil)
		}
		p := u.PostForm(tradePath, url.Values{"_csrf": {u.Token(tradePath)}, "provider": {"TP-2"}, "next": {evil}})
		if p.Status != http.StatusSeeOther || p.Location() != tradePath+"?chosen=TP-2" {
			t.Errorf("POST with next=%s: status %d to %q, want the settings page", evil, p.Status, p.Location())
		}
	}

	missing := u.Get("/customers/C2-999999")
	if missing.Status != http.StatusNotFound {
		t.Fatalf("GET /customers/C2-999999: status %d, want 404", missing.Status)
	}
	msg := missing.Text("main")
	if !strings.Contains(msg, "C2-999999") || !strings.Contains(msg, "Lakeshore Foods Distribution - Receivables (TP-2)") {
		t.Errorf("404 for a customer id = %q, want it to name the id and the provider TP-2", msg)
	}
}

// TestLookupDetectsTheKind: the default "any id" tells digits, S-… and
// C…-… apart, and an S- or C- id typed with "Business id" is opened as
// what it is; what none of these is gets a message naming the forms.
func TestLookupDetectsTheKind(t *testing.T) {
	app := apptest.Start(t, apptest.Options{})
	u := app.SignIn(t, "demo")
	if v, _ := u.Get("/").Doc.Find(`#lookup-by option[selected]`).Attr("value"); v != "auto" {
		t.Errorf("the lookup's default type = %q, want auto", v)
	}
	for q, want := range map[string]string{
		"by=auto&value=1001":    "/businesses/1001",
		"value=1001":            "/businesses/1001",
		"by=auto&value=S-1001":  "/suppliers/S-1001",
		"by=id&value=S-1001":    "/suppliers/S-1001",
		"by=auto&value=C1-1001": "/customers/C1-1001",
		"by=id&value=c2-1005":   "/customers/c2-1005",
	} {
		if p := u.Get("/open?" + q); p.Status != http.StatusSeeOther || p.Location() != want {
			t.Errorf("GET /open?%s: status %d to %q, want 303 to %s", q, p.Status, p.Location(), want)
		}
	}
	p := u.Get("/open?by=auto&value=ACME")
	if p.Status != http.StatusBadRequest || !strings.Contains(p.Text(".form-error"), "S-1001") {
		t.Errorf("GET /open?by=auto&value=ACME: status %d, message %q; want 400 naming the forms", p.Status, p.Text(".form-error"))
	}
	if v, _ := p.Doc.Find(`#lookup-value`).Attr("value"); v != "ACME" {
		t.Errorf("the refused value is not kept: %q", v)
	}
}

// TestAreaNavigation: every page of the team's area lists the accounts,
// the exposure, the worklist, the reviews, the refresh plan, the
// validation, the defaults, the decisions, the audit trail and the
// webhooks, and every page of the workspace lists
// the watch list, alerts, dated copies, the digest's settings, the
// supplier category and the workspace's own page; each marks its own
// (or its parent's) link current, and every link listed opens.
func TestAreaNavigation(t *testing.T) {
	app := apptest.Start(t, apptest.Options{})
	u := signInAccounts(t, app, "demo")
	importLedger(t, u, "aging.csv", []byte(ledgerCSV), "2026-09-30")
	const team = "/accounts /portfolio/exposure /worklist /reviews /refresh-plan /policy /policy/validation /accounts/defaults /decisions /audit /settings/webhooks /team"
	const workspace = "/watchlist /alerts /snapshots /settings/digest /settings/supplier-category /settings/workspace"
	for _, c := range []struct{ path, area, want, current string }{
		{"/accounts", "Team", team, "Accounts"},
		{"/accounts/import", "Team", team, "Accounts"},
		{"/portfolio/exposure", "Team", team, "Exposure"},
		{"/worklist", "Team", team, "Worklist"},
		{"/reviews", "Team", team, "Reviews"},
		{"/accounts/A-1/review", "Team", team, "Reviews"},
		{"/refresh-plan", "Team", team, "Refresh plan"},
		{"/policy", "Team", team, "Credit policy"},
		{"/policy/validation", "Team", team, "Policy validation"},
		{"/accounts/defaults", "Team", team, "Defaults"},
		{"/decisions", "Team", team, "Decisions"},
		{"/audit", "Team", team, "Audit trail"},
		{"/audit/verify", "Team", team, "Audit trail"},
		{"/settings/webhooks", "Team", team, "Webhooks"},
		{"/team", "Team", team, "Members"},
		{"/watchlist", "Your workspace", workspace, "Watch list"},
		{"/alerts", "Your workspace", workspace, "Alerts"},
		{"/alerts/backtest", "Your workspace", workspace, "Alerts"},
		{"/snapshots", "Your workspace", workspace, "Dated copies"},
		{"/settings/digest", "Your workspace", workspace, "E-mail digest"},
		{"/settings/supplier-category", "Your workspace", workspace, "Supplier category"},
		{"/settings/workspace", "Your workspace", workspace, "Take away or delete"},
	} {
		p := u.Get(c.path)
		mustStatus(t, c.path, p, http.StatusOK)
		nav := p.Doc.Find(`nav.subnav[aria-label="` + c.area + `"]`)
		var hrefs []string
		nav.Find("a").Each(func(_ int, a *goquery.Selection) { h, _ := a.Attr("href"); hrefs = append(hrefs, h) })
		if got := strings.Join(hrefs, " "); got != c.want {
			t.Errorf("GET %s: %s navigation = %q, want %q", c.path, c.area, got, c.want)
		}
		if got := strings.TrimSpace(nav.Find(`a[aria-current="page"]`).Text()); got != c.current {
			t.Errorf("GET %s: current = %q, want %q", c.path, got, c.current)
		}
	}
	for _, path := range strings.Fields(team + " " + workspace) {
		if p := u.Get(path); p.Status != http.StatusOK {
			t.Errorf("GET %s from the navigation: status %d", path, p.Status)
		}
	}
	home := u.Get("/")
	for _, path := range []string{"/accounts", "/worklist", "/watchlist", "/alerts", "/decisions"} {
		if home.Doc.Find(`header.site a[href="`+path+`"]`).Length() == 0 {
			t.Errorf("the header on / does not link %s", path)
		}
	}
	if p := u.Get("/businesses/1001"); p.Doc.Find("nav.subnav").Length() != 0 {
		t.Error("a report shows an area's navigation")
	}
}
