package policy

import (
	"encoding/json"
	"math"
	"slices"
	"testing"
)

// shareHistory is 14 month-ends of four accounts owing 100 each, all
// current but for the last month-end, when A owes 20 past 90 days, B 30,
// C 60; D stays current but files in month 13.
func shareHistory() *History {
	l := func(a int32, over90 float64) Line {
		return Line{Account: a, Balance: 100, Current: 100 - over90, Over90: over90, Limit: math.NaN(), Z: float32(math.NaN()), Risk: 5, Pay: Missing, DBT: -1}
	}
	h := &History{Accounts: []string{"A", "B", "C", "D"}, Filed: []int{-1, -1, -1, 13}}
	for m := range 14 {
		h.Months = append(h.Months, 202401+m%12+m/12*100)
		if m < 13 {
			h.Lines = append(h.Lines, []Line{l(0, 0), l(1, 0), l(2, 0), l(3, 0)})
		} else {
			h.Lines = append(h.Lines, []Line{l(0, 20), l(1, 30), l(2, 60), l(3, 0)})
		}
	}
	return h
}

// defaulted are the accounts scored bad at the second month-end, whose
// twelve-month window reaches the last, under p's definition.
func defaulted(t *testing.T, p Policy) []string {
	t.Helper()
	rep, err := Validate(shareHistory(), p.Definition(), []Model{ScoreModel("risk", "Risk", FactorRisk)})
	if err != nil {
		t.Fatal(err)
	}
	var bad []string
	for _, o := range rep.Results[0].Obs {
		if o.Month == 1 && o.Bad {
			bad = append(bad, shareHistory().Accounts[o.Account])
		}
	}
	slices.Sort(bad)
	return bad
}

// TestPolicyDefaultShare: the policy's share decides which accounts
// default (a filing always does); a version stored without a share reads
// as 25 %; a share outside 1–100 % is refused.
func TestPolicyDefaultShare(t *testing.T) {
	p := Starting()
	for _, c := range []struct {
		share float64
		want  []string
	}{
		{25, []string{"B", "C", "D"}},
		{10, []string{"A", "B", "C", "D"}},
		{50, []string{"C", "D"}},
		{60, []string{"D"}},
		{12.5, []string{"A", "B", "C", "D"}},
	} {
		p.DefaultOver90 = c.share
		if got := defaulted(t, p); !slices.Equal(got, c.want) {
			t.Errorf("share %v %%: defaults %v, want %v", c.share, got, c.want)
		}
	}

	// A version saved before the policy had a share.
	old := Starting()
	old.DefaultOver90 = 0
	body, err := json.Marshal(old)
	if err != nil {
		t.Fatal(err)
	}
	read, err := Parse(body)
	if err != nil || read.Definition() != (Definition{Over90: 0.25, Horizon: 12}) {
		t.Errorf("a version without a share reads as %+v, %v; want 25 %% within 12 months", read.Definition(), err)
	}
	p.DefaultOver90 = 30
	body, _ = p.Marshal()
	if read, err := Parse(body); err != nil || read.DefaultOver90 != 30 {
		t.Errorf("a share of 30 %% reads back as %v, %v", read.DefaultOver90, err)
	}
	for _, bad := range []float64{0.5, 100.5, -3} {
		p.DefaultOver90 = bad
		if err := p.Check(); err == nil {
			t.Errorf("a share of %v %% was accepted", bad)
		}
	}
}
