package handlers_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"

	"creditdash/internal/apptest"
)

// alertRows are the triggered alerts /alerts lists, as "business | rule".
func alertRows(u *wsUser) []string {
	var out []string
	u.Get("/alerts").Doc.Find("table.alerts tbody tr").Each(func(_ int, s *goquery.Selection) {
		out = append(out, strings.TrimSpace(s.Find("th").Text())+" | "+strings.Join(strings.Fields(s.Find("td").First().Text()), " "))
	})
	return out
}

// The demo's 1008 pays its electronic-parts suppliers last: a divergence
// rule on SIC 36 fires when its payments tab loads, once, and a rule on
// the analyst's own category (set in settings) on the whole portfolio
// fires for it too. 1001, a prompt payer, fires none of the divergence
// rules set on each of its own supplier categories. Both engines.
func TestDivergenceFiresForTheDemoScenarioOnly(t *testing.T) {
	workspaceEngines(t, func(t *testing.T, opts apptest.Options) {
		app := apptest.Start(t, opts)
		u := signInWS(t, app, "demo")
		mustRedirect(t, "divergence on 1008", u.post("/alerts/rules", "scope", "business", "business", "1008",
			"condition", "divergence", "category", "36", "threshold", "", "steady", ""))
		if rules := u.Get("/alerts").Text("ul.rules"); !strings.Contains(rules,
			"DBT toward SIC 36 rises by at least 10 days over three months while the overall DBT moves less than 3 on") {
			t.Fatalf("rules: %q", rules)
		}

		// The prompt payer: a rule on each of its categories.
		p := u.Get("/businesses/1001/payments")
		var cats []string
		p.Doc.Find("#divergence-category option").Each(func(_ int, s *goquery.Selection) {
			v, _ := s.Attr("value")
			cats = append(cats, v)
		})
		if len(cats) < 3 {
			t.Fatalf("1001's payments tab offers categories %v", cats)
		}
		for _, c := range cats {
			mustRedirect(t, "divergence on 1001, SIC "+c, u.post("/alerts/rules", "scope", "business", "business", "1001",
				"condition", "divergence", "category", c))
		}
		u.Get("/businesses/1001/payments")
		if rows := alertRows(u); len(rows) != 0 {
			t.Fatalf("a prompt payer fired divergence alerts: %v", rows)
		}

		p = u.Get("/businesses/1008/payments")
		if p.Status != http.StatusOK {
			t.Fatalf("1008 payments: status %d", p.Status)
		}
		u.Get("/businesses/1008/payments") // again: stored once
		rows := alertRows(u)
		if len(rows) != 1 || !strings.Contains(rows[0], "Brightline Systems Distribution Inc") || !strings.Contains(rows[0], "SIC 36") {
			t.Fatalf("alerts after 1008's payments: %v; want one for Brightline on SIC 36", rows)
		}

		// The analyst's own category, on the whole portfolio.
		mustRedirect(t, "own category", u.post("/settings/supplier-category", "category", "36"))
		mustRedirect(t, "divergence on the portfolio", u.post("/alerts/rules", "scope", "portfolio", "condition", "divergence", "threshold", "12"))
		u.Get("/businesses/1008/payments")
		rows = alertRows(u)
		if len(rows) != 2 || !strings.Contains(strings.Join(rows, "\n"), "DBT toward your supplier category rises by at least 12 days") {
			t.Errorf("alerts after the portfolio rule: %v", rows)
		}
		u.Get("/businesses/1001/payments")
		if n := len(alertRows(u)); n != 2 {
			t.Errorf("%d alerts after 1001's payments again, want still 2", n)
		}
	})
}

// The payments tab puts the DBT toward a category beside the overall DBT
// with the spread: the analyst's own category when the business reports
// it, else one chosen, else the one that rose most.
func TestPaymentsTabDivergencePanel(t *testing.T) {
	app := apptest.Start(t, apptest.Options{})
	u := signInWS(t, app, "demo")
	p := u.Get("/businesses/1008/payments")
	if got := p.Doc.Find("#divergence-category option[selected]").AttrOr("value", ""); got != "36" {
		t.Errorf("1008 without a category set shows %q, want 36 (its steepest rise)", got)
	}
	summary := p.Text("#divergence-summary")
	if !strings.Contains(summary, "DBT toward 36 Electronic") || !strings.Contains(summary, "while the overall DBT moved 0") {
		t.Errorf("summary: %q", summary)
	}
	if p.Doc.Find("#chart-divergence").Length() != 1 {
		t.Error("no divergence chart")
	}
	head := strings.Join(p.Doc.Find("#divergence table thead th").Map(func(_ int, s *goquery.Selection) string { return s.Text() }), "|")
	if head != "Month|Toward 36|Overall|Spread" {
		t.Errorf("divergence table head %q", head)
	}
	if !strings.Contains(p.Text("#divergence"), "Set the team’s supplier category") {
		t.Error("no hint to set a supplier category")
	}

	chosen := u.Get("/businesses/1008/payments?category=50")
	if got := chosen.Doc.Find("#divergence-category option[selected]").AttrOr("value", ""); got != "50" {
		t.Errorf("?category=50 shows %q", got)
	}
	mustRedirect(t, "own category", u.post("/settings/supplier-category", "category", "5065"))
	own := u.Get("/businesses/1008/payments")
	if got := own.Doc.Find("#divergence-category option[selected]").AttrOr("value", ""); got != "50" {
		t.Errorf("own category 5065 shows %q, want its major group 50", got)
	}
	if !strings.Contains(own.Text("#divergence"), "supplier category: SIC 5065") {
		t.Errorf("own category not named: %q", own.Text("#divergence"))
	}
}

// The settings page keeps the team's category; bad codes come back with
// the reason and the typed text, 422; an empty one clears it.
func TestSupplierCategorySettings(t *testing.T) {
	app := apptest.Start(t, apptest.Options{})
	u := signInWS(t, app, "demo")
	if p := u.Get("/settings/supplier-category"); p.Status != http.StatusOK || !strings.Contains(p.Text("#supplier-category-current"), "No category set") {
		t.Fatalf("settings: status %d, %q", p.Status, p.Text("#supplier-category-current"))
	}
	p := u.post("/settings/supplier-category", "category", "electronics")
	if p.Status != http.StatusUnprocessableEntity || !strings.Contains(p.Text(".form-error"), "SIC code of 2 to 4 digits") ||
		p.Doc.Find(`#supplier-category[value="electronics"]`).Length() != 1 {
		t.Errorf("bad code: status %d, %q", p.Status, p.Text(".form-error"))
	}
	mustRedirect(t, "set", u.post("/settings/supplier-category", "category", " 36 "))
	if got := u.Get("/settings/supplier-category").Text("#supplier-category-current"); got != "The team’s category: SIC 36." {
		t.Errorf("after saving: %q", got)
	}
	// It is the team's: another analyst sees it, and the audit trail says
	// who set it; an auditor may not change it.
	other := signInWS(t, app, "developer")
	if got := other.Get("/settings/supplier-category").Text("#supplier-category-current"); got != "The team’s category: SIC 36." {
		t.Errorf("another analyst of the team sees %q", got)
	}
	if got := other.Get("/audit").Text("main"); !strings.Contains(got, "supplier-category") || !strings.Contains(got, "36") {
		t.Errorf("the audit trail does not show the change: %.400s", got)
	}
	if p := signInWS(t, app, "trade").post("/settings/supplier-category", "category", "50"); p.Status != http.StatusForbidden {
		t.Errorf("an auditor's change: status %d, want 403", p.Status)
	}
	mustRedirect(t, "clear", u.post("/settings/supplier-category", "category", ""))
	if got := u.Get("/settings/supplier-category").Text("#supplier-category-current"); !strings.Contains(got, "No category set") {
		t.Errorf("after clearing: %q", got)
	}
	if p := u.PostForm("/settings/supplier-category", nil); p.Status != http.StatusForbidden && p.Status != http.StatusBadRequest {
		t.Errorf("POST without a token: status %d", p.Status)
	}
}

// A divergence rule's bad days or category come back in the rule form.
func TestDivergenceRuleRefused(t *testing.T) {
	app := apptest.Start(t, apptest.Options{})
	u := signInWS(t, app, "demo")
	for _, tc := range []struct{ name, threshold, steady, category, want string }{
		{"rise not a number", "ten", "", "36", "whole number of days, such as 10"},
		{"rise not whole", "10.5", "", "36", "whole number of days from 1 to 120"},
		{"steady zero", "10", "0", "36", "whole number of days from 1 to 120"},
		{"category not SIC", "10", "3", "3x", "SIC code of 2 to 4 digits"},
	} {
		p := u.post("/alerts/rules", "scope", "business", "business", "1008", "condition", "divergence",
			"threshold", tc.threshold, "steady", tc.steady, "category", tc.category)
		if p.Status != http.StatusUnprocessableEntity || !strings.Contains(p.Text(".form-error"), tc.want) {
			t.Errorf("%s: status %d, %q; want 422 saying %q", tc.name, p.Status, p.Text(".form-error"), tc.want)
		}
		if p.Doc.Find(`#rule-category[value="`+tc.category+`"]`).Length() != 1 {
			t.Errorf("%s: category %q not kept", tc.name, tc.category)
		}
	}
}
