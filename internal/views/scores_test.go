package views

import (
	"strings"
	"testing"

	"creditdash/internal/upstream"
)

func ip(n int) upstream.Num[int]         { return upstream.Some(n) }
func fp(f float64) upstream.Num[float64] { return upstream.Some(f) }
func bp(b bool) *bool                    { return &b }

// history makes n monthly rows ending in Oct 2026, oldest first; fill sets
// each row's scores (i counts from 0 at the oldest).
func history(n int, fill func(i int, r *upstream.CreditScoreHistoryRow)) []upstream.CreditScoreHistoryRow {
	rows := make([]upstream.CreditScoreHistoryRow, n)
	last := monthIndexOf(2026, 10)
	for i := range rows {
		m := last - monthIndex(n-1-i)
		rows[i] = upstream.CreditScoreHistoryRow{Year: m.year(), Month: m.month(), Quarter: (m.month()-1)/3 + 1}
		fill(i, &rows[i])
	}
	return rows
}

func TestScoreCardsLatestChangeAndZone(t *testing.T) {
	// Risk slides 7 -> 2; Pay steady 8; DBT 20 -> 3; Z 3.26 -> 0.94.
	rows := history(24, func(i int, r *upstream.CreditScoreHistoryRow) {
		r.RiskScore, r.PayScore, r.DBTScore, r.ZScore = ip(7), ip(8), ip(20), fp(3.26)
		if i == 23 {
			r.RiskScore, r.DBTScore, r.ZScore = ip(2), ip(3), fp(0.94)
		}
	})
	cards := ScoreCards(rows, bp(true))
	if len(cards) != 4 {
		t.Fatalf("got %d cards, want 4", len(cards))
	}
	want := []struct {
		name, value, zone, class, change, trend string
	}{
		{"Risk score", "2", "severe", "zone-1", "-5 over 12 months (from 7 in Oct 2025)", "worse"},
		{"Pay score", "8", "low", "zone-5", "0 over 12 months (from 8 in Oct 2025)", "no change"},
		{"DBT (days beyond terms)", "3 days", "prompt", "zone-5", "-17 over 12 months (from 20 days in Oct 2025)", "better"},
		{"Z″-Score (four-ratio)", "0.94", "distress", "zone-1", "-2.32 over 12 months (from 3.26 in Oct 2025)", "worse"},
	}
	for i, w := range want {
		c := cards[i]
		if c.Name != w.name || c.Value != w.value || c.Zone.Label != w.zone || c.Zone.Class() != w.class {
			t.Errorf("card %d = %s %q %s %s, want %s %q %s %s", i, c.Name, c.Value, c.Zone.Label, c.Zone.Class(), w.name, w.value, w.zone, w.class)
		}
		if c.Change != w.change || c.Trend != w.trend {
			t.Errorf("%s change = %q (%s), want %q (%s)", c.Name, c.Change, c.Trend, w.change, w.trend)
		}
		if c.AsOf != "Oct 2026" || c.Missing != "" {
			t.Errorf("%s: as of %q, missing %q", c.Name, c.AsOf, c.Missing)
		}
		if !strings.Contains(c.Class(), w.class) {
			t.Errorf("%s: class %q lacks %s", c.Name, c.Class(), w.class)
		}
	}
	if !strings.Contains(cards[0].Band, "4.00–9.99%") {
		t.Errorf("Risk band = %q", cards[0].Band)
	}
	if !strings.Contains(cards[1].Band, "assumed to apply to Pay") {
		t.Errorf("Pay band must say the table is assumed: %q", cards[1].Band)
	}
	if cards[2].Band != "" || cards[3].Band != "" {
		t.Errorf("DBT and Z have no bankruptcy band: %q %q", cards[2].Band, cards[3].Band)
	}
}

func TestScoreCardsMissingWithReason(t *testing.T) {
	cases := []struct {
		name    string
		rows    []upstream.CreditScoreHistoryRow
		public  *bool
		kind    ScoreKind
		missing string
		last    string
	}{
		{"thin trade file", history(24, func(i int, r *upstream.CreditScoreHistoryRow) { r.RiskScore = ip(6) }), bp(false),
			ScorePay, "no score: thin trade file", ""},
		{"private has no Z", history(24, func(i int, r *upstream.CreditScoreHistoryRow) { r.RiskScore = ip(6) }), bp(false),
			ScoreZ, "private companies have no Z-Score", ""},
		{"public without Z", history(24, func(i int, r *upstream.CreditScoreHistoryRow) {}), bp(true),
			ScoreZ, "no score reported", ""},
		{"unknown whether public", history(24, func(i int, r *upstream.CreditScoreHistoryRow) {}), nil,
			ScoreZ, "no score reported", ""},
		{"no trade payments", history(3, func(i int, r *upstream.CreditScoreHistoryRow) {}), nil,
			ScoreDBT, "no trade payments", ""},
		{"Z stopped for the latest quarters", history(24, func(i int, r *upstream.CreditScoreHistoryRow) {
			if i < 17 { // up to Mar 2026
				r.ZScore = fp(2.6)
			}
		}), bp(true), ScoreZ, "missing for the latest quarters: Q2 2026, Q3 2026, Q4 2026", "last reported 2.60 (grey) in Mar 2026"},
		{"Risk stopped", history(24, func(i int, r *upstream.CreditScoreHistoryRow) {
			if i < 22 {
				r.RiskScore = ip(4)
			}
		}), nil, ScoreRisk, "missing since Sep 2026", "last reported 4 (high) in Aug 2026"},
		{"empty history", nil, nil, ScoreRisk, "no history in this time frame", ""},
	}
	for _, c := range cases {
		card := ScoreCards(c.rows, c.public)[c.kind]
		if card.Value != "" || !strings.Contains(card.Missing, c.missing) || card.LastReported != c.last {
			t.Errorf("%s: value %q missing %q last %q; want missing containing %q and last %q",
				c.name, card.Value, card.Missing, card.LastReported, c.missing, c.last)
		}
		if card.Zone.Class() != "zone-none" {
			t.Errorf("%s: a missing score is coloured %s", c.name, card.Zone.Class())
		}
	}
}

func TestScoreCardChangeNeedsTwelveMonths(t *testing.T) {
	short := history(6, func(i int, r *upstream.CreditScoreHistoryRow) { r.RiskScore = ip(5) })
	c := ScoreCards(short, nil)[ScoreRisk]
	if c.Value != "5" || c.Trend != "" || !strings.Contains(c.Change, "shorter than 12 months") {
		t.Errorf("short frame: %+v", c)
	}
	gap := history(24, func(i int, r *upstream.CreditScoreHistoryRow) {
		if i != 11 { // Oct 2025 missing
			r.RiskScore = ip(5)
		}
	})
	c = ScoreCards(gap, nil)[ScoreRisk]
	if c.Trend != "" || !strings.Contains(c.Change, "no value 12 months earlier (Oct 2025)") {
		t.Errorf("gap a year ago: %+v", c)
	}
}

func TestScoreCardsSortRows(t *testing.T) {
	rows := history(13, func(i int, r *upstream.CreditScoreHistoryRow) { r.RiskScore = ip(3 + i%2) })
	rows[0], rows[12] = rows[12], rows[0] // newest first in the slice
	c := ScoreCards(rows, nil)[ScoreRisk]
	if c.AsOf != "Oct 2026" {
		t.Errorf("latest month = %q, want Oct 2026 whatever the order rows came in", c.AsOf)
	}
}

func TestTimeWindowFillFromHistory(t *testing.T) {
	w := TimeWindow{From: "2025-01"}
	w.FillFromHistory(history(24, func(int, *upstream.CreditScoreHistoryRow) {}))
	if w.From != "2025-01" || w.To != "2026-10" || w.Label != "Nov 2024 – Oct 2026" {
		t.Errorf("window = %+v", w)
	}
	var empty TimeWindow
	empty.FillFromHistory(nil)
	if empty.Label != "" || empty.To != "" {
		t.Errorf("empty history filled %+v", empty)
	}
}
