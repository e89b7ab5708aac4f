package views

import (
	"strings"
	"testing"

	"creditdash/internal/upstream"
)

// Each card says what it measures, its band's probability where the docs
// publish one, and why it moved from the inputs the page has.
func TestScoreCardExplanations(t *testing.T) {
	// 1001's story: Risk 7 -> 2, Pay steady 8, DBT 20 -> 3, Z″ 3.26 -> 0.94.
	rows := history(24, func(i int, r *upstream.CreditScoreHistoryRow) {
		risk, dbt, z := 7, 20, 3.26
		if i >= 12 {
			risk, dbt, z = 7-(i-11)*5/12, 20-(i-11)*17/12, 3.26-float64(i-11)*2.32/12
		}
		r.RiskScore, r.PayScore, r.DBTScore, r.ZScore = ip(risk), ip(8), ip(dbt), fp(z)
	})
	cards := ScoreCards(rows, bp(true))
	for _, c := range cards {
		if !strings.HasPrefix(c.Measures, "Measures ") {
			t.Errorf("%s measures %q", c.Name, c.Measures)
		}
	}
	risk, pay, dbt, z := cards[ScoreRisk], cards[ScorePay], cards[ScoreDBT], cards[ScoreZ]
	if risk.BandText() != "4.00–9.99% chance of bankruptcy within 12 months" {
		t.Errorf("Risk band %q", risk.BandText())
	}
	if !strings.Contains(pay.BandText(), "assumed to apply to Pay") {
		t.Errorf("Pay band %q", pay.BandText())
	}
	for _, c := range []ScoreCard{dbt, z} {
		if c.BandText() != "The service publishes no bankruptcy probability for this band." {
			t.Errorf("%s band %q", c.Name, c.BandText())
		}
	}
	// Z″ crosses two zones (safe -> distress), DBT two (late -> prompt):
	// Z″ moves the larger share of its scale.
	if want := "Largest input change over the same 12 months: Z″ -2.32 (from 3.26 to 0.94, safe to distress)."; !strings.HasPrefix(risk.Why, want) {
		t.Errorf("Risk why = %q, want %q…", risk.Why, want)
	}
	if !strings.Contains(risk.Why, "not a proven cause") {
		t.Errorf("Risk why must not claim a cause: %q", risk.Why)
	}
	if pay.Why != "It did not move over 12 months." {
		t.Errorf("Pay why = %q", pay.Why)
	}
	if !strings.Contains(dbt.Why, "no inputs") || !strings.Contains(dbt.Why, "Payments tab") {
		t.Errorf("DBT why = %q", dbt.Why)
	}
	if !strings.Contains(z.Why, "no inputs") || !strings.Contains(z.Why, "Financials tab") {
		t.Errorf("Z″ why = %q", z.Why)
	}
}

// Pay's input is DBT; without a DBT 12 months earlier the page says it
// cannot explain the move.
func TestPayWhyFromDBT(t *testing.T) {
	rows := history(24, func(i int, r *upstream.CreditScoreHistoryRow) {
		r.PayScore, r.DBTScore = ip(3), ip(30)
		if i >= 12 {
			r.PayScore, r.DBTScore = ip(7), ip(6)
		}
	})
	pay := ScoreCards(rows, bp(false))[ScorePay]
	if want := "Largest input change over the same 12 months: DBT -24 (from 30 days to 6 days, late to slow)."; pay.Why != want {
		t.Errorf("Pay why = %q, want %q", pay.Why, want)
	}
	rows[11].DBTScore = upstream.Num[int]{} // Oct 2025
	pay = ScoreCards(rows, bp(false))[ScorePay]
	if !strings.HasPrefix(pay.Why, "The page has no inputs to explain it: none of DBT has a value") {
		t.Errorf("Pay why without DBT a year ago = %q", pay.Why)
	}
	short := ScoreCards(history(6, func(i int, r *upstream.CreditScoreHistoryRow) { r.RiskScore = ip(5) }), nil)[ScoreRisk]
	if short.Why != "No 12-month change to explain." {
		t.Errorf("short frame why = %q", short.Why)
	}
}

// Zones crossed count each score's own boundaries: Z″ safe to grey is one,
// as Pay low to moderate is, not two.
func TestZonesCrossed(t *testing.T) {
	for _, c := range []struct {
		k    ScoreKind
		a, b float64
		want int
	}{
		{ScoreZ, 2.65, 2.55, 1}, {ScoreZ, 3, 0.5, 2}, {ScoreZ, 2, 2.5, 0},
		{ScorePay, 8, 6, 1}, {ScorePay, 9, 1, 4}, {ScoreDBT, 0, 0, 0},
	} {
		if got := zonesCrossed(c.k, c.a, c.b); got != c.want {
			t.Errorf("zonesCrossed(%s, %v, %v) = %d, want %d", c.k.short(), c.a, c.b, got, c.want)
		}
	}
}
