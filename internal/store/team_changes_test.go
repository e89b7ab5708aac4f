package store

import (
	"slices"
	"testing"

	"creditdash/internal/store/storetest"
)

// TestTeamChangesLinkWritesWithoutGaps: what the team's writes touched is
// told between any two versions the writes link, a write another store
// made (another replica) included, and nothing is told across a write
// that touches every account, past the log's bound, or from a version the
// team was never at.
func TestTeamChangesLinkWritesWithoutGaps(t *testing.T) {
	for _, e := range engines {
		t.Run(string(e), func(t *testing.T) {
			t.Parallel()
			cfg := Config{Now: newClock().Now}
			if e == SQLite {
				cfg.DataDir = t.TempDir()
			} else {
				cfg.DatabaseURL = storetest.Database(t)
			}
			s, other := openTest(t, e, cfg), openTest(t, e, cfg)
			ctx := t.Context()
			changes := func(from, to int64) (Touched, bool) {
				t.Helper()
				got, ok, err := s.TeamChanges(ctx, alice, from, to)
				must(t, err)
				return got, ok
			}
			version := func() int64 {
				t.Helper()
				v, err := s.TeamVersion(ctx, alice)
				must(t, err)
				return v
			}
			_, err := s.ImportLedger(ctx, alice, ImportSpec{AsOf: date("2026-10-31"), Lines: []LedgerLine{line("A-1", 1001, 1000), line("A-2", 1002, 2000)}})
			must(t, err)
			v0 := version()
			must(t, s.SaveLimitInputs(ctx, alice, " A-1 ", LimitInputs{MonthlySales: 1000, MonthsAllowed: 1, LossBudget: 100}))
			_, err = s.AssignOwner(ctx, alice, []string{"A-2"}, "bob", "holiday")
			must(t, err)
			v2 := version()
			got, ok, err := s.TeamChanges(ctx, bob, v0, v2)
			must(t, err)
			slices.Sort(got.Accounts)
			if !ok || !slices.Equal(got.Accounts, []string{"A-1", "A-2"}) || len(got.Businesses) != 0 {
				t.Errorf("changes from the import to now: %+v %t, want A-1 and A-2", got, ok)
			}
			if _, ok := changes(v0+1, v2); ok {
				t.Error("changes told from a version the team was never at")
			}
			if got, ok := changes(v2, v2); !ok || got.size() != 0 {
				t.Errorf("changes from now to now: %+v %t, want none", got, ok)
			}
			_, err = s.RecordScores(ctx, alice, Observation{BusinessID: 1002, Latest: map[Score]KnownScore{ScoreRisk: {Value: 4, Month: 202610}}, Fetched: date("2026-10-31")})
			must(t, err)
			if got, ok := changes(v2, version()); !ok || !slices.Equal(got.Businesses, []int32{1002}) || len(got.Accounts) != 0 {
				t.Errorf("changes of a score: %+v %t, want business 1002", got, ok)
			}
			v3 := version()
			must(t, other.SaveLimitInputs(ctx, alice, "A-2", LimitInputs{MonthlySales: 500, MonthsAllowed: 1, LossBudget: 100}))
			must(t, s.SaveLimitInputs(ctx, alice, "A-1", LimitInputs{MonthlySales: 700, MonthsAllowed: 1, LossBudget: 100}))
			v5 := version() // s wrote last; other may not have heard yet
			got, ok, err = other.TeamChanges(ctx, alice, v3, v5)
			must(t, err)
			slices.Sort(got.Accounts)
			if !ok || !slices.Equal(got.Accounts, []string{"A-1", "A-2"}) {
				t.Errorf("changes across another store's write, asked of that store: %+v %t, want A-1 and A-2", got, ok)
			}
			must(t, s.SetLGD(ctx, alice, 0.5))
			v6 := version()
			if got, ok := changes(v5, v6); ok {
				t.Errorf("changes told across a write to every account: %+v", got)
			}
			// The bound: the newest maxLoggedChanges writes are told, no more.
			var v7 int64
			for i := range maxLoggedChanges + 1 {
				must(t, s.SetSupplierCategory(ctx, alice, []string{"36", "5045"}[i%2]))
				if i == 0 {
					v7 = version()
				}
			}
			if got, ok := changes(v7, version()); !ok || got.size() != 0 {
				t.Errorf("changes of the newest %d writes: %+v %t, want told, none", maxLoggedChanges, got, ok)
			}
			if _, ok := changes(v6, version()); ok {
				t.Errorf("changes told past the bound of %d writes", maxLoggedChanges)
			}
		})
	}
}
