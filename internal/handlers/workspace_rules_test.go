package handlers_test

import (
	"net/http"
	"strconv"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"

	"creditdash/internal/apptest"
)

// portfolioIDs collects the businesses of every folder of the user, from
// the folder pages the dashboard shows.
func portfolioIDs(t *testing.T, u *wsUser) map[string]bool {
	t.Helper()
	ids := map[string]bool{}
	var folders []string
	u.Get("/portfolio").Doc.Find(`a[href^="/portfolio/folders/"]`).Each(func(_ int, s *goquery.Selection) {
		href, _ := s.Attr("href")
		folders = append(folders, href)
	})
	if len(folders) == 0 {
		t.Fatal("setup: /portfolio links no folder")
	}
	for _, f := range folders {
		u.Get(f).Doc.Find(`a[href^="/businesses/"]`).Each(func(_ int, s *goquery.Selection) {
			href, _ := s.Attr("href")
			ids[strings.TrimPrefix(href, "/businesses/")] = true
		})
	}
	return ids
}

// A rule on the whole portfolio may watch any score. Risk and DBT arrive
// only with a report, so there it fires for a business some folder holds
// (1001, Risk 7 -> 2) and never for one outside the portfolio, whatever
// its score; the memberships it needs cost one request at most.
func TestWorkspacePortfolioRuleOnRiskFiresOnReport(t *testing.T) {
	workspaceEngines(t, func(t *testing.T, opts apptest.Options) {
		app := apptest.Start(t, opts)
		u := signInWS(t, app, "demo")
		in := portfolioIDs(t, u)
		if !in["1001"] {
			t.Fatal("setup: 1001 is not in demo's portfolio")
		}
		// An outside business whose Risk is above 1, so "above 1" would
		// fire for it were it in the portfolio.
		outside := ""
		for id := 1008; id <= 1500 && outside == ""; id++ {
			s := strconv.Itoa(id)
			if in[s] {
				continue
			}
			risk := u.Get("/businesses/" + s).Text(`article[aria-label="Risk score"] .value`)
			if n, err := strconv.Atoi(strings.TrimSpace(risk)); err == nil && n > 1 {
				outside = s
			}
		}
		if outside == "" {
			t.Fatal("setup: no business outside demo's portfolio with a Risk above 1")
		}

		mustRedirect(t, "Risk below 3 on the portfolio", u.post("/alerts/rules", "scope", "portfolio",
			"score", "risk", "condition", "below", "threshold", "3"))
		mustRedirect(t, "Risk above 1 on the portfolio", u.post("/alerts/rules", "scope", "portfolio",
			"score", "risk", "condition", "above", "threshold", "1"))
		mustRedirect(t, "DBT above 60 on the portfolio", u.post("/alerts/rules", "scope", "portfolio",
			"score", "dbt", "condition", "above", "threshold", "60"))
		rules := u.Get("/alerts").Text("ul.rules")
		for _, want := range []string{"Risk below 3 anywhere in the portfolio", "Risk above 1 anywhere in the portfolio", "DBT above 60 anywhere in the portfolio"} {
			if !strings.Contains(rules, want) {
				t.Errorf("rules %q lack %q", rules, want)
			}
		}

		before := membershipCalls(app, "demo")
		u.Get("/businesses/" + outside)
		if n := u.Get("/alerts").Doc.Find("table.alerts tbody tr").Length(); n != 0 {
			t.Fatalf("a portfolio rule fired for %s, outside the portfolio: %s", outside, u.Get("/alerts").Text("table.alerts"))
		}
		u.Get("/businesses/1001")
		p := u.Get("/alerts")
		rows := p.Doc.Find("table.alerts tbody tr")
		if rows.Length() != 2 {
			t.Fatalf("after 1001's report: %d alerts, want 2 (below 3, above 1): %s", rows.Length(), p.Text("table.alerts"))
		}
		for _, want := range []string{"Westbridge", "Risk below 3 anywhere in the portfolio", "Risk above 1 anywhere in the portfolio"} {
			if !strings.Contains(p.Text("table.alerts"), want) {
				t.Errorf("alerts %q lack %q", p.Text("table.alerts"), want)
			}
		}
		if n := membershipCalls(app, "demo") - before; n > 1 {
			t.Errorf("the memberships were asked for %d times, want once at most", n)
		}
	})
}

// The same rule twice (a second click, another tab) is refused in words,
// and its alerts fire once.
func TestWorkspaceRuleTwiceIsRefused(t *testing.T) {
	app := apptest.Start(t, apptest.Options{})
	u := signInWS(t, app, "demo")
	rule := []string{"scope", "business", "business", "1001", "score", "risk", "condition", "below", "threshold", "3"}
	mustRedirect(t, "the rule", u.post("/alerts/rules", rule...))
	p := u.post("/alerts/rules", rule...)
	if p.Status != http.StatusUnprocessableEntity || !strings.Contains(strings.ToLower(p.Text(".form-error")), "already have this rule") {
		t.Errorf("the same rule again: status %d, message %q; want 422 saying it is there", p.Status, p.Text(".form-error"))
	}
	u.Get("/businesses/1001")
	if n := u.Get("/alerts").Doc.Find("table.alerts tbody tr").Length(); n != 1 {
		t.Errorf("%d alerts listed, want 1", n)
	}
}

// A rule made before its business's report was opened names the business
// once an alert of it brought the name, not "business 1004".
func TestWorkspaceRuleTakesItsAlertsName(t *testing.T) {
	app := apptest.Start(t, apptest.Options{})
	u := signInWS(t, app, "demo")
	mustRedirect(t, "rule", u.post("/alerts/rules", "scope", "business", "business", "1004", "score", "risk", "condition", "below", "threshold", "3"))
	u.Get("/businesses/1004")
	p := u.Get("/alerts")
	name := strings.TrimSpace(p.Doc.Find("table.alerts tbody tr th").First().Text())
	if name == "" || strings.Contains(p.Text(".rules"), "business 1004") || !strings.Contains(p.Text(".rules"), name) {
		t.Errorf("rules read %q; want them to name %q", p.Text(".rules"), name)
	}
	if rule := p.Text("table.alerts tbody tr td"); !strings.Contains(rule, name) {
		t.Errorf("the alert's rule reads %q; want it to name %q", rule, name)
	}
}
