package credit

import (
	"cmp"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

func ptr[T any](v T) *T { return &v }

// TestPD: the band midpoints, band 5 as the issue states it.
func TestPD(t *testing.T) {
	if pd, ok := PD(5); !ok || math.Abs(pd-0.01135) > 1e-12 {
		t.Errorf("PD(5) = %v, want 0.01135", pd)
	}
	if pd, _ := PD(10); pd != 0.0006 {
		t.Errorf("PD(10) = %v, want 0.0006", pd)
	}
	if _, ok := PD(0); ok {
		t.Error("PD(0) is known")
	}
	if Band(4.6) != 5 || Band(11) != 0 || Band(math.NaN()) != 0 {
		t.Error("Band rounds a score and refuses what is no band")
	}
	if ExpectedLoss(-100, 0.5) != 0 {
		t.Error("a credit balance has an expected loss")
	}
}

// TestCalculateCapsAndRounding: the lowest available cap binds and is
// rounded down to a whole 1,000; skipped caps say why; severe bands and
// distress warn.
func TestCalculateCapsAndRounding(t *testing.T) {
	sheet := SheetCap(Statement{Year: 2025, Equity: ptr(2_000_000.0), WorkingCapital: ptr(900_000.0)})
	if !sheet.Available || sheet.Value != 180_000 {
		t.Fatalf("sheet cap = %+v, want 180,000 (20 %% of 900,000 < 10 %% of 2,000,000)", sheet)
	}
	// trade 60,500 × 2 = 121,000; loss 2,000 / 0.01135 = 176,211.45
	l := Calculate(LimitInputs{MonthlySales: 60_500, MonthsAllowed: 2, LossBudget: 2000}, 5, nil, sheet)
	if !l.Available || l.Recommended != 121_000 || !l.Caps[0].Binds || l.Caps[1].Binds || l.Caps[2].Binds {
		t.Fatalf("limit = %+v, want trade cap 121,000 binding", l)
	}
	l = Calculate(LimitInputs{MonthlySales: 1e6, MonthsAllowed: 2, LossBudget: 1000}, 5, nil, sheet)
	if l.Recommended != 88_000 || !l.Caps[1].Binds || !strings.Contains(l.Caps[1].Rationale, "1.135 %") {
		t.Errorf("loss cap 88,105.7 must bind as 88,000: %+v", l)
	}
	l = Calculate(LimitInputs{}, 0, ptr(0.5), SheetCap(Statement{Problem: "the statements are withheld"}))
	if l.Available || len(l.Warnings) != 1 || !strings.Contains(l.Caps[2].Rationale, "withheld") || !strings.Contains(l.Caps[1].Rationale, "no Risk score") {
		t.Errorf("no caps = %+v", l)
	}
	l = Calculate(LimitInputs{MonthlySales: 999, MonthsAllowed: 1}, 2, ptr(3.0), SheetCap(Statement{Year: 2025, Equity: ptr(1.0)}))
	if l.Recommended != 0 || len(l.Warnings) != 1 || !strings.Contains(l.Warnings[0], "band 2") || !strings.Contains(l.Caps[2].Rationale, "WorkingCapital") {
		t.Errorf("band 2 = %+v", l)
	}
	if neg := SheetCap(Statement{Year: 2025, Equity: ptr(-5.0), WorkingCapital: ptr(10.0)}); neg.Value != 0 || !neg.Available {
		t.Errorf("negative equity = %+v, want a cap of 0", neg)
	}
	if DefaultMonths(ptr(30)) != 2 || DefaultMonths(ptr(45)) != 2.5 || DefaultMonths(nil) != 2 {
		t.Error("months allowed default is terms/30 + 1")
	}
}

// TestBridgeAddsUp: on random ledgers the four parts add up to the change
// exactly, and each part holds what it says.
func TestBridgeAddsUp(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	line := func(i int) BridgeLine {
		// Some accounts share a business, so renumbered ones pair up.
		return BridgeLine{Account: string(rune('A'+i%26)) + string(rune('a'+i/26)), BusinessID: int32(r.IntN(30)),
			Balance: math.Round(r.Float64()*1e6*100) / 100, Band: r.IntN(11)}
	}
	for range 200 {
		var old, cur []BridgeLine
		for i := range 60 {
			if r.IntN(5) > 0 {
				old = append(old, line(i))
			}
			if r.IntN(5) > 0 {
				cur = append(cur, line(i))
			}
		}
		b := NewBridge(old, cur)
		if b.Migration+b.Exposure+b.NewClosed+b.Coverage != b.Change() {
			t.Fatalf("parts %d + %d + %d + %d != change %d", b.Migration, b.Exposure, b.NewClosed, b.Coverage, b.Change())
		}
		if len(b.Movers) > 5 {
			t.Fatalf("%d movers", len(b.Movers))
		}
	}
	// One of each cause.
	old := []BridgeLine{{Account: "mig", Balance: 1000, Band: 5}, {Account: "exp", Balance: 1000, Band: 5},
		{Account: "gone", Balance: 1000, Band: 5}, {Account: "cov", Balance: 1000}}
	cur := []BridgeLine{{Account: "mig", Balance: 1000, Band: 2}, {Account: "exp", Balance: 3000, Band: 5},
		{Account: "new", Balance: 1000, Band: 1}, {Account: "cov", Balance: 1000, Band: 5}}
	b := NewBridge(old, cur)
	want := Bridge{Old: 3 * 1135, New: 6995 + 3*1135 + 29995 + 1135, Migration: 6995 - 1135, Exposure: 2 * 1135, NewClosed: 29995 - 1135, Coverage: 1135}
	if b.Old != want.Old || b.New != want.New || b.Migration != want.Migration || b.Exposure != want.Exposure || b.NewClosed != want.NewClosed || b.Coverage != want.Coverage {
		t.Errorf("bridge = %+v, want %+v", b, want)
	}
	if b.Movers[0].Account != "new" || b.Movers[1].Account != "mig" || b.Movers[1].Cause != "band" {
		t.Errorf("movers = %+v", b.Movers)
	}
}

// TestBridgeRenumberedAccount: one business under another account key
// in the new ledger is the same customer, its change a balance or band
// change, not a new and a closed account; a second key of a business whose
// old key stays is a new account, and unlinked keys never pair.
func TestBridgeRenumberedAccount(t *testing.T) {
	old := []BridgeLine{{Account: "C10056", BusinessID: 1009, Balance: 1000, Band: 5},
		{Account: "C1", BusinessID: 1001, Balance: 1000, Band: 5}, {Account: "U1", Balance: 1000, Band: 5}}
	cur := []BridgeLine{{Account: "C20056", BusinessID: 1009, Balance: 3000, Band: 5},
		{Account: "C1", BusinessID: 1001, Balance: 1000, Band: 5}, {Account: "C2", BusinessID: 1001, Balance: 1000, Band: 5},
		{Account: "U2", Balance: 1000, Band: 5}}
	b := NewBridge(old, cur)
	// 1009: exposure +2 × 1135; C2: new +1135; U1 closed, U2 new: 0.
	if b.Exposure != 2*1135 || b.NewClosed != 1135 || b.Migration != 0 || b.Coverage != 0 {
		t.Errorf("bridge = %+v, want exposure %d and new/closed %d", b, 2*1135, 1135)
	}
	for _, m := range b.Movers {
		if m.Account == "C20056" && m.Cause != "balance" {
			t.Errorf("the renumbered account's cause = %q, want balance", m.Cause)
		}
		if m.Account == "C10056" {
			t.Errorf("the renumbered account's old key is a mover: %+v", m)
		}
	}
}

// TestSummarise: exposure apart for unscored accounts, the top ten's
// share and the Herfindahl index.
func TestSummarise(t *testing.T) {
	var ps []Position
	for i := range 20 {
		ps = append(ps, Position{Account: string(rune('a' + i)), Balance: 100, Band: 5, ZZone: "safe"})
	}
	ps = append(ps, Position{Account: "u", Balance: 2000}, Position{Account: "c", Balance: -50, Band: 1})
	s := Summarise(ps)
	if s.Exposure != 4000 || s.Unscored != 2000 || s.UnscoredAccounts != 1 || math.Abs(s.ExpectedLoss-2000*0.01135) > 1e-9 {
		t.Errorf("summary = %+v", s)
	}
	if math.Abs(s.Top10Share-(2000+900)/4000.0) > 1e-12 {
		t.Errorf("top 10 share = %v", s.Top10Share)
	}
	if want := 0.25 + 20*(0.025*0.025); math.Abs(s.Herfindahl-want) > 1e-12 {
		t.Errorf("Herfindahl = %v, want %v", s.Herfindahl, want)
	}
	bands := s.Breakdowns[0]
	if bands.Groups[0].Name != "Risk 1" || bands.Groups[len(bands.Groups)-1].Name != "no score" {
		t.Errorf("band groups = %+v", bands.Groups)
	}
}

// TestBridgeMoversAreTheFiveLargest checks the five movers against every
// account's part sorted, on enough accounts that most are passed over.
func TestBridgeMoversAreTheFiveLargest(t *testing.T) {
	var old, cur []BridgeLine
	for i := range 300 {
		acc := fmt.Sprintf("A%03d", i)
		bal := float64((i * 7919) % 10_000)
		if i%7 != 0 {
			old = append(old, BridgeLine{Account: acc, Balance: bal, Band: 1 + i%10})
		}
		if i%11 != 0 {
			cur = append(cur, BridgeLine{Account: acc, Balance: bal + float64(i%5)*1000, Band: 1 + (i/3)%10})
		}
	}
	var all []Mover
	for _, l := range cur {
		same := slices.DeleteFunc(slices.Clone(old), func(o BridgeLine) bool { return o.Account != l.Account })
		all = append(all, NewBridge(same, []BridgeLine{l}).Movers...)
	}
	for _, o := range old {
		if !slices.ContainsFunc(cur, func(l BridgeLine) bool { return l.Account == o.Account }) {
			all = append(all, NewBridge([]BridgeLine{o}, nil).Movers...)
		}
	}
	slices.SortStableFunc(all, func(x, y Mover) int {
		return cmp.Or(cmp.Compare(abs(y.Change), abs(x.Change)), cmp.Compare(x.Account, y.Account))
	})
	b := NewBridge(old, cur)
	if len(all) < 50 || len(b.Movers) != 5 {
		t.Fatalf("%d movers of %d, want 5 of many", len(b.Movers), len(all))
	}
	for i, m := range b.Movers {
		if m != all[i] {
			t.Errorf("mover %d is %+v, want %+v", i, m, all[i])
		}
	}
}
