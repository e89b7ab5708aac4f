package handlers_test

import (
	"net/http"
	"slices"
	"strings"
	"testing"

	"creditdash/internal/apptest"
	"creditdash/internal/store"
)

// Scenario business 1001's Risk falls from 7 to 2: a rule "Risk below 3"
// fires when its report is opened, once per month, with the old and new
// value, and the header counts it until it is read.
func TestWorkspaceAlertFiresOnFallingRisk(t *testing.T) {
	workspaceEngines(t, func(t *testing.T, opts apptest.Options) {
		app := apptest.Start(t, opts)
		u := signInWS(t, app, "demo")
		mustRedirect(t, "add rule", u.post("/alerts/rules", "scope", "business", "business", "1001",
			"score", "risk", "condition", "below", "threshold", "3"))
		mustRedirect(t, "add fall rule", u.post("/alerts/rules", "scope", "business", "business", "1001",
			"score", "risk", "condition", "fall", "threshold", "1"))
		p := u.Get("/alerts")
		if n := p.Doc.Find("ul.rules li").Length(); n != 2 {
			t.Fatalf("%d rules listed, want 2", n)
		}
		if p.Doc.Find("table.alerts").Length() != 0 || p.Text(".alerts-link") != "Alerts" {
			t.Fatal("an alert before any score data arrived")
		}
		report := u.Get("/businesses/1001")
		before := calls(app, "demo")
		if got := report.Text(".alerts-link .unread-count"); got != "1" {
			t.Errorf("header after the report: unread = %q, want 1 (body %.200s)", got, report.Text(".alerts-link"))
		}
		u.Get("/businesses/1001") // again: stored once, and the rules cost no call
		if extra := calls(app, "demo") - before; extra != 0 {
			t.Errorf("a second report view made %d calls, want 0", extra)
		}
		p = u.Get("/alerts")
		rows := p.Doc.Find("table.alerts tbody tr")
		if rows.Length() != 1 {
			t.Fatalf("%d alerts, want 1: %s", rows.Length(), p.Text("table.alerts"))
		}
		row := p.Text("table.alerts tbody tr")
		for _, want := range []string{"Westbridge", "Risk below 3", "Oct 2026", "2 severe", "Unread"} {
			if !strings.Contains(row, want) {
				t.Errorf("alert row %q lacks %q", row, want)
			}
		}
		if href, _ := rows.Find("th a").Attr("href"); href != "/businesses/1001" {
			t.Errorf("alert links to %q", href)
		}

		// Another analyst can neither read nor delete it.
		action, _ := rows.Find("form").Attr("action")
		ruleAction, _ := p.Doc.Find("ul.rules form").First().Attr("action")
		other := signInWS(t, app, "developer")
		for _, path := range []string{action, ruleAction, "/alerts/12345/read", "/alerts/rules/x/delete"} {
			if p := other.post(path); p.Status != http.StatusNotFound {
				t.Errorf("another analyst POST %s: status = %d, want 404", path, p.Status)
			}
		}
		if other.Get("/alerts").Doc.Find("table.alerts, ul.rules").Length() != 0 {
			t.Error("another analyst sees demo's rules or alerts")
		}

		mustRedirect(t, "read", u.post(action))
		p = u.Get("/alerts")
		if p.Text(".alerts-link .unread-count") != "" || !strings.Contains(p.Text("table.alerts"), "Read") {
			t.Errorf("after reading: header %q", p.Text(".alerts-link"))
		}
		mustRedirect(t, "read all", u.post("/alerts/read-all"))
		mustRedirect(t, "delete rule", u.post(ruleAction))
		if n := u.Get("/alerts").Doc.Find("ul.rules li").Length(); n != 1 {
			t.Errorf("after deleting a rule: %d rules, want 1", n)
		}
	})
}

// A report read while the analyst had no rules is checked again once a
// rule exists: the mark of an analyst without rules holds only until
// their next change.
func TestWorkspaceFirstRuleSeesReportsReadBefore(t *testing.T) {
	workspaceEngines(t, func(t *testing.T, opts apptest.Options) {
		app := apptest.Start(t, opts)
		u := signInWS(t, app, "demo")
		u.Get("/businesses/1001")
		u.Get("/businesses/1002") // another report of an analyst without rules
		mustRedirect(t, "add rule", u.post("/alerts/rules", "scope", "business", "business", "1001",
			"score", "risk", "condition", "below", "threshold", "3"))
		if got := u.Get("/businesses/1001").Text(".alerts-link .unread-count"); got != "1" {
			t.Errorf("the same report after the first rule: unread = %q, want 1", got)
		}
	})
}

// calls counts the requests a user made of the stand-in, sign-in aside.
func calls(app *apptest.App, user string) int {
	n := 0
	for path, c := range app.Sim.Requests()[user] {
		if path != "/v1/Users/Login" {
			n += c
		}
	}
	return n
}

// Portfolio rules run on the home page's Pay and Z″ histories.
func TestWorkspacePortfolioRuleOnHomePage(t *testing.T) {
	app := apptest.Start(t, apptest.Options{})
	u := signInWS(t, app, "demo")
	mustRedirect(t, "add rule", u.post("/alerts/rules", "scope", "portfolio", "score", "z", "condition", "below", "threshold", "1.1"))
	before := calls(app, "demo")
	u.Get("/")
	home := calls(app, "demo") - before
	if n := u.Get("/alerts").Doc.Find("table.alerts tbody tr").Length(); n == 0 {
		t.Error("no Z″ below 1.1 in the whole demo portfolio")
	}
	if home != 4 {
		t.Errorf("the home page made %d calls, want its own 4", home)
	}
}

func TestWorkspaceRuleBadInput(t *testing.T) {
	app := apptest.Start(t, apptest.Options{})
	u := signInWS(t, app, "demo")
	cases := []struct {
		name string
		kv   []string
		kept string
	}{
		{"threshold out of range", []string{"scope", "business", "business", "1001", "score", "risk", "condition", "below", "threshold", "99"}, "99"},
		{"threshold not a number", []string{"scope", "business", "business", "1001", "score", "pay", "condition", "above", "threshold", "<b>x</b>"}, "<b>x</b>"},
		{"bad business", []string{"scope", "business", "business", "abc", "score", "risk", "condition", "below", "threshold", "3"}, "3"},
		{"bad score", []string{"scope", "business", "business", "1001", "score", "nope", "condition", "below", "threshold", "3"}, "3"},
		{"bad condition", []string{"scope", "portfolio", "score", "risk", "condition", "sideways", "threshold", "3"}, "3"},
		{"bad scope", []string{"scope", "galaxy", "score", "risk", "condition", "below", "threshold", "3"}, "3"},
		{"hexadecimal threshold", []string{"scope", "portfolio", "score", "risk", "condition", "below", "threshold", "0x1p1"}, "0x1p1"},
		{"threshold in exponent form", []string{"scope", "portfolio", "score", "dbt", "condition", "above", "threshold", "6e1"}, "6e1"},
		{"threshold that is infinite", []string{"scope", "portfolio", "score", "z", "condition", "below", "threshold", "-Inf"}, "-Inf"},
	}
	for _, c := range cases {
		p := u.post("/alerts/rules", c.kv...)
		if p.Status != http.StatusUnprocessableEntity {
			t.Errorf("%s: status = %d, want 422", c.name, p.Status)
			continue
		}
		if p.Text(".rule-form .form-error") == "" {
			t.Errorf("%s: no message", c.name)
		}
		if v, _ := p.Doc.Find("#rule-threshold").Attr("value"); v != c.kept {
			t.Errorf("%s: threshold field = %q, want %q kept", c.name, v, c.kept)
		}
	}
	if n := u.Get("/alerts").Doc.Find("ul.rules li").Length(); n != 0 {
		t.Errorf("refused rules were stored: %d", n)
	}
}

// A threshold is read as people type one: spaces around it, a sign, a
// leading point.
func TestWorkspaceRuleThresholdAsTyped(t *testing.T) {
	app := apptest.Start(t, apptest.Options{})
	u := signInWS(t, app, "demo")
	for typed, want := range map[string]string{" 3 ": "Risk below 3", "+60": "DBT above 60", ".5\t": "Z″ below 0.5"} {
		score, cond := "risk", "below"
		switch {
		case strings.HasPrefix(want, "DBT"):
			score, cond = "dbt", "above"
		case strings.HasPrefix(want, "Z"):
			score = "z"
		}
		mustRedirect(t, "threshold "+typed, u.post("/alerts/rules", "scope", "portfolio", "score", score, "condition", cond, "threshold", typed))
		if rules := u.Get("/alerts").Text("ul.rules"); !strings.Contains(rules, want) {
			t.Errorf("threshold %q: rules %q lack %q", typed, rules, want)
		}
	}
}

// Rules judge a business's scores now: a report drawn over a past frame
// shows history, and its last month must not raise an alert.
func TestWorkspaceRulesIgnoreAPastFrame(t *testing.T) {
	app := apptest.Start(t, apptest.Options{})
	u := signInWS(t, app, "demo")
	mustRedirect(t, "add rule", u.post("/alerts/rules", "scope", "business", "business", "1005",
		"score", "risk", "condition", "below", "threshold", "10"))
	if p := u.Get("/businesses/1005?from=2025-01&to=2025-06"); p.Status != http.StatusOK {
		t.Fatalf("a past frame: status %d", p.Status)
	}
	if n := u.Get("/alerts").Doc.Find("table.alerts tbody tr").Length(); n != 0 {
		t.Errorf("after a past frame: %d alerts, want none", n)
	}
	u.Get("/businesses/1005")
	if n := u.Get("/alerts").Doc.Find("table.alerts tbody tr").Length(); n != 1 {
		t.Errorf("after the report now: %d alerts, want 1", n)
	}
}

// The store's refusals reach the form as sentences that name their field.
func TestWorkspaceRefusalsAreSentences(t *testing.T) {
	app := apptest.Start(t, apptest.Options{})
	u := signInWS(t, app, "demo")
	p := u.post("/alerts/rules", "scope", "business", "business", "1001", "score", "risk", "condition", "below", "threshold", "3.5")
	if got := p.Text(".rule-form .form-error"); got != "Risk scores are whole numbers." {
		t.Errorf("a fractional Risk threshold: message %q", got)
	}
	p = u.post("/businesses/1001/notes", "text", " ")
	if got := p.Text("#notes .form-error"); got != "A note cannot be empty." {
		t.Errorf("empty note: message %q", got)
	}
}

// A rule on a business read lately but not watched takes its name from
// the report's copy, without a service call.
func TestWorkspaceRuleNamesABusinessReadLately(t *testing.T) {
	app := apptest.Start(t, apptest.Options{})
	u := signInWS(t, app, "demo")
	if p := u.Get("/businesses/1005"); p.Status != http.StatusOK {
		t.Fatalf("report: status %d", p.Status)
	}
	name := apptest.DemoData().Businesses[4].Name
	before := calls(app, "demo")
	mustRedirect(t, "add rule", u.post("/alerts/rules", "scope", "business", "business", "1005",
		"score", "risk", "condition", "below", "threshold", "3"))
	if n := calls(app, "demo") - before; n != 0 {
		t.Errorf("adding the rule made %d service calls, want 0", n)
	}
	if rules := u.Get("/alerts").Text("main"); !strings.Contains(rules, "Risk below 3 on "+name) {
		t.Errorf("the rule is not named %q: %.300s", name, rules)
	}
}

// A business name longer than the store keeps, as the service may send,
// is cut for display: the alerts it fires, a dated copy of it and a rule on
// it are all kept, where the whole batch of alerts used to be refused.
func TestLongServiceNameIsCutNotRefused(t *testing.T) {
	base := apptest.DemoData()
	data := *base
	data.Businesses = slices.Clone(base.Businesses)
	data.Businesses[0].Name = strings.Repeat("Westbridge Holdings ", 16) // 1001, 320 characters
	app := apptest.Start(t, apptest.Options{Data: &data})
	u := signInWS(t, app, "demo")
	mustRedirect(t, "portfolio rule", u.post("/alerts/rules", "scope", "portfolio", "score", "pay", "condition", "below", "threshold", "10"))
	if n := u.Get("/").Text(".alerts-link .unread-count"); n == "" || n == "0" {
		t.Errorf("unread alerts after a portfolio rule that fires: %q, want some", n)
	}
	if p := u.Get("/alerts"); !strings.Contains(p.Text("table.alerts tbody"), "Westbridge Holdings Westbridge") {
		t.Errorf("no alert of the long-named business listed")
	}
	mustRedirect(t, "dated copy", u.post("/businesses/1001/snapshots", "tab", "officers"))
	mustRedirect(t, "rule on 1001", u.post("/alerts/rules", "scope", "business", "business", "1001", "score", "risk", "condition", "below", "threshold", "3"))
}

// "Mark all read" marks what the page showed: an alert that fired after
// it was drawn, in another tab, stays unread.
func TestWorkspaceMarkAllReadStopsAtThePageShown(t *testing.T) {
	app := apptest.Start(t, apptest.Options{})
	u := signInWS(t, app, "demo")
	for _, id := range []string{"1001", "1004"} {
		mustRedirect(t, "rule on "+id, u.post("/alerts/rules", "scope", "business", "business", id, "score", "risk", "condition", "below", "threshold", "3"))
	}
	u.Get("/businesses/1001")
	shown := u.Get("/alerts")
	if n := shown.Doc.Find("table.alerts tbody tr").Length(); n != 1 {
		t.Fatalf("setup: %d alerts shown, want 1", n)
	}
	u.Get("/businesses/1004") // another tab: a new alert fires
	mustRedirect(t, "mark all read", u.Submit(shown, `form[action="/alerts/read-all"]`))
	if got := u.Get("/alerts").Text(".alerts-link .unread-count"); got != "1" {
		t.Errorf("unread after marking the page's alerts read: %q, want 1 (the one fired since)", got)
	}
}

// Past the alerts listed, the page says older ones are not shown.
func TestWorkspaceAlertsListSaysWhenCut(t *testing.T) {
	app := apptest.Start(t, apptest.Options{})
	u := signInWS(t, app, "demo")
	mustRedirect(t, "rule", u.post("/alerts/rules", "scope", "portfolio", "score", "pay", "condition", "below", "threshold", "5"))
	a := store.Analyst{Service: apptest.WorkspaceService, User: "demo"}
	rules, err := app.Store.Rules(t.Context(), a)
	if err != nil || len(rules) != 1 {
		t.Fatal(err, len(rules))
	}
	var fired []store.Triggered
	for i := range 260 {
		fired = append(fired, store.Triggered{RuleID: rules[0].ID, BusinessID: int32(5000 + i), BusinessName: "B", Year: 2026, Month: 10, New: 2})
	}
	if _, err := app.Store.RecordAlerts(t.Context(), a, fired); err != nil {
		t.Fatal(err)
	}
	p := u.Get("/alerts")
	if rows := p.Doc.Find("table.alerts tbody tr").Length(); rows != 200 || !strings.Contains(p.Text(".notice"), "Only the newest 200 alerts are listed") {
		t.Errorf("%d rows, notice %q; want 200 and a word that older ones are not shown", rows, p.Text(".notice"))
	}
}
