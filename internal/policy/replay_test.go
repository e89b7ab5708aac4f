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
	got, err := Replay(h, def, &p, rates, 0.6, ds)
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
	got, _ = Replay(h, def, &p, rates, 0.6, []Decision{{ID: 5, Account: "A", Month: 2, Approved: 20_000, AtOnce: true}})
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
