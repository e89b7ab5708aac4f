package credit

import (
	"math"
	"strings"
	"testing"

	"creditdash/internal/policy"
	"creditdash/internal/store"
)

// TestApplyPolicy: the account's class picks its rule; a share of a cap
// within its maximum, a table's step by monthly sales, or no limit when
// the figure is not worked out, each traced in its rationale; a request
// keeps the limit and decides by it.
func TestApplyPolicy(t *testing.T) {
	p := policy.Policy{Scorecard: policy.Scorecard{
		Factors: []policy.Factor{{Kind: policy.FactorRisk, Edges: []float64{5}, Points: []int{0, 10}, Missing: 0}},
		Classes: []policy.Class{{Name: "A", Min: 10}, {Name: "B", Min: -1 << 31}},
	}, Limits: []policy.LimitRule{
		{Class: "A", Cap: policy.CapTrade, Share: 0.5, Max: 30_000, AtOnce: 20_000},
		{Class: "B", Cap: policy.CapTable, Upto: []float64{10_000, 50_000}, Limits: []float64{5_000, 15_000}, AtOnce: 5_000},
	}}
	if err := p.Check(); err != nil {
		t.Fatal(err)
	}
	safe := Figures{Risk: &store.KnownScore{Value: 8}}
	calc := Calculate(LimitInputs{MonthlySales: 40_000, MonthsAllowed: 2}, 8, nil, Cap{Name: "Balance-sheet cap"})
	pl := ApplyPolicy(&p, 3, &safe, calc, 40_000)
	if pl.Class != "A" || !pl.Known || pl.Limit != 30_000 || !strings.Contains(pl.Rationale, "Policy version 3, class A (score 10): 50 % of the trade cap (80,000), at most 30,000 = 30,000.") {
		t.Errorf("class A: %+v", pl)
	}
	if r := pl.Request(); r.Version != 3 || r.Limit != 30_000 || !r.LimitKnown || r.Max != 20_000 || r.Note != pl.Rationale {
		t.Errorf("as a request keeps it: %+v", r)
	}
	if !pl.Within(30_000) || pl.Within(30_001) {
		t.Error("Within is not at most the limit")
	}
	pl = ApplyPolicy(&p, 3, &safe, Limit{}, 0)
	if pl.Known || !strings.Contains(pl.Rationale, "not worked out") || pl.Within(0) {
		t.Errorf("no trade cap: %+v", pl)
	}
	risky := Figures{Risk: &store.KnownScore{Value: 2}}
	pl = ApplyPolicy(&p, 3, &risky, calc, 40_000)
	if pl.Class != "B" || pl.Limit != 15_000 || !strings.Contains(pl.Rationale, "monthly sales of 40,000 fall in the table's step up to 50,000: 15,000.") {
		t.Errorf("class B at 40,000 sales: %+v", pl)
	}
	if pl = ApplyPolicy(&p, 3, &risky, calc, 90_000); pl.Limit != 15_000 || !strings.Contains(pl.Rationale, "step above 50,000") {
		t.Errorf("class B above the last step: %+v", pl)
	}
	if pl = ApplyPolicy(&p, 3, &risky, calc, 0); pl.Known || !strings.Contains(pl.Rationale, "no monthly sales are given") {
		t.Errorf("class B without sales: %+v", pl)
	}
}

// TestFiguresAsOf: the figures rebuilt for a past day from the inputs
// saved then and the Risk known then are the calculator's figures on the
// account with those inputs and that Risk; with no Risk the loss cap is
// not worked out.
func TestFiguresAsOf(t *testing.T) {
	in := &store.LimitInputs{MonthlySales: 20_000, MonthsAllowed: 2, LossBudget: 1_000, SheetCap: ptr(55_000.0)}
	a := store.Account{Inputs: in}
	a.BusinessID = 1001
	f := NewFigures(a, map[store.Score]store.KnownScore{store.ScoreRisk: {Value: 6}})
	got := FiguresAsOf(in, 6)
	if want := calcFigures(f.Calc, in.MonthlySales); got != want {
		t.Errorf("rebuilt %+v, the calculator's %+v", got, want)
	}
	pd, _ := PD(6)
	if got.Trade != 40_000 || got.Sheet != 55_000 || got.Loss != 1_000/pd || got.Recommended != RoundDown(min(40_000, 1_000/pd)) || got.MonthlySales != 20_000 {
		t.Errorf("by hand: %+v", got)
	}
	if nr := FiguresAsOf(in, math.NaN()); !math.IsNaN(nr.Loss) || nr.Recommended != 40_000 {
		t.Errorf("no Risk known: %+v", nr)
	}
}
