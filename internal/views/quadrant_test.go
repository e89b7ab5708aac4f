package views

import (
	"testing"

	"creditdash/internal/upstream"
)

func TestPlaceQuadrant(t *testing.T) {
	tests := []struct {
		z, dPay float64
		want    Quadrant
	}{
		{0.5, -2, QuadBoth}, {2.0, -1, QuadBoth}, {3.1, -1, QuadPayments},
		{1.0, 0, QuadFinancial}, {2.59, 3, QuadFinancial}, {5, 2, QuadNeither},
		// 2.60 itself is grey, as the row's zone word says: weak.
		{2.6, 0, QuadFinancial}, {2.6, -2, QuadBoth}, {2.61, 0, QuadNeither}, {2.61, -2, QuadPayments},
	}
	for _, tt := range tests {
		if got := placeQuadrant(tt.z, tt.dPay); got != tt.want {
			t.Errorf("placeQuadrant(%v, %v) = %v, want %v", tt.z, tt.dPay, got.Label(), tt.want.Label())
		}
	}
}

func TestPlaceQuadrants(t *testing.T) {
	f := func(v float64) upstream.Num[float64] { return upstream.Some(v) }
	months := func(vals ...upstream.Num[float64]) []upstream.MonthlyScore {
		out := make([]upstream.MonthlyScore, len(vals))
		for i, v := range vals {
			out[i] = upstream.MonthlyScore{Year: 2026, Month: i + 1, Score: v}
		}
		return out
	}
	pay := upstream.PortfolioScoreHistory{Businesses: []upstream.PortfolioBusinessScores{
		{BusinessID: 1, BusinessName: "A", Scores: months(f(8), upstream.Num[float64]{}, upstream.Num[float64]{}, upstream.Num[float64]{}, upstream.Num[float64]{}, upstream.Num[float64]{}, f(5))},
		{BusinessID: 2, BusinessName: "B", Scores: months(f(3), upstream.Num[float64]{}, upstream.Num[float64]{}, upstream.Num[float64]{}, upstream.Num[float64]{}, upstream.Num[float64]{}, f(7))},
		{BusinessID: 3, BusinessName: "C", Scores: months(upstream.Num[float64]{}, upstream.Num[float64]{})},
		{BusinessID: 4, BusinessName: "D", Scores: months(f(6), f(6))},
		{BusinessID: 6, BusinessName: "F", Scores: months(f(3), upstream.Num[float64]{}, upstream.Num[float64]{}, upstream.Num[float64]{}, upstream.Num[float64]{}, upstream.Num[float64]{}, f(2))},
		{BusinessID: 7, BusinessName: "G", Scores: months(f(6), f(6))},
	}}
	z := upstream.PortfolioScoreHistory{Businesses: []upstream.PortfolioBusinessScores{
		{BusinessID: 1, BusinessName: "A", Scores: months(f(3), f(0.8))},
		{BusinessID: 2, BusinessName: "B", Scores: months(f(4), f(4))},
		{BusinessID: 3, BusinessName: "C", Scores: months(f(1), f(1))},
		{BusinessID: 5, BusinessName: "E", Scores: months(upstream.Num[float64]{})},
		// F's Z″ stops in January, G's Pay in February: old values are
		// never placed as the latest.
		{BusinessID: 6, BusinessName: "F", Scores: months(f(0.5))},
		{BusinessID: 7, BusinessName: "G", Scores: months(f(2), f(2))},
	}}
	v, err := PlaceQuadrants(pay, z, nil)
	if err != nil {
		t.Fatal(err)
	}
	if g := v.Groups[QuadBoth]; len(g.Points) != 1 || g.Points[0].ID != "1" || g.Points[0].PayText != "-3" {
		t.Errorf("both worsening: %+v", g.Points)
	}
	if g := v.Groups[QuadNeither]; len(g.Points) != 1 || g.Points[0].ID != "2" {
		t.Errorf("neither: %+v", g.Points)
	}
	reasons := map[string]string{}
	for _, m := range v.Missing {
		reasons[m.ID] = m.Reason
	}
	if reasons["3"] != "no Pay score: thin trade file" || reasons["4"] != "no Z″: private company" ||
		reasons["5"] != "no Z″ (private company) and no Pay score (thin trade file)" ||
		reasons["6"] != "no Z″ for Feb 2026: the latest is from Jan 2026" ||
		reasons["7"] != "no Pay score for Jul 2026: the latest is from Feb 2026" {
		t.Errorf("missing reasons: %v", reasons)
	}
	if v.Chart.ID != "chart-quadrant" || v.Placed != 2 {
		t.Errorf("chart %q placed %d", v.Chart.ID, v.Placed)
	}
	if v, _ := PlaceQuadrants(pay, z, map[int32]bool{2: true}); v.Placed != 1 || len(v.Missing) != 0 {
		t.Errorf("folder filter: placed %d missing %v", v.Placed, v.Missing)
	}
}

// A business without a name is placed as "Business N", never an empty link.
func TestPlaceQuadrantsNameless(t *testing.T) {
	f := func(v float64) upstream.Num[float64] { return upstream.Some(v) }
	pay := upstream.PortfolioScoreHistory{Businesses: []upstream.PortfolioBusinessScores{{BusinessID: 9, BusinessName: " ", Scores: []upstream.MonthlyScore{
		{Year: 2026, Month: 1, Score: f(8)}, {Year: 2026, Month: 7, Score: f(5)}}}}}
	z := upstream.PortfolioScoreHistory{Businesses: []upstream.PortfolioBusinessScores{{BusinessID: 9, Scores: []upstream.MonthlyScore{
		{Year: 2026, Month: 1, Score: f(3)}, {Year: 2026, Month: 2, Score: f(0.8)}}}}}
	v, err := PlaceQuadrants(pay, z, nil)
	if err != nil {
		t.Fatal(err)
	}
	if g := v.Groups[QuadBoth]; len(g.Points) != 1 || g.Points[0].Name != "Business 9" {
		t.Errorf("placed %+v, want Business 9", g.Points)
	}
}
