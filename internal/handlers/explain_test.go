package handlers_test

import (
	"net/http"
	"strings"
	"testing"

	"creditdash/internal/apptest"
)

// The Financials tab works out each fiscal year's Z″ and the Payments tab
// the newest month's DBT; for the demo data both agree with the service.
func TestExplanationsOnTheTabs(t *testing.T) {
	app := apptest.Start(t, apptest.Options{})
	u := app.SignIn(t, "demo")

	p := u.Get("/businesses/1001/financials")
	if p.Status != http.StatusOK {
		t.Fatalf("GET financials: status %d", p.Status)
	}
	years := p.Doc.Find("#z-explained details")
	if years.Length() < 3 {
		t.Fatalf("Z″ explained for %d fiscal years, want every year: %q", years.Length(), p.Text("#z-explained"))
	}
	if n := p.Doc.Find("#z-explained details").First().Find("tbody tr").Length(); n != 4 {
		t.Errorf("latest year has %d terms, want 4", n)
	}
	if got := p.Text("#z-explained"); !strings.Contains(got, "agrees") || strings.Contains(got, "beyond rounding") {
		t.Errorf("Z″ explanation: %q", got)
	}

	p = u.Get("/businesses/1004/payments")
	if p.Status != http.StatusOK {
		t.Fatalf("GET payments: status %d", p.Status)
	}
	got := p.Text("#dbt-explained")
	for _, want := range []string{"91+ days", "Weighted days", "Industry DBT", "agrees"} {
		if !strings.Contains(got, want) {
			t.Errorf("DBT explanation lacks %q: %q", want, got)
		}
	}
}

// An API-Only account lacks the statement values: the page says which,
// and still shows the service's Z″.
func TestZExplanationWithheldInputs(t *testing.T) {
	app := apptest.Start(t, apptest.Options{})
	u := app.SignIn(t, "developer")
	p := u.Get("/businesses/1001/financials")
	if p.Status != http.StatusOK {
		t.Fatalf("status %d", p.Status)
	}
	if got := p.Text("#z-explained"); !strings.Contains(got, "withheld") || !strings.Contains(got, "cannot be worked out") {
		t.Errorf("API-Only explanation: %q", got)
	}
}

// With a small budget, the Z″ history is its own section: offered with its
// cost when the budget runs out, never loaded behind the user's back.
func TestZExplanationIsBudgeted(t *testing.T) {
	app := apptest.Start(t, apptest.Options{})
	u := app.SignIn(t, "ordinary")
	u.Get("/businesses/1002/payments") // 4
	u.Get("/businesses/1002/officers") // 1 (the header is kept): 5 left
	p := u.Get("/businesses/1001/financials")
	if p.Status != http.StatusOK {
		t.Fatalf("status %d", p.Status)
	}
	if n := total(app, "ordinary"); n != 10 {
		t.Errorf("%d requests spent, want the hour's 10", n)
	}
	if p.Doc.Find("#statements table").Length() != 1 {
		t.Errorf("the statements come first: %q", p.Text("#statements"))
	}
	if got := p.Text("#z-explained .problem.deferred"); !strings.Contains(got, "Not loaded") || p.Doc.Find("#z-explained .problem.deferred a").Length() != 0 {
		t.Errorf("the Z″ history should wait for the limit, without a Load link: %q", p.Text("#z-explained"))
	}
}
