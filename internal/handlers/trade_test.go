package handlers_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"creditdash/internal/apptest"
	"creditdash/internal/upstream/simulator"
)

const tradePath = "/settings/trade-provider"

// customerPageOffered tells whether the business pages (issue 4) are routed;
// before they are, /customers/... is the router's own 404.
func customerPageOffered(p *apptest.Page) bool {
	return !(p.Status == http.StatusNotFound && p.Text("h1") == "Page not found")
}

func TestTradeProviderFlowEndToEnd(t *testing.T) {
	app := apptest.Start(t, apptest.Options{})
	u := app.SignIn(t, "trade")

	// Before choosing: the settings page says so, and a CustomerId page
	// explains what to do and links here.
	p := u.Get(tradePath)
	mustStatus(t, tradePath, p, http.StatusOK)
	if n := p.Doc.Find(`input[type="radio"][name="provider"]`).Length(); n != 2 {
		t.Fatalf("%d providers offered, want TP-1 and TP-2", n)
	}
	if !strings.Contains(p.Text(".current"), "No trade provider is chosen") {
		t.Errorf("current provider reads %q", p.Text(".current"))
	}
	if p.Doc.Find(`nav a[aria-current="page"]`).Text() != "Trade provider" {
		t.Errorf("navigation marks %q as current", p.Doc.Find(`nav a[aria-current="page"]`).Text())
	}
	customer := u.Get("/customers/C1-1001")
	offered := customerPageOffered(customer)
	if offered {
		if customer.Status != http.StatusConflict {
			t.Errorf("GET /customers/C1-1001 before choosing: status %d, want 409", customer.Status)
		}
		if href, _ := customer.Doc.Find(`main a[href^="` + tradePath + `"]`).Attr("href"); href != tradePath+"?next=%2Fcustomers%2FC1-1001" {
			t.Errorf("the 409 page does not link to %s, returning to the customer: %q", tradePath, href)
		}
	}

	// Without the CSRF token: refused, nothing chosen.
	if p := u.PostForm(tradePath, url.Values{"provider": {"TP-1"}}); p.Status != http.StatusForbidden {
		t.Errorf("POST without token: status %d, want 403", p.Status)
	}
	// A provider the account does not have: the form again, with a message.
	for _, bad := range []string{"TP-9", "", "TP-1' OR 1=1"} {
		p := u.PostForm(tradePath, url.Values{"_csrf": {u.Token(tradePath)}, "provider": {bad}})
		if p.Status != http.StatusBadRequest || p.Text(".form-error") == "" {
			t.Errorf("POST provider=%q: status %d message %q, want 400 with a message", bad, p.Status, p.Text(".form-error"))
		}
		if p.Doc.Find(`input[type="radio"][name="provider"]`).Length() != 2 {
			t.Errorf("POST provider=%q: the form is not shown again", bad)
		}
	}
	if p := u.Get(tradePath); !strings.Contains(p.Text(".current"), "No trade provider is chosen") {
		t.Errorf("a refused choice changed the provider: %q", p.Text(".current"))
	}

	// Choosing TP-1: 303 back with a confirmation.
	p = u.PostForm(tradePath, url.Values{"_csrf": {u.Token(tradePath)}, "provider": {"TP-1"}})
	if p.Status != http.StatusSeeOther || p.Location() != tradePath+"?chosen=TP-1" {
		t.Fatalf("POST provider=TP-1: status %d to %q, want 303 to %s?chosen=TP-1", p.Status, p.Location(), tradePath)
	}
	p = u.Get(p.Location())
	if !strings.Contains(p.Text(".flash"), "TP-1") {
		t.Errorf("no confirmation after choosing: flash %q", p.Text(".flash"))
	}
	if !strings.Contains(p.Text(".current"), "TP-1") {
		t.Errorf("current provider reads %q, want TP-1", p.Text(".current"))
	}
	if v, _ := p.Doc.Find(`input[name="provider"][checked]`).Attr("value"); v != "TP-1" {
		t.Errorf("the form preselects %q, want TP-1", v)
	}
	// A hand-made confirmation link for another provider confirms nothing.
	if p := u.Get(tradePath + "?chosen=TP-2"); p.Text(".flash") != "" {
		t.Errorf("?chosen=TP-2 while TP-1 is current shows %q", p.Text(".flash"))
	}

	if !offered {
		t.Skip("the business pages of issue 4 (/customers/{id}) are not routed yet; the CustomerId half of this flow is unchecked")
	}
	customer = u.Get("/customers/C1-1001")
	if customer.Status != http.StatusOK || !strings.Contains(customer.Text("h1"), apptest.DemoData().Businesses[0].Name) {
		t.Errorf("GET /customers/C1-1001 after choosing TP-1: status %d title %q, want business 1001", customer.Status, customer.Text("h1"))
	}
}

func TestTradeProviderWithoutProviders(t *testing.T) {
	app := apptest.Start(t, apptest.Options{})
	u := app.SignIn(t, "demo")
	p := u.Get(tradePath)
	mustStatus(t, tradePath, p, http.StatusOK)
	if !strings.Contains(p.Text(".no-providers"), "no trade providers") || p.Doc.Find("form.trade-form").Length() != 0 {
		t.Errorf("an account without providers sees %q", p.Text("main"))
	}
	p = u.PostForm(tradePath, url.Values{"_csrf": {u.Token(tradePath)}, "provider": {"TP-1"}})
	if p.Status != http.StatusBadRequest || p.Text(".form-error") == "" && p.Text(".no-providers") == "" {
		t.Errorf("POST as demo: status %d, want 400 with a message", p.Status)
	}
}

func TestTradeProviderServiceFailure(t *testing.T) {
	app := apptest.Start(t, apptest.Options{NoCache: true})
	u := app.SignIn(t, "trade")
	tok := u.Token(tradePath)
	app.Sim.SetFaults(simulator.Faults{ErrorRate: 1, ErrorPaths: []string{"/v1/Trade/TradeProviders"}})
	p := u.Get(tradePath)
	if p.Status != http.StatusBadGateway || !strings.Contains(p.Text(".problem"), "not answering") {
		t.Errorf("GET with the service failing: status %d problem %q, want 502 told in the page", p.Status, p.Text(".problem"))
	}
	if p := u.PostForm(tradePath, url.Values{"_csrf": {tok}, "provider": {"TP-1"}}); p.Status != http.StatusBadGateway {
		t.Errorf("POST with the service failing: status %d, want 502", p.Status)
	}
}

// A choice the service fails to take comes back as the form, the choice
// still marked, the problem told, with a link to try again.
func TestTradeProviderChoiceKeptWhenTheServiceFails(t *testing.T) {
	app := apptest.Start(t, apptest.Options{})
	u := app.SignIn(t, "trade")
	tok := u.Token(tradePath) // lists the providers, now in the cache
	app.Sim.SetFaults(simulator.Faults{ErrorRate: 1, ErrorPaths: []string{"/v1/Trade/TradeProviders"}})
	p := u.PostForm(tradePath, url.Values{"_csrf": {tok}, "provider": {"TP-2"}})
	if p.Status != http.StatusBadGateway || !strings.Contains(p.Text(".problem"), "not answering") {
		t.Fatalf("status %d problem %q, want 502 told in the page", p.Status, p.Text(".problem"))
	}
	if v, _ := p.Doc.Find(`input[name="provider"][checked]`).Attr("value"); v != "TP-2" {
		t.Errorf("the choice marked is %q, want TP-2 kept", v)
	}
	if href, _ := p.Doc.Find(".problem a").Attr("href"); href != tradePath {
		t.Errorf("try again goes to %q, want %s", href, tradePath)
	}
}
