package store

import (
	"math"
	"testing"
	"time"
)

// TestScoresAsOf: Pay, DBT and Z″ by month are kept beside Risk by month
// for linked businesses; a month-end reads each score's latest month up to
// it (NaN for a score not known by then); the same observation again
// moves nothing; months older than MaxRiskMonths before the newest go;
// Risk is refused as a monthly score of its own.
func TestScoresAsOf(t *testing.T) {
	eachEngine(t, func(t *testing.T, s *Store) {
		ctx := t.Context()
		_, err := s.ImportLedger(ctx, alice, ImportSpec{AsOf: date("2026-10-31"), Lines: []LedgerLine{line("A-1", 1001, 1000)}})
		must(t, err)
		fetched := time.Date(2026, 11, 2, 9, 0, 0, 0, time.UTC)
		var pay []ScoreMonth
		for i := range 40 { // 40 months to October 2026: the 4 oldest go
			m := monthIndex(202610) - 39 + i
			pay = append(pay, ScoreMonth{Month: m/12*100 + m%12 + 1, Value: float64(1 + i%10)})
		}
		o := Observation{BusinessID: 1001, Fetched: fetched, Risk: []ScoreMonth{{Month: 202601, Value: 4}},
			Monthly: map[Score][]ScoreMonth{ScorePay: pay, ScoreDBT: {{Month: 202603, Value: 12}}, ScoreZ: {{Month: 202603, Value: 1.75}, {Month: 202606, Value: -0.5}}}}
		kept, err := s.RecordScores(ctx, bob, o)
		must(t, err)
		if !kept {
			t.Fatal("a linked business's months were not kept")
		}
		at := func(month int) MonthScores {
			t.Helper()
			got, err := s.ScoresAsOf(ctx, alice, month)
			must(t, err)
			if ms, ok := got[1001]; ok {
				return ms
			}
			return MonthScores{math.NaN(), math.NaN(), math.NaN(), math.NaN()}
		}
		if got := at(202605); got.Risk != 4 || got.Pay != 1+float64((monthIndex(202605)-monthIndex(202610)+39)%10) || got.DBT != 12 || got.Z != 1.75 {
			t.Errorf("as of May 2026: %+v", got)
		}
		if got := at(202610); got.Z != -0.5 || got.Pay != 10 {
			t.Errorf("as of October 2026: %+v", got)
		}
		if got := at(202512); !math.IsNaN(got.Risk) || !math.IsNaN(got.DBT) || !math.IsNaN(got.Z) || math.IsNaN(got.Pay) {
			t.Errorf("as of December 2025, only Pay was known: %+v", got)
		}
		// The oldest 4 months went: the first month kept is 36 before
		// the newest.
		first := monthIndex(202610) - MaxRiskMonths + 1
		before := first - 1
		if got := at(before/12*100 + before%12 + 1); !math.IsNaN(got.Pay) {
			t.Errorf("a month older than %d months before the newest is kept: %+v", MaxRiskMonths, got)
		}
		if got := at(first/12*100 + first%12 + 1); math.IsNaN(got.Pay) {
			t.Errorf("the oldest month within %d was dropped", MaxRiskMonths)
		}
		v, err := s.TeamVersion(ctx, alice)
		must(t, err)
		_, err = s.RecordScores(ctx, bob, o)
		must(t, err)
		if again, _ := s.TeamVersion(ctx, alice); again != v {
			t.Errorf("the same months again moved the team's version from %d to %d", v, again)
		}
		if got, err := s.ScoresAsOf(ctx, aliceElse, 202610); err != nil || len(got) != 0 {
			t.Errorf("another team reads %v, %v", got, err)
		}
		_, err = s.RecordScores(ctx, bob, Observation{BusinessID: 1001, Monthly: map[Score][]ScoreMonth{ScoreRisk: {{Month: 202601, Value: 3}}}})
		wantInvalid(t, "Risk as a monthly score", err, "score")
	})
}
