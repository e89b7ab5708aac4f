package handlers_test

import (
	"context"
	"net/http"
	"strings"
	"testing"

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
