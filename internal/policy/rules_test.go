package policy

import (
	"math"
	"testing"
)

// TestPolicyRules: the starting policy checks and survives its stored
// form; a limit is the share of its figure within the maximum, or the
// table's step; unknown figures give no limit; the at-once amount is
// inclusive; a broken policy is refused with its reason.
func TestPolicyRules(t *testing.T) {
	p := Starting()
	if err := p.Check(); err != nil {
		t.Fatal(err)
	}
	b, err := p.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	back, err := Parse(b)
	if err != nil || len(back.Limits) != 5 || back.Scorecard.Classes[4].Min != math.MinInt32 {
		t.Fatalf("Parse(Marshal) = %+v, %v", back, err)
	}
	nan := math.NaN()
	f := CalcFigures{Recommended: 400_000.7, Trade: 90_000, Loss: nan, Sheet: nan, MonthlySales: 120_000}
	if v, ok := p.Limit(0, f); !ok || v != 400_000 {
		t.Errorf("class A's limit = %v, %v; want 400,000", v, ok)
	}
	if v, ok := p.Limit(3, f); !ok || v != 250_000 {
		t.Errorf("class D's limit = %v, %v; want the maximum 250,000", v, ok)
	}
	p.Limits[1] = LimitRule{Class: "B", Cap: CapTable, Upto: []float64{50_000, 200_000}, Limits: []float64{10_000, 40_000}, AtOnce: 20_000}
	p.Limits[2].Cap = CapLoss
	if err := p.Check(); err != nil {
		t.Fatal(err)
	}
	if v, ok := p.Limit(1, f); !ok || v != 40_000 {
		t.Errorf("class B's table at 120,000 sales = %v, %v; want 40,000", v, ok)
	}
	if _, ok := p.Limit(2, f); ok {
		t.Error("class C's loss cap is unknown, yet a limit came out")
	}
	if ok, max := p.AtOnce(1, 20_000); !ok || max != 20_000 {
		t.Errorf("20,000 in B at once = %v (%v)", ok, max)
	}
	if ok, _ := p.AtOnce(1, 20_000.01); ok {
		t.Error("above the at-once amount decided at once")
	}
	if ok, _ := p.AtOnce(4, 1); ok {
		t.Error("class E decides at once")
	}
	p.Limits[1].Upto = []float64{200_000, 50_000}
	if err := p.Check(); err == nil {
		t.Error("falling sales steps checked")
	}
	p = Starting()
	p.Limits = p.Limits[:4]
	if err := p.Check(); err == nil {
		t.Error("a class without its rule checked")
	}
}

// TestClassify: the scorecard's score of an account today is the sum of
// its factors' points, missing values earning their missing points.
func TestClassify(t *testing.T) {
	s := Scorecard{Factors: []Factor{
		{Kind: FactorRisk, Edges: []float64{5}, Points: []int{0, 10}, Missing: 3},
		{Kind: FactorOver90, Edges: []float64{0.1}, Points: []int{8, 0}, Missing: 4},
		{Kind: FactorYears, Edges: []float64{2}, Points: []int{0, 5}, Missing: 1},
	}, Classes: []Class{{"A", 20}, {"B", 10}, {"C", math.MinInt32}}}
	nan := math.NaN()
	v := Values{Risk: 7, Pay: nan, DBT: nan, Z: nan, Balance: 1000, Over90: 50, Limit: nan, Before: nan, Years: 3}
	if score, class := s.Classify(v); score != 23 || class != 0 {
		t.Errorf("score, class = %d, %d; want 23, A", score, class)
	}
	v.Risk, v.Over90, v.Years = nan, 500, nan
	if score, class := s.Classify(v); score != 4 || class != 2 {
		t.Errorf("with Risk and years missing and half over 90: %d, %d; want 4, C", score, class)
	}
}
