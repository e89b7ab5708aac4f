package handlers_test

import (
	"strings"
	"testing"

	"creditdash/internal/apptest"
)

// TestWarmReportFollowsTeamWritesOnAnotherReplica: a report keeps its
// account tile and its "no account linked" mark under the team's version,
// so warm reports ask the store one question; a ledger imported through
// another replica moves the version, and the next report shows the tile
// and records the business's scores for the team at once.
func TestWarmReportFollowsTeamWritesOnAnotherReplica(t *testing.T) {
	workspaceEngines(t, func(t *testing.T, opts apptest.Options) {
		a, b := twoReplicas(t, opts)
		u := signInAccounts(t, a, "demo")
		onB := u.On(b)
		for _, what := range []string{"cold", "warm"} {
			if p := onB.Get("/businesses/1001"); p.Doc.Find(".account-tile").Length() != 0 {
				t.Fatalf("%s report on B before any ledger shows an account tile", what)
			}
		}
		if known, err := b.Store.KnownScores(t.Context(), team); err != nil || len(known[1001]) != 0 {
			t.Fatalf("scores known before any account is linked: %v (%v)", known[1001], err)
		}
		importLedger(t, u, "aging.csv", []byte(ledgerCSV), "2026-09-30")
		p := onB.Get("/businesses/1001")
		if tile := p.Text(".verdict .account-tile"); !strings.Contains(tile, "$1,500") {
			t.Errorf("report on B after the import on A: tile = %q, want A-1's $1,500", tile)
		}
		if known, err := b.Store.KnownScores(t.Context(), team); err != nil || len(known[1001]) == 0 {
			t.Errorf("the report on B after the import recorded no scores of 1001: %v (%v)", known[1001], err)
		}
	})
}
