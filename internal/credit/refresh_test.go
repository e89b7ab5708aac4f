package credit

import (
	"math"
	"testing"
	"time"

	"creditdash/internal/store"
)

// figure is an account of business b owing balance, with a Risk known
// since fetched (zero: no score known).
func figure(account string, b int32, balance, risk float64, fetched time.Time) Figures {
	known := map[store.Score]store.KnownScore{}
	if !fetched.IsZero() {
		known[store.ScoreRisk] = store.KnownScore{Value: risk, Month: 202610, Fetched: fetched}
	}
	return NewFigures(store.Account{LedgerLine: store.LedgerLine{Account: account, Name: "N " + account, BusinessID: b, Balance: balance}}, known)
}

// TestRankRefresh: never fetched first by exposure; then expected loss ×
// days × (1 + movement), a business's accounts added together; unlinked
// accounts left out; a business without a Risk band last.
func TestRankRefresh(t *testing.T) {
	now := time.Date(2026, 11, 20, 12, 0, 0, 0, time.UTC)
	day := 24 * time.Hour
	figs := []Figures{
		figure("A-1", 1001, 10_000, 5, now.Add(-10*day)), // EL 113.5 × 10 × 1
		figure("A-2", 1002, 10_000, 5, now.Add(-2*day)),  // EL 113.5 × 2 × (1+4)
		figure("A-3", 1002, 10_000, 5, now.Add(-2*day)),  // same business: EL doubles
		figure("A-4", 1003, 50_000, 0, time.Time{}),      // never fetched, larger
		figure("A-5", 1004, 20_000, 0, time.Time{}),      // never fetched
		figure("A-6", 0, 99_000, 0, time.Time{}),         // unlinked
		figure("A-7", 1005, 90_000, 5, now.Add(-time.Hour)),
	}
	// A score fetched but without a Risk band.
	noRisk := NewFigures(store.Account{LedgerLine: store.LedgerLine{Account: "A-8", BusinessID: 1006, Balance: 1e6}},
		map[store.Score]store.KnownScore{store.ScorePay: {Value: 50, Month: 202610, Fetched: now.Add(-30 * day)}})
	figs = append(figs, noRisk)
	got := RankRefresh(figs, map[int32]float64{1002: 1, 1001: 5}, now)
	want := []int32{1003, 1004, 1002, 1001, 1005, 1006}
	if len(got) != len(want) {
		t.Fatalf("ranked %d businesses, want %d: %+v", len(got), len(want), got)
	}
	for i, id := range want {
		if got[i].BusinessID != id {
			t.Fatalf("rank %d = %d, want %d (%+v)", i+1, got[i].BusinessID, id, got)
		}
	}
	b := got[2]
	if b.Accounts != 2 || b.Exposure != 20_000 || b.Movement != 4 || math.Abs(b.StaleDays-2) > 1e-9 {
		t.Errorf("1002 = %+v, want 2 accounts, $20,000, moved 4, 2 days stale", b)
	}
	if math.Abs(b.Priority-b.EL*2*5) > 1e-6 || b.EL <= 0 {
		t.Errorf("1002's priority %v, want EL %v × 2 × 5", b.Priority, b.EL)
	}
	if got[5].Priority != 0 || got[5].ELOK {
		t.Errorf("a business without Risk weighs %v", got[5].Priority)
	}
}

// TestScoreCoverageCounts: the exposure fetched within seven days, with
// unlinked accounts counted in the total; credit balances count nothing.
func TestScoreCoverageCounts(t *testing.T) {
	now := time.Date(2026, 11, 20, 12, 0, 0, 0, time.UTC)
	figs := []Figures{
		figure("A-1", 1001, 30_000, 5, now.Add(-6*24*time.Hour)),
		figure("A-2", 1002, 10_000, 5, now.Add(-8*24*time.Hour)),
		figure("A-3", 0, 60_000, 0, time.Time{}),
		figure("A-4", 1003, -5_000, 5, now),
	}
	c := NewScoreCoverage(figs, now)
	if c.Total != 100_000 || c.Fresh != 30_000 || c.Unlinked != 60_000 || c.FreshAccounts != 2 || c.Share() != 0.3 {
		t.Fatalf("coverage = %+v", c)
	}
	if c := NewScoreCoverage(nil, now); c.Accounts != 0 || c.Share() != 0 {
		t.Errorf("no ledger: %+v", c)
	}
}
