package api_test

import (
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"creditdash/internal/api"
	"creditdash/internal/apptest"
	"creditdash/internal/roles"
	"creditdash/internal/store"
)

// auditText is the team's audit trail, newest first, one line an entry.
func auditText(t *testing.T, app *apptest.App) string {
	t.Helper()
	entries, _, err := app.Store.AuditEntries(t.Context(), apptest.WorkspaceService, store.AuditFilter{}, store.AuditPage{Size: 200})
	if err != nil {
		t.Fatal(err)
	}
	var lines []string
	for _, e := range entries {
		lines = append(lines, e.Actor+" "+e.Action+" "+e.OldValue+" -> "+e.NewValue+" / "+e.Reason)
	}
	return strings.Join(lines, "\n")
}

// TestTokenLife: a member makes a token on /settings/tokens, sees its
// secret once, uses it (its last use listed), writes with it (audited
// with the token), and revokes it, after which it opens nothing; an
// expired token opens nothing; a read token writes nothing; another
// member cannot revoke it; nothing but the token opens the API.
func TestTokenLife(t *testing.T) {
	engines(t, func(t *testing.T, app *apptest.App, clk *clock) {
		dev := signIn(t, app, "developer")
		secret := dev.makeToken("ERP nightly sync", "write", 30, clk.Now())
		list := dev.Get("/settings/tokens")
		if strings.Contains(list.Body, secret) || list.Doc.Find("#token-secret").Length() != 0 {
			t.Fatal("the secret is shown again after its creation")
		}
		row := list.Text("table.tokens tbody tr")
		if !strings.Contains(row, "ERP nightly sync") || !strings.Contains(row, "write") || !strings.Contains(row, secret[:8]+"…") ||
			list.Text(".token-last-use") != "never" || list.Text(".token-state") != "active" {
			t.Fatalf("the token is listed as %q", row)
		}
		if got, _ := app.Store.UseToken(t.Context(), apptest.WorkspaceService, api.HashSecret(secret)); got.User != "developer" {
			t.Fatalf("the store finds the token's hash as %+v", got)
		}

		// No token, a malformed one and an unknown one: 401 problems.
		for _, tok := range []string{"", "not-a-token", api.SecretPrefix + "unknown"} {
			a := get(t, app, tok, "/api/v1/accounts")
			if a.Status != http.StatusUnauthorized || !strings.HasPrefix(a.Header.Get("WWW-Authenticate"), "Bearer") {
				t.Errorf("token %q: %d, WWW-Authenticate %q", tok, a.Status, a.Header.Get("WWW-Authenticate"))
			}
			a.problem(t)
		}
		// A session cookie is no token.
		req, _ := http.NewRequest(http.MethodGet, app.URL+"/api/v1/accounts", nil)
		if p := dev.Do(req); p.Status != http.StatusUnauthorized {
			t.Errorf("signed in without a token: %d", p.Status)
		}

		var page api.AccountPage
		get(t, app, secret, "/api/v1/accounts").into(t, http.StatusOK, &page)
		if lu := dev.Get("/settings/tokens").Text(".token-last-use"); lu == "never" || !strings.Contains(lu, "UTC") {
			t.Errorf("last use after a use: %q", lu)
		}
		// A write: refused for an account the team lacks, but logged first
		// with the token that asked.
		a := postJSON(t, app, secret, "/api/v1/limit-requests", map[string]any{"account": "NONE", "amount": 10, "reason": "try"})
		if p := a.problem(t); a.Status != http.StatusUnprocessableEntity || len(p.Errors) != 1 || p.Errors[0].Field != "account" {
			t.Errorf("unknown account: %d %+v", a.Status, p)
		}
		// A read token writes nothing.
		reader := dev.makeToken("dashboards", "read", 30, clk.Now())
		a = postJSON(t, app, reader, "/api/v1/limit-requests", map[string]any{"account": "A-1", "amount": 10, "reason": "try"})
		if a.Status != http.StatusForbidden || !strings.Contains(a.problem(t).Detail, "may only read") {
			t.Errorf("a read token's write: %d %s", a.Status, a.Body)
		}
		// An auditor is offered no write token and refused one.
		aud := signIn(t, app, "trade")
		if p := aud.Get("/settings/tokens"); p.Doc.Find(`input[name="scope"][value="write"]`).Length() != 0 {
			t.Error("an auditor is offered a write token")
		}
		p := aud.post("/settings/tokens", "name", "audit tool", "scope", "write", "expires", clk.Now().AddDate(0, 0, 5).Format("2006-01-02"))
		if p.Status != http.StatusUnprocessableEntity || !strings.Contains(p.Text(".form-error"), "read only") ||
			p.Doc.Find("#token-secret").Length() != 0 {
			t.Errorf("an auditor's write token: %d %q", p.Status, p.Text(".form-error"))
		}
		if v, _ := p.Doc.Find("#token-name").Attr("value"); v != "audit tool" {
			t.Errorf("the refused form lost the name: %q", v)
		}
		// Another member cannot revoke it.
		id := strings.TrimPrefix(dev.Get("/settings/tokens").Doc.Find("table.tokens tbody tr").Last().AttrOr("id", ""), "token-")
		if _, err := strconv.ParseInt(id, 10, 64); err != nil {
			t.Fatalf("token row id %q", id)
		}
		if p := aud.post("/settings/tokens/" + id + "/revoke"); p.Status != http.StatusNotFound {
			t.Errorf("another member's revoke: %d", p.Status)
		}
		if a := get(t, app, secret, "/api/v1/alerts"); a.Status != http.StatusOK {
			t.Fatalf("after another's revoke: %d", a.Status)
		}
		// Revoked by its member: it opens nothing.
		if to := dev.post("/settings/tokens/" + id + "/revoke"); to.Status != http.StatusSeeOther {
			t.Fatalf("revoke: %d", to.Status)
		}
		a = get(t, app, secret, "/api/v1/alerts")
		if a.Status != http.StatusUnauthorized || !strings.Contains(a.problem(t).Detail, "revoked") {
			t.Errorf("a revoked token: %d %s", a.Status, a.Body)
		}
		if st := dev.Get("/settings/tokens").Doc.Find("#token-" + id + " .token-state").Text(); !strings.HasPrefix(st, "revoked") {
			t.Errorf("the revoked token's state: %q", st)
		}
		// Expired: the read token stops when its last day is over.
		clk.jump(32 * 24 * time.Hour)
		a = get(t, app, reader, "/api/v1/alerts")
		if a.Status != http.StatusUnauthorized || !strings.Contains(a.problem(t).Detail, "expired") {
			t.Errorf("an expired token: %d %s", a.Status, a.Body)
		}

		trail := auditText(t, app)
		for _, want := range []string{
			`developer token  -> created write token`, `"ERP nightly sync"`,
			`developer api-write  -> POST /api/v1/limit-requests / with token`,
			`-> revoked / revoked by its member`,
		} {
			if !strings.Contains(trail, want) {
				t.Errorf("the audit trail lacks %q:\n%s", want, trail)
			}
		}
	})
}

// TestTokenRateLimit: past its rate a token is answered 429 with
// Retry-After, as a problem; another token of the same member is not.
func TestTokenRateLimit(t *testing.T) {
	table, err := roles.Parse("test", teamRoles, 0)
	if err != nil {
		t.Fatal(err)
	}
	clk := &clock{}
	app := apptest.Start(t, apptest.Options{Roles: table, Now: clk.Now})
	dev := signIn(t, app, "developer")
	busy, other := dev.makeToken("busy", "read", 5, clk.Now()), dev.makeToken("other", "read", 5, clk.Now())
	limited := 0
	var a answer
	for i := range 400 {
		if a = get(t, app, busy, "/api/v1/alerts?limit=1"); a.Status == http.StatusTooManyRequests {
			limited = i
			break
		}
	}
	if limited < 300 {
		t.Fatalf("limited after %d requests (last %d), want at least 300", limited, a.Status)
	}
	if s, err := strconv.Atoi(a.Header.Get("Retry-After")); err != nil || s < 1 || s > 60 {
		t.Errorf("Retry-After = %q", a.Header.Get("Retry-After"))
	}
	a.problem(t)
	if a := get(t, app, other, "/api/v1/alerts?limit=1"); a.Status != http.StatusOK {
		t.Errorf("another token: %d", a.Status)
	}
	clk.jump(time.Minute)
	if a := get(t, app, busy, "/api/v1/alerts?limit=1"); a.Status != http.StatusOK {
		t.Errorf("a minute later: %d", a.Status)
	}
}
