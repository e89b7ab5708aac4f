package policy

import (
	"errors"
	"math"
)

// Factor kinds a scorecard reads: four from the service, five from the
// team's own ledger.
const (
	FactorRisk        = "risk"              // the service's Risk score, 1–10
	FactorPay         = "pay"               // the service's Pay score, 1–10
	FactorDBT         = "dbt"               // the service's days beyond terms
	FactorZ           = "z"                 // the service's Z″
	FactorDaysBeyond  = "days_beyond_terms" // the ledger's, from its aging
	FactorOver90      = "share_over_90"     // of the balance, 0–1
	FactorUtilisation = "utilisation"       // balance over the limit in force
	FactorYears       = "years_as_customer" // since the account's first ledger
	FactorTrend       = "balance_trend"     // balance against three months before, -0.2 is 20 % lower
)

// Factor turns one value into points: a value below Edges[0] earns
// Points[0], one from Edges[i-1] up to Edges[i] earns Points[i], one at
// or above the last edge the last points; a value not known earns
// Missing.
type Factor struct {
	Kind    string
	Edges   []float64
	Points  []int
	Missing int
}

// points is what value v earns.
func (f *Factor) points(v float64) int {
	if math.IsNaN(v) {
		return f.Missing
	}
	i := 0
	for i < len(f.Edges) && v >= f.Edges[i] {
		i++
	}
	return f.Points[i]
}

// Class is a named range of scores: every score at or above Min up to
// the next class's Min.
type Class struct {
	Name string
	Min  int
}

// Scorecard is a sum of factors' points (higher is safer), and its
// classes, safest first.
type Scorecard struct {
	Factors []Factor
	Classes []Class
}

// StartingScorecard is the scorecard validated until the team's policy
// (issue 45, point 3) names its own: the service's scores and the team's
// ledger, weighted toward what the team sees first (arrears).
var StartingScorecard = Scorecard{
	Factors: []Factor{
		{Kind: FactorRisk, Edges: []float64{3, 5, 6, 8}, Points: []int{0, 8, 12, 18, 24}, Missing: 10},
		{Kind: FactorPay, Edges: []float64{3, 5, 6, 8}, Points: []int{0, 6, 9, 13, 16}, Missing: 8},
		{Kind: FactorDBT, Edges: []float64{6, 16, 31, 61}, Points: []int{12, 9, 5, 2, 0}, Missing: 6},
		{Kind: FactorZ, Edges: []float64{1.1, 2.6}, Points: []int{0, 4, 8}, Missing: 4},
		{Kind: FactorDaysBeyond, Edges: []float64{5, 15, 30}, Points: []int{14, 9, 4, 0}, Missing: 7},
		{Kind: FactorOver90, Edges: []float64{0.02, 0.10, 0.20}, Points: []int{14, 8, 3, 0}, Missing: 7},
		{Kind: FactorUtilisation, Edges: []float64{0.5, 0.9, 1.0}, Points: []int{6, 4, 2, 0}, Missing: 3},
		{Kind: FactorYears, Edges: []float64{1, 3}, Points: []int{0, 2, 4}, Missing: 0},
		{Kind: FactorTrend, Edges: []float64{-0.2, 0.25, 0.75}, Points: []int{2, 4, 2, 0}, Missing: 2},
	},
	Classes: []Class{{"A", 80}, {"B", 65}, {"C", 50}, {"D", 35}, {"E", math.MinInt32}},
}

// Check refuses a scorecard that cannot score: an unknown factor, edges
// not rising, points not one more than edges, classes not falling.
func (s *Scorecard) Check() error {
	if len(s.Factors) == 0 {
		return errors.New("policy: a scorecard needs a factor")
	}
	for _, f := range s.Factors {
		if _, ok := factorValue[f.Kind]; !ok {
			return errors.New("policy: no factor " + f.Kind)
		}
		if len(f.Points) != len(f.Edges)+1 {
			return errors.New("policy: factor " + f.Kind + " needs one more points than edges")
		}
		for i := 1; i < len(f.Edges); i++ {
			if !(f.Edges[i] > f.Edges[i-1]) {
				return errors.New("policy: factor " + f.Kind + "'s edges must rise")
			}
		}
	}
	return checkClasses(s.Classes)
}

// checkClasses wants classes safest first with falling minimums.
func checkClasses(cs []Class) error {
	if len(cs) == 0 {
		return errors.New("policy: a model needs a class")
	}
	for i := 1; i < len(cs); i++ {
		if cs[i].Min >= cs[i-1].Min {
			return errors.New("policy: classes must go from safest to riskiest")
		}
	}
	return nil
}

// classOf is the index of the class of a score; below every minimum, the
// last.
func classOf(cs []Class, score int) int {
	for i, c := range cs {
		if score >= c.Min {
			return i
		}
	}
	return len(cs) - 1
}

// features are one account's values at one month-end, NaN when not
// known.
type features [9]float64

// factorValue is where a factor kind's value sits in features.
var factorValue = map[string]int{
	FactorRisk: 0, FactorPay: 1, FactorDBT: 2, FactorZ: 3, FactorDaysBeyond: 4,
	FactorOver90: 5, FactorUtilisation: 6, FactorYears: 7, FactorTrend: 8,
}

// featuresOf reads line l of account a at month m; first is the month
// the account's first ledger lists it, before the line three months
// back (nil when none).
func featuresOf(l, before *Line, m, first int) features {
	nan := math.NaN()
	score := func(v int8) float64 {
		if v == Missing {
			return nan
		}
		return float64(v)
	}
	f := features{score(l.Risk), score(l.Pay), nan, float64(l.Z), nan, nan, nan, float64(m-first) / 12, nan}
	if l.DBT >= 0 {
		f[2] = float64(l.DBT)
	}
	if l.Balance > 0 {
		f[4] = (l.Days1to30*15 + l.Days31to60*45 + l.Days61to90*75 + l.Over90*105) / l.Balance
		f[5] = l.Over90 / l.Balance
	}
	if l.Limit > 0 {
		f[6] = l.Balance / l.Limit
	}
	if before != nil && before.Balance > 0 {
		f[8] = l.Balance/before.Balance - 1
	}
	return f
}

// Model is one way of ranking accounts: a scorecard or a single score.
type Model struct {
	// Name is the model's name in the CSV files.
	Name string
	// Label is its name on the page.
	Label string
	// Classes are its classes, safest first.
	Classes []Class
	score   func(f *features) (int, bool)
}

// Model is the scorecard as a model to validate.
func (s *Scorecard) Model(name, label string) Model {
	idx := make([]int, len(s.Factors))
	for i, f := range s.Factors {
		idx[i] = factorValue[f.Kind]
	}
	return Model{Name: name, Label: label, Classes: s.Classes, score: func(f *features) (int, bool) {
		total := 0
		for i := range s.Factors {
			total += s.Factors[i].points(f[idx[i]])
		}
		return total, true
	}}
}

// ScoreModel is one service score alone (FactorRisk or FactorPay), its
// value the score: accounts without it are not scored by it.
func ScoreModel(name, label, kind string) Model {
	i := factorValue[kind]
	return Model{Name: name, Label: label, Classes: zones, score: func(f *features) (int, bool) {
		if math.IsNaN(f[i]) {
			return 0, false
		}
		return int(f[i]), true
	}}
}

// zones are the Risk and Pay bands the rest of the product colours.
var zones = []Class{{"low (8–10)", 8}, {"moderate (6–7)", 6}, {"elevated (5)", 5}, {"high (3–4)", 3}, {"severe (1–2)", math.MinInt32}}

// StandardModels are the three models issue 45 puts side by side: the
// starting scorecard, the Risk score alone, the Pay score alone.
func StandardModels() []Model {
	return []Model{
		StartingScorecard.Model("scorecard", "Team scorecard"),
		ScoreModel("risk", "Risk score alone", FactorRisk),
		ScoreModel("pay", "Pay score alone", FactorPay),
	}
}
