package handlers_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"

	"creditdash/internal/apptest"
	"creditdash/internal/roles"
	"creditdash/internal/store/storetest"
)

// teamApps runs fn on SQLite and PostgreSQL with a team bootstrapped from
// TEAM_ROLES: two admins, an analyst and an auditor.
func teamApps(t *testing.T, fn func(t *testing.T, app *apptest.App)) {
	table, err := roles.Parse("TEAM_ROLES", "demo=admin:250000,ordinary=admin:100000,developer=analyst:10000,trade=auditor", 0)
	if err != nil {
		t.Fatal(err)
	}
	t.Run("sqlite", func(t *testing.T) { fn(t, apptest.Start(t, apptest.Options{Roles: table})) })
	t.Run("postgres", func(t *testing.T) {
		fn(t, apptest.Start(t, apptest.Options{Roles: table, DatabaseURL: storetest.Database(t)}))
	})
}

// memberRow is a member's row on /team as text.
func memberRow(p *apptest.Page, name string) string {
	row := ""
	p.Doc.Find("table.team-members tbody tr").Each(func(_ int, r *goquery.Selection) {
		if strings.TrimSpace(r.Find("td").First().Text()) == name {
			var cells []string
			r.Find("td").Each(func(_ int, td *goquery.Selection) { cells = append(cells, strings.TrimSpace(td.Text())) })
			row = strings.Join(cells, " ")
		}
	})
	return row
}

// TestTeamFourEyesOnAuthority: /team lists the members bootstrapped from
// TEAM_ROLES; an admin's raise of an analyst's authority waits, its
// proposer cannot approve it, an analyst cannot, a second admin can; the
// raised authority is then what a limit request is checked against; a
// lowering is at once; every step is in the audit trail.
func TestTeamFourEyesOnAuthority(t *testing.T) {
	teamApps(t, func(t *testing.T, app *apptest.App) {
		demo := signInAccounts(t, app, "demo")
		p := demo.Get("/team")
		mustStatus(t, "/team", p, http.StatusOK)
		if row := memberRow(p, "developer"); !strings.Contains(row, "analyst $10,000") || !strings.Contains(row, "by config") {
			t.Errorf("developer's row = %q", row)
		}
		if row := memberRow(p, "trade"); !strings.Contains(row, "auditor none") {
			t.Errorf("trade's row = %q", row)
		}
		if p.Doc.Find("#member-form").Length() != 1 {
			t.Error("an admin is not offered the member form")
		}
		importLedger(t, demo, "aging.csv", []byte(ledgerCSV), "2026-09-30")

		// A bad authority comes back with what was typed.
		bad := demo.post("/team/members", "name", "developer", "role", "analyst", "authority", "12,5", "reason", "more room")
		if bad.Status != http.StatusUnprocessableEntity || !strings.Contains(bad.Text("#member-error"), "ambiguous") {
			t.Errorf("authority 12,5: %d %q", bad.Status, bad.Text("#member-error"))
		}
		if v, _ := bad.Doc.Find("#member-authority").Attr("value"); v != "12,5" {
			t.Errorf("the authority typed is not kept: %q", v)
		}

		// The raise waits.
		if to := mustRedirect(t, "raise", demo.post("/team/members", "name", "developer", "role", "analyst", "authority", "50,000",
			"reason", "Runs the northern accounts")); to != "/team?done=pending" {
			t.Errorf("the raise lands on %q", to)
		}
		p = demo.Get("/team")
		if row := memberRow(p, "developer"); !strings.Contains(row, "$10,000") {
			t.Errorf("developer before the approval: %q", row)
		}
		pending := p.Doc.Find(".team-pending li")
		if pending.Length() != 1 || !strings.Contains(pending.Text(), "it raises the authority") {
			t.Fatalf("pending = %q", pending.Text())
		}
		approve, _ := pending.Find(`form[action$="/approve"]`).Attr("action")
		if approve != "" {
			t.Errorf("the proposer is offered the approval: %q", approve)
		}
		decline, _ := pending.Find(`form[action$="/decline"]`).Attr("action")
		approve = strings.TrimSuffix(decline, "/decline") + "/approve"

		wantRefused(t, "the proposer approving", demo.post(approve), "another admin approves it")
		dev := signInAccounts(t, app, "developer")
		wantRefused(t, "an analyst approving", dev.post(approve), "Only the team's admins add and change members")
		// Not yet raised: 40,000 waits for a manager.
		if to := mustRedirect(t, "request", dev.post("/businesses/1001/limit-requests", "account", "A-1", "amount", "40,000", "reason", "Orders doubled")); !strings.HasPrefix(dev.Get(to).Text("#status"), "Waiting") {
			t.Errorf("a request above the old authority: status %q", dev.Get(to).Text("#status"))
		}

		ord := signInAccounts(t, app, "ordinary")
		if to := mustRedirect(t, "second admin", ord.post(approve, "note", "agreed at the committee")); to != "/team?done=approved" {
			t.Errorf("the approval lands on %q", to)
		}
		p = ord.Get("/team?done=approved")
		if row := memberRow(p, "developer"); !strings.Contains(row, "$50,000") || !strings.Contains(row, "by ordinary") {
			t.Errorf("developer after the approval: %q", row)
		}
		if !strings.Contains(p.Text(".notice"), "Approved") {
			t.Errorf("no word of the approval: %q", p.Text(".notice"))
		}
		// The raised authority is the one checked now.
		if to := mustRedirect(t, "request", dev.post("/businesses/1002/limit-requests", "account", "A-2", "amount", "40,000", "reason", "Orders doubled")); dev.Get(to).Text("#status") != "Approved" {
			t.Errorf("a request within the raised authority: status %q", dev.Get(to).Text("#status"))
		}
		// A lowering is at once.
		if to := mustRedirect(t, "lower", ord.post("/team/members", "name", "developer", "role", "analyst", "authority", "5000",
			"reason", "Back to the usual")); to != "/team?done=applied" {
			t.Errorf("the lowering lands on %q", to)
		}
		// Making someone an admin waits too, and a non-member may be added.
		mustRedirect(t, "new admin", ord.post("/team/members", "name", "erin", "role", "admin", "authority", "0", "reason", "Runs the team's tools"))
		if p := ord.Get("/team"); !strings.Contains(p.Text(".team-pending"), "it makes them admin") {
			t.Errorf("a new admin does not wait: %q", p.Text(".team-pending"))
		}

		audit := demo.Get("/audit").Text("table.audit")
		for _, want := range []string{"member-proposal", "developer=analyst:10000", "developer=analyst:50000", "member-approve",
			"agreed at the committee", "refused", "bootstrapped the empty team from TEAM_ROLES"} {
			if !strings.Contains(audit, want) {
				t.Errorf("the audit trail lacks %q", want)
			}
		}
		if p := dev.Get("/team"); p.Status != http.StatusOK || p.Doc.Find("#member-form").Length() != 0 ||
			!strings.Contains(p.Text("main"), "Only the team's admins add and change members (demo, ordinary)") {
			t.Errorf("an analyst's /team: %d, form %d", p.Status, p.Doc.Find("#member-form").Length())
		}
	})
}

// TestOwnersMustBeMembers: an owner typed who is not a member is refused
// (422) with the members named and what was typed kept, on the account's
// page, the worklist and the new account form; once added, they may own.
func TestOwnersMustBeMembers(t *testing.T) {
	teamApps(t, func(t *testing.T, app *apptest.App) {
		demo := signInAccounts(t, app, "demo")
		importLedger(t, demo, "aging.csv", []byte(ledgerCSV), "2026-09-30")
		one := demo.post("/accounts/A-1/owner", "owner", "developr")
		if one.Status != http.StatusUnprocessableEntity {
			t.Fatalf("owner developr: status %d", one.Status)
		}
		if msg := one.Text("#owner-error"); !strings.Contains(msg, "developr is not a member") || !strings.Contains(msg, "demo, developer, ordinary, trade") {
			t.Errorf("the refusal = %q", msg)
		}
		if v, _ := one.Doc.Find("#owner-name").Attr("value"); v != "developr" {
			t.Errorf("what was typed is not kept: %q", v)
		}
		bulk := demo.post("/worklist/owner", "account", "A-1", "owner", "developr", "return", "/worklist")
		if bulk.Status != http.StatusUnprocessableEntity || !strings.Contains(bulk.Text("#bulk-owner-error"), "not a member") {
			t.Errorf("bulk owner developr: %d %q", bulk.Status, bulk.Text("#bulk-owner-error"))
		}
		if v, _ := bulk.Doc.Find("#bulk-owner").Attr("value"); v != "developr" {
			t.Errorf("bulk: what was typed is not kept: %q", v)
		}
		add := demo.post("/accounts/new", "account", "N-1", "name", "Northwind", "business_id", "1003", "owner", "developr", "reason", "new customer")
		if add.Status != http.StatusUnprocessableEntity || !strings.Contains(add.Text("main"), "developr is not a member") {
			t.Errorf("a new account owned by developr: %d", add.Status)
		}
		if rows := demo.Get("/audit?action=owner").Doc.Find("table.audit tbody tr").Length(); rows != 0 {
			t.Errorf("a refused owner was logged as assigned: %d rows", rows)
		}
		mustRedirect(t, "add erin", demo.post("/team/members", "name", "erin", "role", "analyst", "reason", "joined the team"))
		mustRedirect(t, "owner erin", demo.post("/accounts/A-1/owner", "owner", "erin"))
		mustRedirect(t, "owner developer", demo.post("/worklist/owner", "account", "A-2", "owner", "developer", "return", "/worklist"))
	})
}
