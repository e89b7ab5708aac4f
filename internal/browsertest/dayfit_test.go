package browsertest

import (
	"context"
	"net/http"
	"strconv"
	"strings"
	"testing"

	"creditdash/internal/apptest"
	"creditdash/internal/store"
)

// TestAnalystDayPagesFit: the pages of an analyst's day (home, the import
// preview, accounts, the exposure bridge, the back-test summary,
// decisions, a request, the worklist, reviews, the
// refresh plan, alerts, the digest's preview and settings, validation,
// the ERP export and the credit memo, each with the header) are never
// wider than the screen, on a 390 px phone and in a 1366 px laptop window,
// where the header of an analyst with an hourly budget (developer) keeps
// to one row; the accounts' first column stays in view (sticky)
// while their figures scroll, and at 1366 px the columns an analyst sees
// before choosing any fit without scrolling sideways. Choosing every
// column through the page's chooser (a plain form post) widens the table,
// which then scrolls inside its region, never the page.
func TestAnalystDayPagesFit(t *testing.T) {
	app := apptest.Start(t, apptest.Options{})
	b := Start(t)
	b.Navigate(app.URL + "/login?next=%2Faccounts%2Fimport")
	if status := signIn(t, b, "developer"); status != http.StatusOK || b.URL() != app.URL+"/accounts/import" {
		t.Fatalf("sign in as developer: status %d at %s", status, b.URL())
	}
	fits := func(what string) {
		t.Helper()
		l := Eval[layoutReport](b, pageLayout)
		if l.ScrollWidth > l.InnerWidth {
			t.Errorf("%s at %d px: the page is %d px wide; too wide: %s", what, l.InnerWidth, l.ScrollWidth, strings.Join(l.Wide, ", "))
		}
	}
	widths := []struct {
		w, h   int64
		mobile bool
	}{{phoneWidth, phoneHeight, true}, {1366, 768, false}}
	for i, sample := range []string{"demo-ledger-3-months-earlier.csv", "demo-ledger-current.csv"} {
		b.Navigate(app.URL + "/accounts/import")
		if status := b.ClickNavigate(`button[name="sample"][value="` + sample + `"]`); status != http.StatusOK {
			t.Fatalf("sample %s preview: status %d", sample, status)
		}
		if i == 1 {
			for _, w := range widths {
				setViewport(b, w.w, w.h, w.mobile)
				fits("the import preview")
			}
			setViewport(b, desktopWidth, desktopHeight, false)
		}
		if status := b.ClickNavigate(".import-confirm button[type=submit]"); status != http.StatusOK {
			t.Fatalf("sample %s import: status %d", sample, status)
		}
	}
	// As in a day's work, the team knows an account's scores (Westbridge's
	// report, business 1001, read once): its Risk band, PD and expected
	// loss fill their columns.
	if status := b.Navigate(app.URL + "/businesses/1001"); status != http.StatusOK {
		t.Fatalf("GET /businesses/1001: status %d", status)
	}
	accts, err := app.Store.Accounts(context.Background(), store.Analyst{Service: apptest.WorkspaceService, User: "demo"}, "")
	if err != nil || len(accts) == 0 {
		t.Fatalf("accounts: %d, %v", len(accts), err)
	}
	r, err := app.Store.RequestLimit(context.Background(), store.Analyst{Service: apptest.WorkspaceService, User: "demo"},
		store.RequestSpec{Account: accts[0].Account, Amount: 1e9, Reason: "A new supply contract for the whole region", Authority: 0})
	if err != nil {
		t.Fatal(err)
	}
	id := strconv.FormatInt(r.ID, 10)
	pages := []string{"/", "/accounts", "/portfolio/exposure", "/alerts/backtest?scope=portfolio&score=pay&condition=below&threshold=5&months=12",
		"/decisions", "/decisions/" + id, "/worklist", "/reviews", "/refresh-plan", "/alerts", "/digest/preview",
		"/settings/digest", "/policy/validation", "/limits/export", "/decisions/" + id + "/memo"}
	for _, w := range widths {
		setViewport(b, w.w, w.h, w.mobile)
		for _, path := range pages {
			if status := b.Navigate(app.URL + path); status != http.StatusOK {
				t.Errorf("GET %s: status %d", path, status)
				continue
			}
			fits(path)
			if w.w == 1366 && !Eval[bool](b, headerOneRow) {
				t.Errorf("%s at 1366 px: the header wraps to a second row", path)
			}
			if path == "/accounts" {
				a := Eval[accountsFit](b, accountsLayout)
				if a.Position != "sticky" {
					t.Errorf("/accounts at %d px: the first column is %q, want sticky", w.w, a.Position)
				}
				if w.w == 1366 && a.TableWidth > a.RegionWidth {
					t.Errorf("/accounts at 1366 px: the default columns need %d px, the page has %d", a.TableWidth, a.RegionWidth)
				}
				t.Logf("/accounts at %d px: the default columns take %d px of the %d px shown", w.w, a.TableWidth, a.RegionWidth)
			}
		}
	}
	setViewport(b, 1366, 768, false)
	b.Navigate(app.URL + "/accounts")
	b.Click("#columns summary")
	for range Eval[int](b, `document.querySelectorAll('#columns input[name="col"]:not(:checked)').length`) {
		b.Click(`#columns input[name="col"]:not(:checked)`)
	}
	if status := b.ClickNavigate(`#columns button[type=submit]:not([name])`); status != http.StatusOK {
		t.Fatalf("choosing every column: status %d", status)
	}
	if n := Eval[int](b, `document.querySelectorAll('table.accounts thead th').length`); n != 15 {
		t.Errorf("after choosing every column: %d heads, want 15", n)
	}
	a := Eval[accountsFit](b, accountsLayout)
	t.Logf("/accounts at 1366 px with every column: %d px of %d", a.TableWidth, a.RegionWidth)
	fits("/accounts with every column")
	b.NoConsoleErrors(t)
	b.NoCSPViolations(t)
}

// accountsFit is what accountsLayout measures of the accounts table: its
// first column's position, the width its scroll region scrolls over (the
// table's, names wrapped) and the width the region shows.
type accountsFit struct {
	Position                string
	TableWidth, RegionWidth int
}

// accountsLayout measures the accounts table.
const accountsLayout = `(() => {
	const first = document.querySelector('table.accounts tbody th[scope="row"]');
	const table = document.querySelector('table.accounts');
	return {Position: getComputedStyle(first).position, TableWidth: table.parentElement.scrollWidth,
		RegionWidth: table.parentElement.clientWidth};
})()`
