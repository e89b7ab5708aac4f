package handlers_test

import (
	"net/http"
	"testing"

	"creditdash/internal/apptest"
	"creditdash/internal/store"
)

// TestPortfolioScoresKnownToTheTeam: the Pay and Z″ histories that the
// scores page and the home page receive are kept as the team's latest
// known scores (month and time fetched) for linked businesses, once per
// cached copy, and the accounts page shows them to another analyst.
func TestPortfolioScoresKnownToTheTeam(t *testing.T) {
	workspaceEngines(t, func(t *testing.T, opts apptest.Options) {
		app := apptest.Start(t, opts)
		u := signInAccounts(t, app, "demo")
		importLedger(t, u, "aging.csv", []byte(ledgerCSV), "2026-09-30")
		known := func() map[int32]map[store.Score]store.KnownScore {
			t.Helper()
			k, err := app.Store.KnownScores(t.Context(), team)
			if err != nil {
				t.Fatal(err)
			}
			return k
		}
		if k := known(); len(k) != 0 {
			t.Fatalf("setup: known scores before any page: %v", k)
		}
		if p := u.Get("/portfolio/scores?score=pay&size=100"); p.Status != http.StatusOK {
			t.Fatalf("/portfolio/scores: status %d", p.Status)
		}
		pay, ok := known()[1001][store.ScorePay]
		if !ok || pay.Month < 200001 || pay.Fetched.IsZero() {
			t.Fatalf("1001's Pay after the scores page = %+v (%v), want the latest month and its time", pay, ok)
		}
		if _, ok := known()[1001][store.ScoreZ]; ok {
			t.Error("a Z″ score was kept from a page that received only Pay")
		}
		v, err := app.Store.TeamVersion(t.Context(), team)
		if err != nil {
			t.Fatal(err)
		}
		u.Get("/portfolio/scores?score=pay&size=100") // the same copy again
		if again, _ := app.Store.TeamVersion(t.Context(), team); again != v {
			t.Errorf("the same copy again moved the team's version from %d to %d", v, again)
		}
		if p := u.Get("/portfolio/scores?score=z&size=100"); p.Status != http.StatusOK {
			t.Fatalf("/portfolio/scores?score=z: status %d", p.Status)
		}
		if z, ok := known()[1001][store.ScoreZ]; !ok || z.Month < 200001 {
			t.Errorf("1001's Z″ after the Z″ scores page = %+v (%v)", z, ok)
		}
		for id := range known() {
			if id != 1001 && id != 1002 {
				t.Errorf("business %d, linked to no account, has known scores", id)
			}
		}
	})
}

// TestHomePageScoresKnownToTheTeam: the home page's portfolio histories
// are kept too, both scores at once.
func TestHomePageScoresKnownToTheTeam(t *testing.T) {
	app := apptest.Start(t, apptest.Options{})
	u := signInAccounts(t, app, "demo")
	importLedger(t, u, "aging.csv", []byte(ledgerCSV), "2026-09-30")
	if p := u.Get("/"); p.Status != http.StatusOK {
		t.Fatalf("/: status %d", p.Status)
	}
	k, err := app.Store.KnownScores(t.Context(), team)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := k[1001][store.ScorePay]; !ok {
		t.Errorf("1001's known scores after the home page = %v, want Pay", k[1001])
	}
	if _, ok := k[1001][store.ScoreZ]; !ok {
		t.Errorf("1001's known scores after the home page = %v, want Z″", k[1001])
	}
}
