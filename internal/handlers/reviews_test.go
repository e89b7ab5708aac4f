package handlers_test

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"

	"creditdash/internal/apptest"
	"creditdash/internal/store"
)

// TestReviews: never reviewed is due now; a review is logged and moves
// the next date by the band's interval; a band drop since the last review
// brings it back to today with the reason; a bad outcome keeps what was
// typed (422); auditors may not review; accounts.csv and accounts.xlsx
// carry next_review.
func TestReviews(t *testing.T) {
	decisionApps(t, func(t *testing.T, app *apptest.App) {
		dev := signInAccounts(t, app, "developer")
		importLedger(t, dev, "aging.csv", []byte(ledgerCSV), "2026-09-30")
		dev.Get("/businesses/1001") // the team learns 1001's Risk band (2)
		p := dev.Get("/reviews")
		if p.Status != http.StatusOK || p.Doc.Find("#week tbody tr").Length() != 2 || !strings.Contains(p.Text("#week"), "never reviewed") {
			t.Fatalf("/reviews before any review: %d, %q", p.Status, p.Text("#week"))
		}
		bad := dev.post("/accounts/A-1/review", "outcome", "cancel", "note", "typed")
		if bad.Status != http.StatusUnprocessableEntity || bad.Text("#outcome-error") == "" || bad.Text("#note") != "typed" {
			t.Errorf("a bad outcome: %d, %q, note %q", bad.Status, bad.Text("#outcome-error"), bad.Text("#note"))
		}
		to := mustRedirect(t, "review", dev.post("/accounts/A-1/review", "outcome", "hold", "note", "Slower payments"))
		p = dev.Get(to)
		if !strings.Contains(p.Text(".flash"), "Review of account A-1 recorded") || !strings.Contains(p.Text("#upcoming"), "Risk band 2: every 30 days") ||
			!strings.Contains(p.Text("#upcoming"), "hold by developer") {
			t.Errorf("after the review: flash %q, upcoming %q", p.Text(".flash"), p.Text("#upcoming"))
		}
		row := dev.Get("/audit?action=review").Text("table.audit tbody tr")
		if !strings.Contains(row, "A-1") || !strings.Contains(row, "hold") || !strings.Contains(row, "Slower payments") {
			t.Errorf("review logged as %q", row)
		}
		// A review when the account stood in band 8: band 2 now is a drop.
		_, err := app.Store.RecordReview(context.Background(), store.Analyst{Service: apptest.WorkspaceService, User: "demo"},
			store.Review{Account: "A-1", Outcome: "keep", Band: 8})
		if err != nil {
			t.Fatal(err)
		}
		if week := dev.Get("/reviews").Text("#week"); !strings.Contains(week, "Risk band dropped from 8 to 2 since the last review") {
			t.Errorf("a band drop does not bring the review to today: %q", week)
		}
		if p := signInAccounts(t, app, "trade").post("/accounts/A-1/review", "outcome", "keep"); p.Status != http.StatusForbidden {
			t.Errorf("an auditor reviewing: %d", p.Status)
		}
		if p := dev.Get("/accounts/NOPE/review"); p.Status != http.StatusNotFound {
			t.Errorf("no such account: %d", p.Status)
		}
		lines := strings.Split(strings.TrimSpace(dev.Get("/accounts.csv").Body), "\n")
		for _, l := range lines[1:] {
			cells := strings.Split(l, ",")
			if len(cells) < 17 || len(cells[len(cells)-2]) != len("2026-11-27") {
				t.Errorf("next_review not filled: %q", l)
			}
		}
		wantXLSXColumn(t, dev.Get("/accounts.xlsx").Body, "next_review", func(v string) bool { return len(v) == len("2026-11-27") })
	})
}

// TestReviewsPaged: a list longer than a page is shown a page at a time,
// in the same order on every request (no account twice, none skipped),
// with pager links that stay on /reviews whatever the address held.
func TestReviewsPaged(t *testing.T) {
	app := apptest.Start(t, apptest.Options{})
	u := signInAccounts(t, app, "demo")
	const n = 2*50 + 7 // more than two pages of never-reviewed accounts, due this week
	var ledger strings.Builder
	ledger.WriteString("Customer No.;Name;Total Due;Current;1-30;Credit Limit;Terms\n")
	for i := range n {
		fmt.Fprintf(&ledger, "R-%03d;Customer %d;1.500,00;1.000,00;500,00;2.000,00;Net 30\n", n-i, i)
	}
	importLedger(t, u, "aging.csv", []byte(ledger.String()), "2026-09-30")
	seen := map[string]bool{}
	var order []string
	next := "/reviews?next=//evil.example&week=1"
	for pages := 0; next != ""; pages++ {
		if pages > 3 {
			t.Fatalf("more than 3 pages of %d rows", n)
		}
		p := u.Get(next)
		rows := p.Doc.Find("#week tbody tr")
		if p.Status != http.StatusOK || rows.Length() == 0 || rows.Length() > 50 {
			t.Fatalf("GET %s: status %d, %d rows, want 1–50", next, p.Status, rows.Length())
		}
		rows.Each(func(_ int, r *goquery.Selection) {
			a := strings.TrimSpace(r.Find("td").First().Text())
			if seen[a] {
				t.Errorf("GET %s: account %s shown again", next, a)
			}
			seen[a] = true
			order = append(order, a)
		})
		next, _ = p.Doc.Find(`#week nav.pager a:contains("Next")`).Attr("href")
		if next != "" && (!strings.HasPrefix(next, "/reviews") || strings.Contains(next, "evil")) {
			t.Fatalf("pager link %q", next)
		}
	}
	if len(seen) != n || !slices.IsSorted(order) {
		t.Errorf("%d accounts over the pages (want %d), in order %v", len(seen), n, slices.IsSorted(order))
	}
	if last := u.Get("/reviews?week=99"); last.Status != http.StatusOK || last.Doc.Find("#week tbody tr").Length() != 0 ||
		!strings.Contains(last.Text("#week nav.pager"), "no rows of 107") {
		t.Errorf("past the last page: %d, %q", last.Status, last.Text("#week nav.pager"))
	}
}
