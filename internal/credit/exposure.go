package credit

import (
	"cmp"
	"math"
	"slices"
	"strconv"
)

// Position is one account as the exposure pages count it.
type Position struct {
	Account string
	Name    string
	Balance float64
	// Band is the Risk band, 0 when no score is known.
	Band int
	// Default is set for an account in default: its PD is 1 and its
	// loss LGD of its exposure, whatever its band.
	Default bool
	LGD     float64
	// ZZone, Industry and Folder group the account; "" is unknown.
	ZZone, Industry, Folder string
}

// pd is the position's loss per unit of exposure: LGD in default, else
// its band's PD.
func (p Position) pd() (float64, bool) {
	if p.Default {
		return p.LGD, true
	}
	return PD(p.Band)
}

// Group is one row of a breakdown.
type Group struct {
	Name     string
	Accounts int
	// Scored counts the accounts with a known Risk score: with none, the
	// group's expected loss is unknown, not zero.
	Scored       int
	Exposure     float64
	ExpectedLoss float64
	// Share is the group's exposure over the total exposure.
	Share float64
}

// Breakdown is the portfolio's exposure cut one way.
type Breakdown struct {
	Dimension string
	Groups    []Group
}

// Summary is the exposure page's figures.
type Summary struct {
	Accounts int
	// Balance is the sum of the balances; Exposure counts a credit balance
	// (money owed to the customer) as nothing owed, so it is the larger
	// when some account is in credit.
	Balance      float64
	Exposure     float64
	ExpectedLoss float64
	// Unscored is the exposure of accounts without a known Risk score,
	// counted apart: its expected loss is unknown, not zero.
	Unscored         float64
	UnscoredAccounts int
	// Top10Share is the ten largest exposures' share of the total.
	Top10Share float64
	// Herfindahl is the sum of squared shares of each account's
	// exposure: 1 is one account, 1/n is n equal ones.
	Herfindahl float64
	Breakdowns []Breakdown
}

// ELKnown reports whether some account of the summary has a known Risk
// score, so that its expected loss means something.
func (s Summary) ELKnown() bool { return s.UnscoredAccounts < s.Accounts }

// Unknown names the group of accounts without the dimension's value.
const Unknown = "not known"

// Summarise counts the positions by Risk band, Z″ zone, industry and
// folder.
func Summarise(ps []Position) Summary {
	var s Summary
	s.Accounts = len(ps)
	exps := make([]float64, 0, len(ps))
	for _, p := range ps {
		e := Exposure(p.Balance)
		exps = append(exps, e)
		s.Balance += p.Balance
		s.Exposure += e
		if pd, ok := p.pd(); ok {
			s.ExpectedLoss += e * pd
		} else {
			s.Unscored += e
			s.UnscoredAccounts++
		}
	}
	if s.Exposure > 0 {
		slices.SortFunc(exps, func(a, b float64) int { return cmp.Compare(b, a) })
		var top float64
		for i, e := range exps {
			if i < 10 {
				top += e
			}
			sh := e / s.Exposure
			s.Herfindahl += sh * sh
		}
		s.Top10Share = top / s.Exposure
	}
	s.Breakdowns = []Breakdown{
		breakdown("risk_band", ps, s.Exposure, func(p Position) string { return BandName(p.Band) }, bandOrder),
		breakdown("z_zone", ps, s.Exposure, func(p Position) string { return p.ZZone }, zOrder),
		breakdown("industry", ps, s.Exposure, func(p Position) string { return p.Industry }, nil),
		breakdown("folder", ps, s.Exposure, func(p Position) string { return p.Folder }, nil),
	}
	return s
}

// bandOrder puts bands worst first, "no score" last.
func bandOrder(a, b Group) int { return cmp.Compare(rank(a.Name), rank(b.Name)) }

func rank(name string) int {
	for i := 1; i <= 10; i++ {
		if name == BandName(i) {
			return i
		}
	}
	return 99
}

// BandName names a band's group: "Risk 5", or "no score".
func BandName(band int) string {
	if band == 0 {
		return "no score"
	}
	return "Risk " + strconv.Itoa(band)
}

// zOrder: distress, grey, safe, then unknown.
func zOrder(a, b Group) int {
	r := map[string]int{"distress": 1, "grey": 2, "safe": 3}
	ra, rb := r[a.Name], r[b.Name]
	if ra == 0 {
		ra = 99
	}
	if rb == 0 {
		rb = 99
	}
	return cmp.Compare(ra, rb)
}

// breakdown groups positions by key; groups are ordered by order, or by
// exposure, largest first.
func breakdown(dim string, ps []Position, total float64, key func(Position) string, order func(a, b Group) int) Breakdown {
	idx := map[string]int{}
	var gs []Group
	for _, p := range ps {
		k := key(p)
		if k == "" {
			k = Unknown
		}
		i, ok := idx[k]
		if !ok {
			i = len(gs)
			idx[k] = i
			gs = append(gs, Group{Name: k})
		}
		e := Exposure(p.Balance)
		gs[i].Accounts++
		gs[i].Exposure += e
		if pd, ok := p.pd(); ok {
			gs[i].ExpectedLoss += e * pd
			gs[i].Scored++
		}
	}
	for i := range gs {
		if total > 0 {
			gs[i].Share = gs[i].Exposure / total
		}
	}
	if order == nil {
		order = func(a, b Group) int { return cmp.Or(cmp.Compare(b.Exposure, a.Exposure), cmp.Compare(a.Name, b.Name)) }
	}
	slices.SortStableFunc(gs, order)
	return Breakdown{Dimension: dim, Groups: gs}
}

// Cents rounds an amount to whole cents, as the bridge adds them.
func Cents(v float64) int64 { return int64(math.Round(v * 100)) }
