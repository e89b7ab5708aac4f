package handlers_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"

	"creditdash/internal/apptest"
)

// membershipCalls counts a user's requests of the portfolio's memberships.
func membershipCalls(app *apptest.App, user string) int {
	return app.Sim.Requests()[user]["/v1/Portfolio/Businesses"]
}

// A rule on a folder fires for the businesses in that folder only:
// scenario business 1001 (Risk 7 -> 2) is in demo's folders 101 and 104,
// not in 105, so "Risk below 3" on 101 fires when its report loads and
// rules on 105 do not, while 1003 (in 105) fires one of them. The form
// lists demo's folders, the rule list names the folder, and the
// memberships cost one request at most.
func TestWorkspaceFolderRuleFires(t *testing.T) {
	workspaceEngines(t, func(t *testing.T, opts apptest.Options) {
		app := apptest.Start(t, opts)
		u := signInWS(t, app, "demo")

		// 105 must really lack 1001 for the second rule to prove anything.
		if p := u.Get("/portfolio/folders/105"); p.Doc.Find(`a[href="/businesses/1001"]`).Length() != 0 {
			t.Fatal("setup: folder 105 holds 1001")
		}
		p := u.Get("/alerts")
		options := map[string]string{}
		p.Doc.Find("#rule-folder option").Each(func(_ int, s *goquery.Selection) {
			v, _ := s.Attr("value")
			options[v] = strings.TrimSpace(s.Text())
		})
		for id, name := range map[string]string{"101": "Retail watchlist", "104": "High-risk review", "105": "Distributors and carriers"} {
			if options[id] != name {
				t.Errorf("folder option %s = %q, want %q (options %v)", id, options[id], name, options)
			}
		}
		if v, _ := p.Doc.Find(`#rule-scope option[value="folder"]`).Attr("value"); v != "folder" {
			t.Error("the scope list offers no folder")
		}

		mustRedirect(t, "rule on 101", u.post("/alerts/rules", "scope", "folder", "folder", "101",
			"score", "risk", "condition", "below", "threshold", "3"))
		mustRedirect(t, "rule on 105", u.post("/alerts/rules", "scope", "folder", "folder", "105",
			"score", "risk", "condition", "below", "threshold", "3"))
		// 1001's Risk of 2 is above 1 too: only its folders keep this quiet.
		mustRedirect(t, "second rule on 105", u.post("/alerts/rules", "scope", "folder", "folder", "105",
			"score", "risk", "condition", "above", "threshold", "1"))
		rules := u.Get("/alerts").Text("ul.rules")
		for _, want := range []string{"Risk below 3 in folder Retail watchlist", "Risk below 3 in folder Distributors and carriers"} {
			if !strings.Contains(rules, want) {
				t.Errorf("rules %q lack %q", rules, want)
			}
		}

		before := membershipCalls(app, "demo")
		report := u.Get("/businesses/1001")
		if got := report.Text(".alerts-link .unread-count"); got != "1" {
			t.Errorf("header after the report: unread = %q, want 1", got)
		}
		warm := calls(app, "demo")
		u.Get("/businesses/1001")
		if extra := calls(app, "demo") - warm; extra != 0 {
			t.Errorf("a second report view made %d calls, want 0", extra)
		}
		if n := membershipCalls(app, "demo") - before; n > 1 {
			t.Errorf("the memberships were asked for %d times, want once at most", n)
		}

		p = u.Get("/alerts")
		rows := p.Doc.Find("table.alerts tbody tr")
		if rows.Length() != 1 {
			t.Fatalf("%d alerts, want 1: %s", rows.Length(), p.Text("table.alerts"))
		}
		row := p.Text("table.alerts tbody tr")
		for _, want := range []string{"Westbridge", "Risk below 3 in folder Retail watchlist", "2 severe"} {
			if !strings.Contains(row, want) {
				t.Errorf("alert row %q lacks %q", row, want)
			}
		}
		if strings.Contains(row, "Distributors") {
			t.Errorf("the rule on folder 105 fired for 1001: %q", row)
		}

		// 1003 is in folder 105 (and not below 3): "above 1" fires for it.
		u.Get("/businesses/1003")
		p = u.Get("/alerts")
		if n := p.Doc.Find("table.alerts tbody tr").Length(); n != 2 {
			t.Fatalf("after 1003's report: %d alerts, want 2: %s", n, p.Text("table.alerts"))
		}
		newest := p.Text("table.alerts tbody tr:first-child")
		if href, _ := p.Doc.Find("table.alerts tbody tr:first-child th a").Attr("href"); href != "/businesses/1003" ||
			!strings.Contains(newest, "Risk above 1 in folder Distributors and carriers") {
			t.Errorf("the alert for 1003 reads %q (links %q)", newest, href)
		}
	})
}

// A folder that is not the analyst's, or not a folder id at all, is
// refused with a message; the form keeps the choices and stores nothing.
func TestWorkspaceFolderRuleBadFolder(t *testing.T) {
	app := apptest.Start(t, apptest.Options{})
	u := signInWS(t, app, "demo")
	for _, c := range []struct{ name, folder, want string }{
		{"unknown folder", "999", "no folder 999 in your portfolio"},
		{"another analyst's folder", "301", "no folder 301 in your portfolio"},
		{"not a number", "abc", "Choose one of your folders"},
		{"none chosen", "", "Choose one of your folders"},
	} {
		p := u.post("/alerts/rules", "scope", "folder", "folder", c.folder, "score", "pay", "condition", "below", "threshold", "4")
		if p.Status != http.StatusUnprocessableEntity {
			t.Errorf("%s: status = %d, want 422", c.name, p.Status)
			continue
		}
		if msg := p.Text(".rule-form .form-error"); !strings.Contains(msg, c.want) {
			t.Errorf("%s: message %q lacks %q", c.name, msg, c.want)
		}
		for sel, want := range map[string]string{
			"#rule-scope option[selected]":     "folder",
			"#rule-score option[selected]":     "pay",
			"#rule-condition option[selected]": "below",
		} {
			if got, _ := p.Doc.Find(sel).Attr("value"); got != want {
				t.Errorf("%s: %s = %q, want %q kept", c.name, sel, got, want)
			}
		}
		if v, _ := p.Doc.Find("#rule-threshold").Attr("value"); v != "4" {
			t.Errorf("%s: threshold = %q, want 4 kept", c.name, v)
		}
		if p.Doc.Find("#rule-folder option").Length() < 5 {
			t.Errorf("%s: the refused form no longer lists the folders", c.name)
		}
	}
	if n := u.Get("/alerts").Doc.Find("ul.rules li").Length(); n != 0 {
		t.Errorf("refused folder rules were stored: %d", n)
	}
}

// Without its token a folder rule is refused (403) and not stored.
func TestWorkspaceFolderRuleNeedsCSRF(t *testing.T) {
	app := apptest.Start(t, apptest.Options{})
	u := signInWS(t, app, "demo")
	p := u.PostForm("/alerts/rules", url.Values{"scope": {"folder"}, "folder": {"101"}, "score": {"risk"},
		"condition": {"below"}, "threshold": {"3"}})
	if p.Status != http.StatusForbidden {
		t.Errorf("POST /alerts/rules without a token: status = %d, want 403", p.Status)
	}
	if n := u.Get("/alerts").Doc.Find("ul.rules li").Length(); n != 0 {
		t.Errorf("a refused post added %d rules", n)
	}
}

// Another analyst sees neither demo's folder rule nor its alert, cannot
// delete it, and cannot set a rule on demo's folder; their own form lists
// their own folders.
func TestWorkspaceFolderRuleIsolation(t *testing.T) {
	workspaceEngines(t, func(t *testing.T, opts apptest.Options) {
		app := apptest.Start(t, opts)
		u := signInWS(t, app, "demo")
		mustRedirect(t, "rule on 104", u.post("/alerts/rules", "scope", "folder", "folder", "104",
			"score", "risk", "condition", "below", "threshold", "3"))
		u.Get("/businesses/1001")
		p := u.Get("/alerts")
		ruleAction, _ := p.Doc.Find("ul.rules form").First().Attr("action")
		alertAction, _ := p.Doc.Find("table.alerts tbody form").First().Attr("action")
		if ruleAction == "" || alertAction == "" {
			t.Fatalf("setup: demo's rule or alert is missing: %q", p.Text("main"))
		}

		other := signInWS(t, app, "developer")
		op := other.Get("/alerts")
		if op.Doc.Find("ul.rules, table.alerts").Length() != 0 {
			t.Error("another analyst sees demo's folder rule or its alert")
		}
		if op.Doc.Find(`#rule-folder option[value="104"]`).Length() != 0 || op.Doc.Find(`#rule-folder option[value="301"]`).Length() != 1 {
			t.Errorf("developer's form lists %q", op.Text("#rule-folder"))
		}
		for _, path := range []string{ruleAction, alertAction} {
			if p := other.post(path); p.Status != http.StatusNotFound {
				t.Errorf("another analyst POST %s: status = %d, want 404", path, p.Status)
			}
		}
		if p := other.post("/alerts/rules", "scope", "folder", "folder", "104", "score", "risk", "condition", "below", "threshold", "3"); p.Status != http.StatusUnprocessableEntity {
			t.Errorf("a rule on demo's folder by another analyst: status = %d, want 422", p.Status)
		}
		// Developer's own report of 1001 raises nothing under demo's rule.
		other.Get("/businesses/1001")
		if n := other.Get("/alerts").Doc.Find("table.alerts tbody tr").Length(); n != 0 {
			t.Errorf("another analyst got %d alerts from demo's rule", n)
		}
		if n := u.Get("/alerts").Doc.Find("ul.rules li").Length(); n != 1 {
			t.Errorf("demo has %d rules after the other analyst's attempts, want 1", n)
		}
	})
}

// With the hourly budget spent, /alerts offers the folder list to load
// later and takes a folder's id instead; a folder rule sent then says the
// folder could not be checked, spends nothing and stores nothing.
func TestWorkspaceFolderRuleWithinBudget(t *testing.T) {
	app := apptest.Start(t, apptest.Options{})
	u := signInWS(t, app, "ordinary")
	u.Get("/businesses/1001")          // 5 requests
	u.Get("/businesses/1002/payments") // 4 more
	u.Get("/businesses/1002")          // the last one
	if n := total(app, "ordinary"); n != 10 {
		t.Fatalf("setup: %d requests spent, want 10", n)
	}
	p := u.Get("/alerts")
	if p.Status != http.StatusOK {
		t.Fatalf("GET /alerts: status = %d", p.Status)
	}
	if p.Doc.Find(".rule-form .problem.deferred").Length() != 1 || p.Doc.Find(`input#rule-folder[name="folder"]`).Length() != 1 {
		t.Fatalf("no folder list offered to load and no folder id field: %q", p.Text(".rule-form"))
	}
	if n := p.Doc.Find(".rule-form .problem.deferred a").Length(); n != 0 {
		t.Errorf("%d Load links with no request left", n)
	}
	p = u.post("/alerts/rules", "scope", "folder", "folder", "201", "score", "pay", "condition", "below", "threshold", "4")
	if p.Status != http.StatusUnprocessableEntity || !strings.Contains(p.Text(".rule-form .form-error"), "could not be checked") {
		t.Errorf("a folder rule with no budget: status %d, %q", p.Status, p.Text(".rule-form .form-error"))
	}
	if v, _ := p.Doc.Find("#rule-folder").Attr("value"); v != "201" {
		t.Errorf("the folder id typed = %q, want 201 kept", v)
	}
	if n := p.Doc.Find(".rule-form .problem.deferred a").Length(); n != 0 {
		t.Errorf("%d Load links after the post with no request left", n)
	}
	if n := total(app, "ordinary"); n != 10 {
		t.Errorf("%d requests spent, want still 10", n)
	}
	if n := u.Get("/alerts").Doc.Find("ul.rules li").Length(); n != 0 {
		t.Errorf("a folder rule that could not be checked was stored (%d)", n)
	}
}
