package store

import (
	"testing"
	"time"
)

// TestTeamVersionMovesWithTeamWrites: every write of the team's data moves
// the team's version forward, for every analyst of the team and no other
// team; a recording of scores that changes nothing leaves it.
func TestTeamVersionMovesWithTeamWrites(t *testing.T) {
	eachEngine(t, func(t *testing.T, s *Store) {
		ctx := t.Context()
		version := func(a Analyst) int64 {
			t.Helper()
			v, err := s.TeamVersion(ctx, a)
			must(t, err)
			return v
		}
		if v := version(alice); v != 0 {
			t.Fatalf("version before any write = %d, want 0", v)
		}
		_, err := s.ImportLedger(ctx, alice, ImportSpec{AsOf: date("2026-10-31"), Lines: []LedgerLine{line("A-1", 1001, 1000)}})
		must(t, err)
		v1 := version(bob)
		if v1 == 0 || version(alice) != v1 {
			t.Fatalf("after an import: alice %d, bob %d, want the same non-zero version", version(alice), v1)
		}
		if v := version(aliceElse); v != 0 {
			t.Errorf("another team's version = %d, want 0", v)
		}
		fetched := time.Date(2026, 11, 2, 9, 0, 0, 0, time.UTC)
		o := Observation{BusinessID: 1001, Fetched: fetched,
			Latest: map[Score]KnownScore{ScoreRisk: {Value: 4, Month: 202610, Fetched: fetched}}, Risk: []ScoreMonth{{Month: 202610, Value: 4}}}
		_, err = s.RecordScores(ctx, bob, o)
		must(t, err)
		v2 := version(alice)
		if v2 <= v1 {
			t.Fatalf("after new scores: version %d, want above %d", v2, v1)
		}
		_, err = s.RecordScores(ctx, bob, o) // the same copy again
		must(t, err)
		if v := version(alice); v != v2 {
			t.Errorf("the same scores again moved the version from %d to %d", v2, v)
		}
		must(t, s.SaveLimitInputs(ctx, alice, "A-1", LimitInputs{MonthlySales: 1000, MonthsAllowed: 2, LossBudget: 100}))
		if v := version(bob); v <= v2 {
			t.Errorf("after saving calculator inputs: version %d, want above %d", v, v2)
		}
	})
}

// TestRecordKnownScores: a portfolio's scores are kept for the linked
// businesses only, in one go, and only a change moves the version.
func TestRecordKnownScores(t *testing.T) {
	eachEngine(t, func(t *testing.T, s *Store) {
		ctx := t.Context()
		_, err := s.ImportLedger(ctx, alice, ImportSpec{AsOf: date("2026-10-31"),
			Lines: []LedgerLine{line("A-1", 1001, 1000), line("A-2", 1002, 500)}})
		must(t, err)
		fetched := time.Date(2026, 11, 2, 9, 0, 0, 0, time.UTC)
		obs := func(id int32, pay, z float64, month int) Observation {
			return Observation{BusinessID: id, Fetched: fetched, Latest: map[Score]KnownScore{
				ScorePay: {Value: pay, Month: month, Fetched: fetched}, ScoreZ: {Value: z, Month: month, Fetched: fetched}}}
		}
		batch := []Observation{obs(1001, 70, 2.5, 202610), obs(1002, 40, -0.5, 202610), obs(1003, 90, 5, 202610)}
		kept, err := s.RecordKnownScores(ctx, bob, batch)
		must(t, err)
		if kept != 2 {
			t.Errorf("kept = %d, want 2 (1003 is linked to no account)", kept)
		}
		known, err := s.KnownScores(ctx, alice)
		must(t, err)
		if known[1001][ScorePay].Value != 70 || known[1002][ScoreZ].Value != -0.5 || known[1002][ScoreZ].Month != 202610 ||
			!known[1001][ScorePay].Fetched.Equal(fetched) {
			t.Errorf("known = %+v", known)
		}
		if _, ok := known[1003]; ok {
			t.Error("an unlinked business's scores were kept")
		}
		v, err := s.TeamVersion(ctx, alice)
		must(t, err)
		_, err = s.RecordKnownScores(ctx, bob, batch)
		must(t, err)
		if again, _ := s.TeamVersion(ctx, alice); again != v {
			t.Errorf("the same batch again moved the version from %d to %d", v, again)
		}
		// An older month does not replace a newer one.
		_, err = s.RecordKnownScores(ctx, bob, []Observation{obs(1001, 10, 1, 202609)})
		must(t, err)
		if known, _ := s.KnownScores(ctx, alice); known[1001][ScorePay].Value != 70 {
			t.Errorf("an older month replaced the latest: %+v", known[1001])
		}
		_, err = s.RecordKnownScores(ctx, bob, []Observation{{BusinessID: 1001, Latest: map[Score]KnownScore{ScorePay: {Value: 1, Month: 202613}}}})
		wantInvalid(t, "month 13", err, "score")
	})
}
