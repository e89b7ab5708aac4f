package handlers_test

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"creditdash/internal/apptest"
	"creditdash/internal/roles"
	"creditdash/internal/store"
)

func TestWorkspaceWatchList(t *testing.T) {
	workspaceEngines(t, func(t *testing.T, opts apptest.Options) {
		app := apptest.Start(t, opts)
		u := signInWS(t, app, "demo")

		// Kept in the page cache before watching: it must not come back stale.
		u.Get("/businesses/1001/payments")
		report := u.Get("/businesses/1001")
		if report.Status != http.StatusOK {
			t.Fatalf("GET /businesses/1001: status = %d", report.Status)
		}
		if got := report.Text(".watch-form button"); got != "Watch" {
			t.Fatalf("report header button = %q, want Watch", got)
		}
		if to := mustRedirect(t, "watch", u.Submit(report, ".watch-form")); to != "/businesses/1001" {
			t.Errorf("watch returns to %q, want the report", to)
		}
		report = u.Get("/businesses/1001/payments")
		if got := report.Text(".watch-form button"); got != "Stop watching" {
			t.Errorf("payments tab after watching: button = %q, want Stop watching", got)
		}

		list := u.Get("/watchlist")
		if list.Status != http.StatusOK {
			t.Fatalf("GET /watchlist: status = %d", list.Status)
		}
		row := list.Text("table.watchlist tbody tr")
		if !strings.Contains(row, "Westbridge") {
			t.Errorf("watch list row = %q, want the business's name", row)
		}
		// Pay and Z″ come from the portfolio histories, Risk and DBT as
		// seen on the report opened above, each with zone words.
		if list.Doc.Find("table.watchlist tbody tr .badge").Length() != 4 {
			t.Errorf("watch list row = %q, want Risk, Pay, DBT and Z″ badges", row)
		}
		if href, _ := list.Doc.Find("table.watchlist tbody th a").Attr("href"); href != "/businesses/1001" {
			t.Errorf("watch list links to %q", href)
		}

		csv := u.Get("/watchlist.csv")
		if csv.Status != http.StatusOK || !strings.HasPrefix(csv.Header.Get("Content-Type"), "text/csv") ||
			!strings.HasPrefix(csv.Header.Get("Content-Disposition"), "attachment; filename=") {
			t.Errorf("GET /watchlist.csv: %d %q %q", csv.Status, csv.Header.Get("Content-Type"), csv.Header.Get("Content-Disposition"))
		}
		if !strings.HasPrefix(csv.Body, "business_id,name,watched_at\n1001,") {
			t.Errorf("watchlist.csv = %q", csv.Body)
		}

		mustRedirect(t, "unwatch", u.Submit(u.Get("/watchlist"), "table.watchlist form"))
		if n := u.Get("/watchlist").Doc.Find("table.watchlist tbody tr").Length(); n != 0 {
			t.Errorf("after unwatching: %d rows", n)
		}
		// A second click changes nothing and is no error.
		mustRedirect(t, "unwatch again", u.post("/businesses/1001/unwatch"))
	})
}

// A report addressed by a CustomerId offers the button for the service's
// id, which the header learns from IdentificationGroup.
func TestWorkspaceWatchByCustomerID(t *testing.T) {
	// trade, the demo's auditor, is an analyst here: an auditor is
	// offered no watch button.
	analysts, err := roles.Parse("TEAM_ROLES", "trade=analyst", 0)
	if err != nil {
		t.Fatal(err)
	}
	app := apptest.Start(t, apptest.Options{Roles: analysts})
	u := app.SignIn(t, "trade")
	tp := u.Get("/settings/trade-provider")
	action, fields, _ := tp.Form("form.trade-form")
	fields.Set("provider", "TP-1")
	mustRedirect(t, "choose provider", u.PostForm(action, fields))
	p := u.Get("/customers/C1-1001")
	if p.Status != http.StatusOK {
		t.Fatalf("GET /customers/C1-1001: %d", p.Status)
	}
	if action, _ := p.Doc.Find(".watch-form").Attr("action"); action != "/businesses/1001/watch" {
		t.Errorf("watch form posts to %q, want /businesses/1001/watch", action)
	}
}

func TestWorkspaceWatchBadInput(t *testing.T) {
	app := apptest.Start(t, apptest.Options{})
	u := signInWS(t, app, "demo")
	for _, path := range []string{"/businesses/abc/watch", "/businesses/-1/unwatch", "/businesses/99999999999/watch"} {
		p := u.post(path)
		if p.Status != http.StatusBadRequest || p.Text(".problem-page") == "" {
			t.Errorf("POST %s: status = %d, want 400 with a message", path, p.Status)
		}
	}
	// A full list is a message, not a 500.
	a := store.Analyst{Service: apptest.WorkspaceService, User: "demo"}
	for i := range store.MaxWatches {
		if err := app.Store.Watch(context.Background(), a, int32(500000+i), "x"); err != nil {
			t.Fatal(err)
		}
	}
	p := u.post("/businesses/1001/watch", "name", "Westbridge")
	if p.Status != http.StatusBadRequest || !strings.Contains(p.Text(".problem-page"), "at most 1,000") {
		t.Errorf("watching past the bound: %d %q", p.Status, p.Text(".problem-page"))
	}
}
