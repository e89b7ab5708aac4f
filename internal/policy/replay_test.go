package policy

import (
	"math"
	"testing"
)

// TestReplayByHand: two decisions replayed by hand. A (clean) was given
// 60,000 at once: class "good" allows at most 50,000 and 20,000 at once,
// so the policy lowers it by 10,000 (expected loss 10,000 × 10 % × 60 % =
// 600) and sends it to a second person. B (20 % over 90 days) was given
// 5,000 by a second person: class "bad" gives no credit, so the whole
// 5,000 goes (5,000 × 50 % × 60 % = 1,500); B defaults the month after
// owing 4,000, so 4,000 × 60 % = 2,400 would have been avoided. A decision
// before the history and one of an unknown account are left out.
func TestReplayByHand(t *testing.T) {
	h := &History{Months: []int{202401, 202402, 202403, 202404}, Accounts: []string{"A", "B"}}
	for m := range 4 {
		a := Blank()
		a.Account, a.Balance, a.Current = 0, 1000, 1000
		b := Blank()
		b.Account, b.Balance = 1, 4000
		b.Over90 = []float64{0, 800, 1200, 1200}[m]
		b.Current = b.Balance - b.Over90
		h.Lines = append(h.Lines, []Line{a, b})
	}
	p := Policy{
		Scorecard: Scorecard{Factors: []Factor{{Kind: FactorOver90, Edges: []float64{0.10}, Points: []int{10, 0}}},
			Classes: []Class{{"good", 5}, {"bad", math.MinInt32}}},
		Limits: []LimitRule{{Class: "good", Cap: CapRecommended, Share: 1, Max: 50_000, AtOnce: 20_000}, {Class: "bad", Cap: CapRecommended}},
	}
	rates := []ClassRate{{Class: "good", Observations: 10, Bads: 1}, {Class: "bad", Observations: 4, Bads: 2}}
	def := Definition{Over90: 0.25, Horizon: 2}
	ds := []Decision{
		{ID: 1, Account: "A", Month: 0, Approved: 60_000, AtOnce: true},
		{ID: 2, Account: "B", Month: 1, Approved: 5_000},
		{ID: 3, Account: "A", Month: -1, Approved: 1},
		{ID: 4, Account: "Z", Month: 2, Approved: 1},
	}
	got, err := Replay(h, def, &p, rates, 0.6, ds, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 {
		t.Fatalf("replayed %d decisions, want 2: %+v", len(got), got)
	}
	a, b := got[0], got[1]
	if a.Class != 0 || a.Score != 10 || a.Ceiling != 50_000 || a.Limit != 50_000 || !a.FourEyes || !a.Reduced() ||
		!near(a.PD, 0.1) || !near(a.ExpectedLoss, 600) || a.Defaulted || a.Avoided != 0 {
		t.Errorf("A: %+v", a)
	}
	if b.Class != 1 || b.Ceiling != 0 || b.Limit != 0 || b.FourEyes || !b.Changed() ||
		!near(b.PD, 0.5) || !near(b.ExpectedLoss, 1500) || !b.Defaulted || !near(b.Avoided, 2400) {
		t.Errorf("B: %+v", b)
	}
	// A decision within every rule is not changed.
	got, _ = Replay(h, def, &p, rates, 0.6, []Decision{{ID: 5, Account: "A", Month: 2, Approved: 20_000, AtOnce: true}}, nil)
	if len(got) != 1 || got[0].Changed() || got[0].ExpectedLoss != 0 {
		t.Errorf("a decision the policy allows: %+v", got)
	}
	// A table's ceiling is its largest limit; a share without maximum
	// has none.
	tp := Policy{Limits: []LimitRule{{Cap: CapTable, Upto: []float64{10, 20}, Limits: []float64{5, 9}}, {Cap: CapTrade, Share: 0.5}}}
	if c := tp.Ceiling(0); c != 9 {
		t.Errorf("table ceiling %v, want 9", c)
	}
	if c := tp.Ceiling(1); !math.IsInf(c, 1) {
		t.Errorf("share without maximum: ceiling %v, want none", c)
	}
}

// TestReplayRebuildsTheDaysFigures: a rule taking half the trade cap,
// with no maximum, sets no ceiling; with the calculator's figures of each
// decision's day rebuilt it caps. A (Risk 8 at January's end) was given
// 30,000 at once in February when its trade cap was 40,000: the policy
// gives 20,000, so 10,000 less (× 10 % × 50 % = 500) and a second
// person. A decision whose day kept no figures falls back on the ceiling
// (none here) and is told apart; one whose figures were kept but whose
// trade cap was not worked out is not lowered but goes to a second
// person, as the decision path sends it.
func TestReplayRebuildsTheDaysFigures(t *testing.T) {
	h := &History{Months: []int{202401, 202402, 202403}, Accounts: []string{"A"}}
	for range 3 {
		a := Blank()
		a.Account, a.Balance, a.Current, a.Risk = 0, 1000, 1000, 8
		h.Lines = append(h.Lines, []Line{a})
	}
	p := Policy{
		Scorecard: Scorecard{Factors: []Factor{{Kind: FactorRisk, Edges: []float64{5}, Points: []int{0, 10}}}, Classes: []Class{{"only", math.MinInt32}}},
		Limits:    []LimitRule{{Class: "only", Cap: CapTrade, Share: 0.5, AtOnce: 50_000}},
	}
	rates := []ClassRate{{Class: "only", Observations: 10, Bads: 1}}
	def := Definition{Over90: 0.25, Horizon: 2}
	ds := []Decision{
		{ID: 1, Account: "A", Month: 0, Approved: 30_000, AtOnce: true},
		{ID: 2, Account: "A", Month: 1, Approved: 30_000, AtOnce: true},
		{ID: 3, Account: "A", Month: 1, Approved: 30_000, AtOnce: true},
	}
	nan := math.NaN()
	var risks []int8
	figures := func(d *Decision, l *Line) (CalcFigures, bool) {
		risks = append(risks, l.Risk)
		switch d.ID {
		case 1:
			return CalcFigures{Recommended: 40_000, Trade: 40_000, Loss: nan, Sheet: nan, MonthlySales: 20_000}, true
		case 3:
			return CalcFigures{Recommended: nan, Trade: nan, Loss: nan, Sheet: nan, MonthlySales: nan}, true
		}
		return CalcFigures{}, false
	}
	none, err := Replay(h, def, &p, rates, 0.5, ds[:1], nil)
	if err != nil || len(none) != 1 || none[0].Changed() || none[0].Kept || !math.IsInf(none[0].Ceiling, 1) {
		t.Fatalf("without the day's figures: %+v, %v", none, err)
	}
	got, err := Replay(h, def, &p, rates, 0.5, ds, figures)
	if err != nil || len(got) != 3 {
		t.Fatalf("replayed %+v, %v", got, err)
	}
	if a := got[0]; !a.Kept || !a.Worked || a.PolicyLimit != 20_000 || a.Limit != 20_000 || !a.Reduced() || !a.FourEyes || !near(a.ExpectedLoss, 500) {
		t.Errorf("with the day's figures: %+v", a)
	}
	if b := got[1]; b.Kept || b.Changed() || b.Limit != 30_000 {
		t.Errorf("figures not kept: %+v", b)
	}
	if c := got[2]; !c.Kept || c.Worked || c.Reduced() || !c.FourEyes || c.ExpectedLoss != 0 {
		t.Errorf("figures kept, trade cap not worked out: %+v", c)
	}
	if len(risks) != 3 || risks[0] != 8 {
		t.Errorf("the figures read the month-end's line: Risk %v", risks)
	}
}
