package handlers_test

import (
	"strings"
	"testing"

	"creditdash/internal/apptest"
)

// TestOverviewOpensOnTheVerdict: the overview's first section is the four
// scores and, for a team account, its figures; explanations sit behind
// "What is this"; the summary follows.
func TestOverviewOpensOnTheVerdict(t *testing.T) {
	app := apptest.Start(t, apptest.Options{})
	u := signInAccounts(t, app, "demo")
	before := u.Get("/businesses/1001")
	if before.Doc.Find(".account-tile").Length() != 0 {
		t.Error("an account tile without a team account")
	}
	importLedger(t, u, "aging.csv", []byte(ledgerCSV), "2026-09-30")
	grantLimit(t, app, "A-1", 1000)
	page := signInAccounts(t, app, "ordinary").Get("/businesses/1001")
	first := page.Doc.Find("main section").First()
	if id, _ := first.Attr("id"); id != "scores" {
		t.Fatalf("the overview opens on #%s, want the scores", id)
	}
	tile := page.Text(".verdict .account-tile")
	if !strings.Contains(tile, "$1,500") || !strings.Contains(tile, "150.0% used") || !strings.Contains(tile, "over limit") ||
		!strings.Contains(tile, "Expected loss $105") {
		t.Errorf("account tile = %q; want $1,500 owed, 150%% of its limit, EL 1,500 × 6.995%%", tile)
	}
	if page.Doc.Find(".verdict .score-card details.explain .measures").Length() == 0 {
		t.Error("the explanations are not behind a disclosure")
	}
	if !strings.Contains(page.Text(".account-tile details"), "midpoint") {
		t.Error("the tile does not say PD is the band midpoint")
	}
}
