package views

import (
	"testing"
	"time"

	"creditdash/internal/credit"
	"creditdash/internal/store"
)

// figure is an account of business b owing balance, with a Risk known
// since fetched (zero: no score known).
func figure(account string, b int32, balance, risk float64, fetched time.Time) credit.Figures {
	known := map[store.Score]store.KnownScore{}
	if !fetched.IsZero() {
		known[store.ScoreRisk] = store.KnownScore{Value: risk, Month: 202610, Fetched: fetched}
	}
	return credit.NewFigures(store.Account{LedgerLine: store.LedgerLine{Account: account, Name: "N " + account, BusinessID: b, Balance: balance}}, known)
}

// TestRefreshRow: a business never fetched reads "never", with its
// exposure and its report's address.
func TestRefreshRow(t *testing.T) {
	now := time.Date(2026, 11, 20, 12, 0, 0, 0, time.UTC)
	got := credit.RankRefresh([]credit.Figures{figure("A-4", 1003, 50_000, 0, time.Time{})}, nil, now)
	row := NewRefreshRow(1, got[0])
	if row.Fetched != "never" || row.Exposure != "$50,000" || row.URL != "/businesses/1003" {
		t.Errorf("row = %+v", row)
	}
}

// TestExposureCoverage: the share of exposure fetched within seven days, with
// unlinked accounts counted in the total; credit balances count nothing.
func TestExposureCoverage(t *testing.T) {
	now := time.Date(2026, 11, 20, 12, 0, 0, 0, time.UTC)
	figs := []credit.Figures{
		figure("A-1", 1001, 30_000, 5, now.Add(-6*24*time.Hour)),
		figure("A-2", 1002, 10_000, 5, now.Add(-8*24*time.Hour)),
		figure("A-3", 0, 60_000, 0, time.Time{}),
		figure("A-4", 1003, -5_000, 5, now),
	}
	c := credit.NewScoreCoverage(figs, now)
	if c.Total != 100_000 || c.Fresh != 30_000 || c.Unlinked != 60_000 || c.FreshAccounts != 2 {
		t.Fatalf("coverage = %+v", c)
	}
	v := NewCoverageView(c)
	if v.Share != "30.0%" || !v.Low || !v.Shown || v.Fresh != "$30,000" {
		t.Errorf("view = %+v", v)
	}
	if v := NewCoverageView(credit.NewScoreCoverage(nil, now)); v.Shown {
		t.Error("coverage shown without a ledger")
	}
	if v := NewCoverageView(credit.NewScoreCoverage(figs[3:], now)); v.Share != "0.0%" || v.Low {
		t.Errorf("only a credit balance: %+v", v)
	}
}
