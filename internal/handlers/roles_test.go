package handlers_test

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/labstack/echo/v5"

	"creditdash/internal/api"
	"creditdash/internal/apptest"
	"creditdash/internal/roles"
	"creditdash/internal/store"
)

// postsAnyoneMay are the POST routes an auditor may use: signing in and
// out, the three that only read (see postActions in roles.go), a digest
// mail's two links, which need no sign-in: their signed token names whose
// digest they change, their own API tokens (read ones only: see
// TestTokenLife in internal/api), and the public pages of credit
// applications (internal/apply), whose signed links are a stranger's.
var postsAnyoneMay = map[string]bool{
	"/login": true, "/login/verify": true, "/logout": true,
	"/refresh": true, "/settings/trade-provider": true, "/accounts/columns": true,
	"/digest/verify": true, "/digest/unsubscribe": true,
	"/settings/tokens": true, "/settings/tokens/:id/revoke": true,
	"/apply/:token": true, "/reference/:token": true,
}

// An auditor is refused every state-changing route of the router, each
// with a 403 page naming the rule, and nothing is written.
func TestRolesAuditorRefusedEverywhere(t *testing.T) {
	app := apptest.Start(t, apptest.Options{})
	trade := signInWS(t, app, "trade") // an auditor in the demo roles
	checked := 0
	for _, r := range app.Handler.(*echo.Echo).Router().Routes() {
		if r.Method == http.MethodGet || r.Method == http.MethodHead || postsAnyoneMay[r.Path] {
			continue
		}
		if strings.HasPrefix(r.Path, api.Prefix+"/") {
			continue // tokens, not sessions: internal/api's tests refuse auditors there
		}
		path := r.Path
		for _, p := range r.Parameters {
			path = strings.Replace(path, ":"+p, "1001", 1)
		}
		p := trade.post(path, "text", "a note", "confirm", "DELETE", "score", "risk", "condition", "below",
			"threshold", "5", "scope", "business", "business", "1001", "name", "Westbridge", "tab", "overview")
		checked++
		if p.Status != http.StatusForbidden {
			t.Errorf("%s %s as an auditor: status = %d, want 403", r.Method, path, p.Status)
			continue
		}
		msg := p.Text(".problem-page")
		if !strings.Contains(msg, "Auditors read everything of the team and change nothing") || !strings.Contains(msg, "trade, an auditor") {
			t.Errorf("%s %s: the page does not name the rule: %q", r.Method, path, msg)
		}
	}
	// The workspace's forms at least: watch, notes, rules, alerts, copies,
	// deleting everything.
	if checked < 12 {
		t.Errorf("only %d state-changing routes checked", checked)
	}
	a := store.Analyst{Service: apptest.WorkspaceService, User: "trade"}
	if w, _ := app.Store.WatchList(context.Background(), a); len(w) != 0 {
		t.Errorf("the auditor's refused watch was stored: %v", w)
	}
	if n, _ := app.Store.AllNotes(context.Background(), a); len(n) != 0 {
		t.Errorf("the auditor's refused note was stored: %v", n)
	}
	if !app.Logs.Contains("refused by role") {
		t.Error("refusals are not logged")
	}
}

// An auditor reads every page, the team's log included, may refresh a
// page and choose a trade provider (reads), and signs out.
func TestRolesAuditorReadsAndSignsOut(t *testing.T) {
	app := apptest.Start(t, apptest.Options{})
	trade := signInWS(t, app, "trade")
	for _, path := range []string{"/", "/watchlist", "/alerts", "/snapshots", "/settings/workspace", "/audit", "/audit/verify", "/settings/trade-provider"} {
		if p := trade.Get(path); p.Status != http.StatusOK {
			t.Errorf("GET %s as an auditor: status = %d, want 200", path, p.Status)
		}
	}
	if p := trade.Get("/audit.csv"); p.Status != http.StatusOK {
		t.Errorf("GET /audit.csv as an auditor: status = %d", p.Status)
	}
	p := trade.Get("/")
	if role := p.Text("header .account .role"); role != "auditor" {
		t.Errorf("the header shows role %q, want auditor", role)
	}
	mustRedirect(t, "choose a trade provider", trade.post("/settings/trade-provider", "provider", "TP-1"))
	mustRedirect(t, "refresh", trade.post("/refresh", "page", "/"))
	if loc := mustRedirect(t, "sign out", trade.post("/logout")); !strings.HasPrefix(loc, "/login") {
		t.Errorf("sign-out goes to %q", loc)
	}
	if p := trade.Get("/"); p.Status != http.StatusSeeOther {
		t.Errorf("after signing out, GET / = %d, want 303 to sign in", p.Status)
	}
}

// Analysts and admins work as before, and see their role.
func TestRolesAnalystAndManagerUnaffected(t *testing.T) {
	app := apptest.Start(t, apptest.Options{})
	for user, role := range map[string]string{"ordinary": "analyst", "demo": "admin", "developer": "analyst"} {
		u := signInWS(t, app, user)
		if got := u.Get("/watchlist").Text("header .account .role"); got != role {
			t.Errorf("%s: the header shows %q, want %s", user, got, role)
		}
		mustRedirect(t, user+" watch", u.post("/businesses/1001/watch", "name", "Westbridge"))
		mustRedirect(t, user+" note", u.post("/businesses/1001/notes", "text", "Asked for statements."))
		mustRedirect(t, user+" delete workspace", u.post("/settings/workspace", "confirm", "DELETE"))
	}
}

// An empty team is bootstrapped from the configuration: here ordinary is
// the auditor; the members added are in the team's log, by "config".
func TestRolesFromConfiguration(t *testing.T) {
	tab, err := roles.Parse("TEAM_ROLES", "ordinary=auditor,trade=analyst:100", 0)
	if err != nil {
		t.Fatal(err)
	}
	app := apptest.Start(t, apptest.Options{Roles: tab})
	ordinary := signInWS(t, app, "ordinary")
	if p := ordinary.post("/businesses/1001/watch"); p.Status != http.StatusForbidden {
		t.Errorf("ordinary, configured an auditor: watch = %d, want 403", p.Status)
	}
	trade := signInWS(t, app, "trade")
	mustRedirect(t, "trade, configured an analyst", trade.post("/businesses/1001/watch"))
	p := trade.Get("/audit?action=member")
	if p.Status != http.StatusOK {
		t.Fatalf("GET /audit?action=member: %d", p.Status)
	}
	text := p.Text("table.audit")
	for _, want := range []string{"ordinary=auditor", "trade=analyst:100", "bootstrapped the empty team from TEAM_ROLES", "config"} {
		if !strings.Contains(text, want) {
			t.Errorf("the log's role entries lack %q: %s", want, text)
		}
	}
}
