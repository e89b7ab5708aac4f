package views

import (
	"testing"

	"creditdash/internal/upstream"
)

// Each rule of scoreCoverage, on the scenario businesses' shapes.
func TestScoreCoverage(t *testing.T) {
	full := func(i int, r *upstream.CreditScoreHistoryRow) {
		r.RiskScore, r.PayScore, r.DBTScore, r.ZScore = ip(6), ip(7), ip(5), fp(2.1)
	}
	// 1003: private distributor, thin trade file: Risk and DBT, no Pay, no Z″.
	thin := func(i int, r *upstream.CreditScoreHistoryRow) { r.RiskScore, r.DBTScore = ip(6), ip(9) }
	// 1005: private company with a Pay score and no Z″.
	private := func(i int, r *upstream.CreditScoreHistoryRow) {
		r.RiskScore, r.PayScore, r.DBTScore = ip(6), ip(7), ip(5)
	}
	// 1006: public, Z″ stops after Mar 2026.
	zStops := func(i int, r *upstream.CreditScoreHistoryRow) {
		full(i, r)
		if i >= 17 {
			r.ZScore = upstream.Num[float64]{}
		}
	}
	// A public company whose Z″ and Risk come back null in every month
	// while Pay and DBT are there: the access model withholds them.
	withheld := func(i int, r *upstream.CreditScoreHistoryRow) { r.PayScore, r.DBTScore = ip(7), ip(5) }
	// DBT absent beside a Pay score: the payments exist, so it is withheld.
	noDBT := func(i int, r *upstream.CreditScoreHistoryRow) { r.RiskScore, r.PayScore = ip(6), ip(7) }
	none := func(i int, r *upstream.CreditScoreHistoryRow) {}
	cases := []struct {
		name   string
		fill   func(int, *upstream.CreditScoreHistoryRow)
		public *bool
		want   [4]Coverage // Risk, Pay, DBT, Z″
	}{
		{"every score present", full, bp(true), [4]Coverage{CoveragePresent, CoveragePresent, CoveragePresent, CoveragePresent}},
		{"1003 thin trade file, private", thin, bp(false), [4]Coverage{CoveragePresent, CoverageThinFile, CoveragePresent, CoveragePrivate}},
		{"1003 without identification", thin, nil, [4]Coverage{CoveragePresent, CoverageThinFile, CoveragePresent, CoverageUnknown}},
		{"private company has no Z″", private, bp(false), [4]Coverage{CoveragePresent, CoveragePresent, CoveragePresent, CoveragePrivate}},
		{"1006 Z″ not reported this month", zStops, bp(true), [4]Coverage{CoveragePresent, CoveragePresent, CoveragePresent, CoverageNotReported}},
		{"API-Only withholds Risk and Z″", withheld, bp(true), [4]Coverage{CoverageWithheld, CoveragePresent, CoveragePresent, CoverageWithheld}},
		{"DBT withheld beside Pay", noDBT, bp(false), [4]Coverage{CoveragePresent, CoveragePresent, CoverageWithheld, CoveragePrivate}},
		{"nothing scored", none, bp(true), [4]Coverage{CoverageUnknown, CoverageThinFile, CoverageThinFile, CoverageUnknown}},
	}
	for _, c := range cases {
		cards := ScoreCards(history(24, c.fill), c.public)
		for k, want := range c.want {
			if got := cards[k].Coverage; got != want {
				t.Errorf("%s: %s coverage %q, want %q", c.name, cards[k].Name, got.Label(), want.Label())
			}
		}
	}
	if cards := ScoreCards(nil, bp(true)); cards[ScoreRisk].Coverage != CoverageUnknown {
		t.Errorf("no rows: %q", cards[ScoreRisk].Coverage.Label())
	}
}

// A withheld score says so in its reason, and the badge has words.
func TestWithheldCardSaysAccessModel(t *testing.T) {
	cards := ScoreCards(history(24, func(i int, r *upstream.CreditScoreHistoryRow) { r.PayScore, r.DBTScore = ip(7), ip(5) }), bp(true))
	z := cards[ScoreZ]
	if z.Value != "" || z.Missing != "no score: not available with this account's access model (API-Only); public companies have a Z″" {
		t.Errorf("Z″ withheld: %q", z.Missing)
	}
	if b := z.CoverageBadge(); b.Label() != "Z″: withheld by the access model" || b.Class() != "badge coverage coverage-withheld" {
		t.Errorf("badge %q %q", b.Label(), b.Class())
	}
	for _, c := range []Coverage{CoverageUnknown, CoveragePresent, CoverageNotReported, CoverageWithheld, CoveragePrivate, CoverageThinFile} {
		if c.Label() == "" || c.Class() == "" {
			t.Errorf("coverage %d has no words or class", c)
		}
	}
}

// The risk history is judged against the cards' latest month.
func TestRiskHistoryCoverage(t *testing.T) {
	rows := history(24, func(i int, r *upstream.CreditScoreHistoryRow) { r.RiskScore = ip(6) })
	cards := ScoreCards(rows, nil)
	avg := func(months ...[2]int) []upstream.RiskHistoryRow {
		var out []upstream.RiskHistoryRow
		for _, m := range months {
			out = append(out, upstream.RiskHistoryRow{Year: m[0], Month: m[1], AverageRiskScore: fp(6.2)})
		}
		return out
	}
	if got := RiskHistoryCoverage(avg([2]int{2026, 10}, [2]int{2026, 9}), cards).Coverage; got != CoveragePresent {
		t.Errorf("latest month averaged: %q", got.Label())
	}
	if got := RiskHistoryCoverage(avg([2]int{2026, 8}), cards).Coverage; got != CoverageNotReported {
		t.Errorf("older months only: %q", got.Label())
	}
	withheld := ScoreCards(history(24, func(i int, r *upstream.CreditScoreHistoryRow) { r.PayScore, r.DBTScore = ip(7), ip(5) }), nil)
	if got := RiskHistoryCoverage(nil, withheld).Coverage; got != CoverageWithheld {
		t.Errorf("no averages, Risk withheld: %q", got.Label())
	}
	if got := RiskHistoryCoverage(nil, cards).Coverage; got != CoverageUnknown {
		t.Errorf("no averages, Risk present: %q", got.Label())
	}
}
