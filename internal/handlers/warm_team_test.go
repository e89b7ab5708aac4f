package handlers_test

import (
	"strings"
	"testing"

	"creditdash/internal/apptest"
)

// TestWarmReportFollowsTeamWritesOnAnotherReplica: a report keeps its
// account tile and its "no account linked" mark under the team's version,
// so warm reports ask the store nothing; a ledger imported through
// another replica moves the version, and B's report shows the tile (as
// soon as B hears of the write) and records the business's scores for the
// team.
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
		if tile := onReplica(t, func() string { return onB.Get("/businesses/1001").Text(".verdict .account-tile") }, func(tile string) bool {
			return strings.Contains(tile, "$1,500")
		}); tile != "" {
			t.Errorf("report on B after the import on A: tile = %q, want A-1's $1,500", tile)
		}
		if known, err := b.Store.KnownScores(t.Context(), team); err != nil || len(known[1001]) == 0 {
			t.Errorf("the report on B after the import recorded no scores of 1001: %v (%v)", known[1001], err)
		}
	})
}
