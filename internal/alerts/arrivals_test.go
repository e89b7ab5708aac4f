package alerts

import (
	"context"
	"errors"
	"testing"
	"time"

	"creditdash/internal/credit"
	"creditdash/internal/store"
	"creditdash/internal/upstream"
)

// arrivalStore records what Arrivals writes, or fails with err.
type arrivalStore struct {
	obs    []store.Observation
	known  [][]store.Observation
	seen   [][]store.Reading
	years  map[int32]int
	linked bool
	err    error
}

func (s *arrivalStore) RecordScores(_ context.Context, _ store.Analyst, o store.Observation) (bool, error) {
	if s.err != nil {
		return false, s.err
	}
	s.obs = append(s.obs, o)
	return s.linked, nil
}

func (s *arrivalStore) RecordKnownScores(_ context.Context, _ store.Analyst, obs []store.Observation) (int, error) {
	if s.err != nil {
		return 0, s.err
	}
	s.known = append(s.known, obs)
	return len(obs), nil
}

func (s *arrivalStore) MarkSeen(_ context.Context, _ store.Analyst, readings []store.Reading) error {
	if s.err != nil {
		return s.err
	}
	s.seen = append(s.seen, readings)
	return nil
}

func (s *arrivalStore) RecordStatementYear(_ context.Context, _ store.Analyst, business int32, year int, _ time.Time) (bool, error) {
	if s.err != nil {
		return false, s.err
	}
	if s.years == nil {
		s.years = map[int32]int{}
	}
	s.years[business] = year
	return true, nil
}

func ptr[T int | float64](v T) upstream.Num[T] { return upstream.Some(v) }

// A report's history is kept for the team with its four scores and the
// header's industry; kept says whether an account links the business.
func TestArrivalsTeamScores(t *testing.T) {
	st := &arrivalStore{linked: true}
	ar := NewArrivals(st)
	a := store.Analyst{Service: "svc", User: "ana"}
	fetched := time.Date(2026, 11, 2, 9, 0, 0, 0, time.UTC)
	hist := []upstream.CreditScoreHistoryRow{
		{Year: 2026, Month: 9, RiskScore: ptr(3), PayScore: ptr(70)},
		{Year: 2026, Month: 10, RiskScore: ptr(4), DBTScore: ptr(12)},
	}
	kept, err := ar.TeamScores(t.Context(), a, Report{ID: 1001, Name: "Westbridge", History: hist,
		NAICS: []upstream.NAICSCode{{Code: "332", Name: "Metal"}}, Fetched: fetched})
	if err != nil || !kept {
		t.Fatalf("TeamScores = %v, %v; want kept", kept, err)
	}
	if len(st.obs) != 1 {
		t.Fatalf("%d observations written, want 1", len(st.obs))
	}
	o := st.obs[0]
	if o.BusinessID != 1001 || o.Name != "Westbridge" || o.NAICS != "332" || o.Latest[store.ScoreRisk].Value != 4 ||
		o.Latest[store.ScorePay].Month != 202609 || o.Latest[store.ScoreDBT].Value != 12 || !o.Fetched.Equal(fetched) {
		t.Errorf("observation = %+v", o)
	}
	// No business, no write.
	if kept, err := ar.TeamScores(t.Context(), a, Report{History: hist}); kept || err != nil || len(st.obs) != 1 {
		t.Errorf("business 0: kept %v, err %v, %d writes", kept, err, len(st.obs))
	}
	st.err = errors.New("disk full")
	if _, err := ar.TeamScores(t.Context(), a, Report{ID: 1001, History: hist}); !errors.Is(err, st.err) {
		t.Errorf("a failing store: %v, want it wrapped", err)
	}
}

// The portfolio's marks are written only where they are new or changed,
// so a visit that saw the same values writes nothing.
func TestArrivalsPortfolioSeenWritesChangesOnly(t *testing.T) {
	st := &arrivalStore{}
	ar := NewArrivals(st)
	a := store.Analyst{Service: "svc", User: "ana"}
	pay := map[int32]credit.Latest{1001: {Value: 70}, 1002: {Value: 55}}
	z := map[int32]credit.Latest{1001: {Value: 2.5}}
	seen := map[store.SeenKey]store.Seen{
		{BusinessID: 1001, Score: store.ScorePay}: {Value: 70},
		{BusinessID: 1002, Score: store.ScorePay}: {Value: 60},
	}
	if err := ar.PortfolioSeen(t.Context(), a, seen, pay, z); err != nil {
		t.Fatal(err)
	}
	if len(st.seen) != 1 || len(st.seen[0]) != 2 {
		t.Fatalf("writes = %+v; want one write of 1002's Pay and 1001's Z″", st.seen)
	}
	for _, r := range st.seen[0] {
		if r.BusinessID == 1001 && r.Score == store.ScorePay {
			t.Errorf("an unchanged mark was written again: %+v", r)
		}
	}
	seen[store.SeenKey{BusinessID: 1002, Score: store.ScorePay}] = store.Seen{Value: 55}
	seen[store.SeenKey{BusinessID: 1001, Score: store.ScoreZ}] = store.Seen{Value: 2.5}
	if err := ar.PortfolioSeen(t.Context(), a, seen, pay, z); err != nil || len(st.seen) != 1 {
		t.Errorf("nothing changed: %d writes (err %v), want none more", len(st.seen), err)
	}
}

// A report's Risk and DBT become last-seen marks; the portfolio's
// histories become the team's known scores; a statement year is kept for
// the business's reviews; a history without them writes nothing.
func TestArrivalsReportSeenPortfolioAndStatements(t *testing.T) {
	st := &arrivalStore{}
	ar := NewArrivals(st)
	a := store.Analyst{Service: "svc", User: "ana"}
	noted, err := ar.ReportSeen(t.Context(), a, 1001, []upstream.CreditScoreHistoryRow{{Year: 2026, Month: 10, RiskScore: ptr(2), DBTScore: ptr(30)}})
	if err != nil || !noted || len(st.seen) != 1 || len(st.seen[0]) != 2 {
		t.Fatalf("ReportSeen = %v, %v; writes %+v", noted, err, st.seen)
	}
	if noted, _ := ar.ReportSeen(t.Context(), a, 1001, []upstream.CreditScoreHistoryRow{{Year: 2026, Month: 10, PayScore: ptr(60)}}); noted || len(st.seen) != 1 {
		t.Errorf("a history without Risk or DBT: noted %v, %d writes", noted, len(st.seen))
	}
	pay := upstream.PortfolioScoreHistory{Businesses: []upstream.PortfolioBusinessScores{
		{BusinessID: 1001, Scores: []upstream.MonthlyScore{{Year: 2026, Month: 10, Score: ptr(71.0)}}}}}
	if err := ar.PortfolioScores(t.Context(), a, pay, upstream.PortfolioScoreHistory{}, time.Now()); err != nil {
		t.Fatal(err)
	}
	if len(st.known) != 1 || st.known[0][0].Latest[store.ScorePay].Value != 71 {
		t.Errorf("known scores = %+v", st.known)
	}
	if err := ar.PortfolioScores(t.Context(), a, upstream.PortfolioScoreHistory{}, upstream.PortfolioScoreHistory{}, time.Now()); err != nil || len(st.known) != 1 {
		t.Errorf("empty histories: %d writes (err %v), want none more", len(st.known), err)
	}
	stmts := []upstream.AnnualFinancials{{Values: map[string]upstream.DataPoint{"FiscalYear": {Text: "2025"}}}}
	if err := ar.Statements(t.Context(), a, 1001, stmts, time.Now()); err != nil || st.years[1001] != 2025 {
		t.Errorf("statement year = %v (err %v)", st.years, err)
	}
}

// Stores not given keep nothing, and say so.
func TestArrivalsWithoutStores(t *testing.T) {
	ar := NewArrivals(nil)
	a := store.Analyst{Service: "svc", User: "ana"}
	if ar.KeepsTeam() || ar.KeepsPortfolio() {
		t.Error("keeps the team's scores without a store")
	}
	hist := []upstream.CreditScoreHistoryRow{{Year: 2026, Month: 10, RiskScore: ptr(2)}}
	if kept, err := ar.TeamScores(t.Context(), a, Report{ID: 1, History: hist}); kept || err != nil {
		t.Errorf("TeamScores = %v, %v", kept, err)
	}
	if noted, err := ar.ReportSeen(t.Context(), a, 1, hist); noted || err != nil {
		t.Errorf("ReportSeen = %v, %v", noted, err)
	}
	if err := ar.Statements(t.Context(), a, 1, []upstream.AnnualFinancials{{Values: map[string]upstream.DataPoint{"FiscalYear": {Text: "2025"}}}}, time.Now()); err != nil {
		t.Error(err)
	}
}
