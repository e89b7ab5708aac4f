package policy

import (
	"encoding/json"
	"errors"
	"math"
	"slices"
	"strconv"
)

// The team's credit policy (issue 45, point 3): a scorecard with its
// classes, a limit rule per class, and up to what amount a limit may be
// decided at once in each class. It is data, kept as versions by the
// store (as JSON) and put in force by a second manager; these are its
// rules, read by the pages and the decision path alike.

// Caps a limit formula may take from the limit calculator
// (internal/credit): its recommendation or one of its caps.
const (
	CapRecommended = "recommended"
	CapTrade       = "trade"
	CapLoss        = "loss"
	CapSheet       = "sheet"
	// CapTable is not a cap: the class's limit comes from its table by
	// monthly sales.
	CapTable = "table"
)

// Caps are the formulas' figures, in the form's order.
var Caps = []string{CapRecommended, CapTrade, CapLoss, CapSheet, CapTable}

// LimitRule is one class's limit: Share of a calculator figure (Cap),
// at most Max (0: no maximum); or, with Cap CapTable, a table by the
// account's monthly sales: sales up to Upto[i] get Limits[i], sales
// above the last the last limit.
type LimitRule struct {
	Class  string    `json:"class"`
	Cap    string    `json:"cap"`
	Share  float64   `json:"share,omitempty"`
	Max    float64   `json:"max,omitempty"`
	Upto   []float64 `json:"upto,omitempty"`
	Limits []float64 `json:"limits,omitempty"`
	// AtOnce is the largest limit of the class a requester may have
	// decided at once (within their authority too); above it, a second
	// person decides. 0: every limit of the class needs four eyes.
	AtOnce float64 `json:"at_once"`
}

// Policy is one version of the team's credit policy.
type Policy struct {
	Scorecard Scorecard `json:"scorecard"`
	// Limits are one rule per class of the scorecard, in its order.
	Limits []LimitRule `json:"limits"`
	// DefaultOver90 is the team's default share in percent (25 is 25 %):
	// an account is in default at a month-end when more than this share
	// of its balance is over 90 days past due. A version saved before the
	// policy had the field reads as DefaultShare.
	DefaultOver90 float64 `json:"default_over90_pct,omitempty"`
}

// DefaultShare is the default share in percent of a version that names
// none.
const DefaultShare = 25

// Definition is the default definition of the version: its share, the
// standard horizon.
func (p *Policy) Definition() Definition {
	return Definition{Over90: p.DefaultPercent() / 100, Horizon: StandardDefinition.Horizon}
}

// DefaultPercent is the version's default share in percent.
func (p *Policy) DefaultPercent() float64 {
	if p.DefaultOver90 == 0 {
		return DefaultShare
	}
	return p.DefaultOver90
}

// Starting is the policy a manager's first edit starts from: the
// starting scorecard, each class's limit the calculator's recommendation
// (never more than 250,000 in D, none in E), decided at once up to
// amounts falling with the class.
func Starting() Policy {
	p := Policy{Scorecard: StartingScorecard, DefaultOver90: DefaultShare}
	atOnce := []float64{100_000, 50_000, 25_000, 10_000, 0}
	for i, c := range StartingScorecard.Classes {
		r := LimitRule{Class: c.Name, Cap: CapRecommended, Share: 1, AtOnce: atOnce[min(i, len(atOnce)-1)]}
		switch c.Name {
		case "D":
			r.Max = 250_000
		case "E":
			r.Share = 0
		}
		p.Limits = append(p.Limits, r)
	}
	return p
}

// Check refuses a policy that cannot be applied: a scorecard that cannot
// score, a class without its rule, a rule that cannot give a limit.
func (p *Policy) Check() error {
	if err := p.Scorecard.Check(); err != nil {
		return err
	}
	if d := p.DefaultOver90; d != 0 && !(d >= 1 && d <= 100) {
		return errors.New("policy: the default share is a percentage from 1 to 100")
	}
	if len(p.Limits) != len(p.Scorecard.Classes) {
		return errors.New("policy: one limit rule per class")
	}
	for i, r := range p.Limits {
		if r.Class != p.Scorecard.Classes[i].Name {
			return errors.New("policy: the limit rules follow the classes' order")
		}
		bad := func(v float64) bool { return math.IsNaN(v) || math.IsInf(v, 0) || v < 0 || v > 1e15 }
		switch {
		case !slices.Contains(Caps, r.Cap):
			return errors.New("policy: class " + r.Class + "'s limit takes no figure " + strconv.Quote(r.Cap))
		case bad(r.Share) || r.Share > 10 || bad(r.Max) || bad(r.AtOnce):
			return errors.New("policy: class " + r.Class + "'s share, maximum and at-once amount are positive amounts")
		case r.Cap == CapTable && (len(r.Upto) == 0 || len(r.Upto) != len(r.Limits)):
			return errors.New("policy: class " + r.Class + "'s table needs a limit for each sales step")
		}
		for k := range r.Upto {
			if bad(r.Upto[k]) || bad(r.Limits[k]) || k > 0 && !(r.Upto[k] > r.Upto[k-1]) {
				return errors.New("policy: class " + r.Class + "'s sales steps must rise, with positive limits")
			}
		}
	}
	return nil
}

// Parse reads a stored version and checks it.
func Parse(body []byte) (Policy, error) {
	var p Policy
	if err := json.Unmarshal(body, &p); err != nil {
		return p, errors.New("policy: a stored version does not read: " + err.Error())
	}
	return p, p.Check()
}

// Marshal is the version as the store keeps it.
func (p *Policy) Marshal() ([]byte, error) { return json.Marshal(p) }

// CalcFigures are the calculator's figures the limit formulas read; a cap
// not worked out is NaN.
type CalcFigures struct {
	Recommended, Trade, Loss, Sheet float64
	// MonthlySales are the account's saved monthly sales (NaN unknown).
	MonthlySales float64
}

// Limit is class i's limit for an account: ok is false when the figure
// its rule needs is not known.
func (p *Policy) Limit(i int, f CalcFigures) (float64, bool) {
	r := p.Limits[i]
	var v float64
	switch r.Cap {
	case CapTable:
		if math.IsNaN(f.MonthlySales) {
			return 0, false
		}
		k := 0
		for k < len(r.Upto)-1 && f.MonthlySales > r.Upto[k] {
			k++
		}
		return r.Limits[k], true
	case CapTrade:
		v = f.Trade
	case CapLoss:
		v = f.Loss
	case CapSheet:
		v = f.Sheet
	default:
		v = f.Recommended
	}
	if math.IsNaN(v) {
		return 0, false
	}
	v = math.Max(v*r.Share, 0)
	if r.Max > 0 {
		v = math.Min(v, r.Max)
	}
	return math.Floor(v), true
}

// AtOnce says whether a limit of amount in class i may be decided at once
// (the requester's authority aside); the largest such amount comes with
// it.
func (p *Policy) AtOnce(i int, amount float64) (bool, float64) {
	max := p.Limits[i].AtOnce
	return amount <= max && max > 0, max
}

// Values are one account's factor values now, NaN when not known.
type Values struct {
	Risk, Pay, DBT, Z float64
	// Balance and the aging are the newest ledger's; Limit the limit in
	// force (NaN none); Before the balance three months earlier (NaN
	// unknown); Years as a customer (NaN unknown).
	Balance, Days1to30, Days31to60, Days61to90, Over90 float64
	Limit, Before, Years                               float64
}

// Classify scores an account now and names its class (index into the
// scorecard's classes).
func (s *Scorecard) Classify(v Values) (score, class int) {
	l := Blank()
	l.Balance, l.Days1to30, l.Days31to60, l.Days61to90, l.Over90, l.Limit = v.Balance, v.Days1to30, v.Days31to60, v.Days61to90, v.Over90, v.Limit
	l.Z = float32(v.Z)
	if !math.IsNaN(v.Risk) {
		l.Risk = int8(math.Round(math.Min(math.Max(v.Risk, 1), 10)))
	}
	if !math.IsNaN(v.Pay) {
		l.Pay = int8(math.Round(math.Min(math.Max(v.Pay, 1), 10)))
	}
	if !math.IsNaN(v.DBT) {
		l.DBT = int16(math.Round(math.Min(math.Max(v.DBT, 0), 999)))
	}
	var before *Line
	if !math.IsNaN(v.Before) {
		b := Blank()
		b.Balance = v.Before
		before = &b
	}
	f := featuresOf(&l, before, 0, 0)
	f[7] = v.Years
	for i := range s.Factors {
		score += s.Factors[i].points(f[factorValue[s.Factors[i].Kind]])
	}
	return score, classOf(s.Classes, score)
}
