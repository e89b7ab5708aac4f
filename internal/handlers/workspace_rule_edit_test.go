package handlers_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"creditdash/internal/apptest"
)

// TestAlertMeFromTheReport: a report's "Alert me" opens the rule form
// filled in for that business, and the rule it saves is on it.
func TestAlertMeFromTheReport(t *testing.T) {
	app := apptest.Start(t, apptest.Options{})
	u := signInWS(t, app, "demo")
	report := u.Get("/businesses/1001")
	href, _ := report.Doc.Find("a.alert-me").Attr("href")
	if href != "/alerts?business=1001#rule-form" {
		t.Fatalf("Alert me = %q, want the rule form for 1001", href)
	}
	form := u.Get(strings.TrimSuffix(href, "#rule-form"))
	mustStatus(t, href, form, http.StatusOK)
	if v, _ := form.Doc.Find("#rule-business").Attr("value"); v != "1001" {
		t.Errorf("business field = %q, want 1001", v)
	}
	if v, _ := form.Doc.Find(`#rule-scope option[selected]`).Attr("value"); v != "business" {
		t.Errorf("scope = %q, want business", v)
	}
	name := report.Text("h1")
	if legend := form.Text("#rule-form legend"); legend != "New rule on "+name {
		t.Errorf("legend = %q, want it to name %q", legend, name)
	}
	mustRedirect(t, "POST the prefilled form", u.post("/alerts/rules", "scope", "business", "business", "1001",
		"score", "risk", "condition", "below", "threshold", "3"))
	if rules := u.Get("/alerts").Text("ul.rules"); !strings.Contains(rules, name) {
		t.Errorf("rules = %q, want the rule on %s", rules, name)
	}
}

// TestRuleOnAnUnknownBusinessRefused: the service does not know 999999,
// so no rule is saved and the form says why, with what was typed.
func TestRuleOnAnUnknownBusinessRefused(t *testing.T) {
	app := apptest.Start(t, apptest.Options{})
	u := signInWS(t, app, "demo")
	p := u.post("/alerts/rules", "scope", "business", "business", "999999", "score", "pay", "condition", "below", "threshold", "4")
	if p.Status != http.StatusUnprocessableEntity {
		t.Fatalf("POST a rule on 999999: status %d, want 422", p.Status)
	}
	if msg := p.Text(".form-error"); !strings.Contains(msg, "no business 999999") {
		t.Errorf("message = %q, want it to say the service has no business 999999", msg)
	}
	if v, _ := p.Doc.Find("#rule-business").Attr("value"); v != "999999" {
		t.Errorf("business field = %q, want what was typed", v)
	}
	if v, _ := p.Doc.Find("#rule-threshold").Attr("value"); v != "4" {
		t.Errorf("threshold field = %q, want what was typed", v)
	}
	if rules := u.Get("/alerts"); rules.Doc.Find("ul.rules li").Length() != 0 {
		t.Errorf("a rule was saved: %q", rules.Text("ul.rules"))
	}
}

// TestRuleBusinessCheckWithoutRequests: with no request left the
// business cannot be checked; the form says so and saves nothing.
func TestRuleBusinessCheckWithoutRequests(t *testing.T) {
	app := apptest.Start(t, apptest.Options{})
	u := signInWS(t, app, "ordinary")
	// Ordinary has 10 requests an hour: officers' tabs of other
	// businesses spend them (3 each) until none is left.
	for _, id := range []string{"1001", "1002", "1003", "1004", "1005"} {
		u.Get("/businesses/" + id + "/officers")
	}
	p := u.post("/alerts/rules", "scope", "business", "business", "1499", "score", "risk", "condition", "below", "threshold", "3")
	if p.Status != http.StatusUnprocessableEntity || !strings.Contains(p.Text(".form-error"), "no requests left") {
		t.Errorf("POST with the budget spent: status %d, message %q; want 422 saying it could not be checked", p.Status, p.Text(".form-error"))
	}
}

// TestEditRule: a rule's "Change" opens the form filled in from it; a
// refused change is 422 with what was typed; a right one is saved in
// place; without the token nothing changes; another analyst's is 404.
func TestEditRule(t *testing.T) {
	workspaceEngines(t, func(t *testing.T, opts apptest.Options) {
		app := apptest.Start(t, opts)
		u := signInWS(t, app, "demo")
		u.Get("/businesses/1002")
		mustRedirect(t, "add", u.post("/alerts/rules", "scope", "business", "business", "1002", "score", "dbt", "condition", "above", "threshold", "30"))
		alerts := u.Get("/alerts")
		edit, _ := alerts.Doc.Find("ul.rules a.edit-rule").Attr("href")
		if !strings.HasPrefix(edit, "/alerts/rules/") || !strings.HasSuffix(edit, "/edit") {
			t.Fatalf("Change link = %q", edit)
		}
		form := u.Get(edit)
		mustStatus(t, edit, form, http.StatusOK)
		if action, _ := form.Doc.Find("#rule-form").Attr("action"); action != edit {
			t.Errorf("the form posts to %q, want %q", action, edit)
		}
		for sel, want := range map[string]string{"#rule-business": "1002", "#rule-threshold": "30"} {
			if v, _ := form.Doc.Find(sel).Attr("value"); v != want {
				t.Errorf("%s = %q, want %q", sel, v, want)
			}
		}
		if v, _ := form.Doc.Find(`#rule-condition option[selected]`).Attr("value"); v != "above" {
			t.Errorf("condition = %q, want above", v)
		}

		bad := u.post(edit, "scope", "business", "business", "1002", "score", "dbt", "condition", "above", "threshold", "500")
		if bad.Status != http.StatusUnprocessableEntity || bad.Text(".form-error") == "" {
			t.Fatalf("threshold 500: status %d, message %q; want 422 with a message", bad.Status, bad.Text(".form-error"))
		}
		if v, _ := bad.Doc.Find("#rule-threshold").Attr("value"); v != "500" {
			t.Errorf("refused threshold shown as %q, want 500", v)
		}
		if action, _ := bad.Doc.Find("#rule-form").Attr("action"); action != edit {
			t.Errorf("the refused form posts to %q, want %q", action, edit)
		}
		if p := u.PostForm(edit, url.Values{"scope": {"business"}, "business": {"1002"}, "score": {"dbt"}, "condition": {"above"}, "threshold": {"20"}}); p.Status != http.StatusForbidden {
			t.Errorf("POST without the token: status %d, want 403", p.Status)
		}
		if rules := u.Get("/alerts").Text("ul.rules"); !strings.Contains(rules, "30") {
			t.Errorf("a refused change changed the rule: %q", rules)
		}

		mustRedirect(t, "edit", u.post(edit, "scope", "business", "business", "1002", "score", "dbt", "condition", "above", "threshold", "20"))
		after := u.Get("/alerts")
		if n := after.Doc.Find("ul.rules li").Length(); n != 1 {
			t.Errorf("%d rules after the change, want 1", n)
		}
		if rules := after.Text("ul.rules"); !strings.Contains(rules, "20") || strings.Contains(rules, "30") {
			t.Errorf("rules after the change = %q, want the threshold 20", rules)
		}
		if again, _ := after.Doc.Find("ul.rules a.edit-rule").Attr("href"); again != edit {
			t.Errorf("the rule's id changed: %q, was %q", again, edit)
		}

		other := signInWS(t, app, "developer")
		if p := other.Get(edit); p.Status != http.StatusNotFound {
			t.Errorf("GET another analyst's rule: status %d, want 404", p.Status)
		}
		if p := other.post(edit, "scope", "portfolio", "score", "pay", "condition", "below", "threshold", "3"); p.Status != http.StatusNotFound {
			t.Errorf("POST another analyst's rule: status %d, want 404", p.Status)
		}
	})
}
