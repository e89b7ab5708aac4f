package policy

import (
	"math"
	"slices"
)

// Obs is one account scored at one month-end by one model: its score
// (higher is safer) and whether it defaulted in the window after.
type Obs struct {
	Account int32
	// Month indexes the history's months.
	Month int16
	Score int32
	Bad   bool
}

// Figures are how well a model's scores separate the accounts that
// defaulted from those that did not.
type Figures struct {
	// AUC is the chance that a good observation scores above a bad one,
	// ties counting half; NaN without both kinds.
	AUC float64
	// Gini is 2·AUC − 1.
	Gini float64
	// KS is the largest gap between the shares of bad and of good
	// observations at or below a score.
	KS float64
	// Observations and Bads count account-months.
	Observations, Bads int
	// Accounts scored, Defaults among them (accounts with a bad
	// observation), Months scored.
	Accounts, Defaults, Months int
}

// table is observations counted by distinct score, lowest first.
type table struct {
	scores      []int32
	good, bad   []int
	goods, bads int
}

// tabulate counts observations by score.
func tabulate(obs []Obs) table {
	var t table
	if len(obs) == 0 {
		return t
	}
	lo, hi := obs[0].Score, obs[0].Score
	for i := range obs {
		lo, hi = min(lo, obs[i].Score), max(hi, obs[i].Score)
	}
	if int64(hi)-int64(lo) < 1<<20 {
		n := int(hi-lo) + 1
		good, bad := make([]int, n), make([]int, n)
		for i := range obs {
			if obs[i].Bad {
				bad[obs[i].Score-lo]++
			} else {
				good[obs[i].Score-lo]++
			}
		}
		for k := range n {
			if good[k]+bad[k] > 0 {
				t.scores = append(t.scores, lo+int32(k))
				t.good, t.bad = append(t.good, good[k]), append(t.bad, bad[k])
				t.goods += good[k]
				t.bads += bad[k]
			}
		}
		return t
	}
	// Scores spread too wide for an array: distinct values, sorted.
	vals := make([]int32, len(obs))
	for i := range obs {
		vals[i] = obs[i].Score
	}
	slices.Sort(vals)
	t.scores = slices.Compact(vals)
	t.good, t.bad = make([]int, len(t.scores)), make([]int, len(t.scores))
	for i := range obs {
		k, _ := slices.BinarySearch(t.scores, obs[i].Score)
		if obs[i].Bad {
			t.bad[k]++
			t.bads++
		} else {
			t.good[k]++
			t.goods++
		}
	}
	return t
}

// separation is the AUC and KS of good and bad counts by ascending
// score.
func separation(good, bad []int, goods, bads int) (auc, ks float64) {
	if goods == 0 || bads == 0 {
		return math.NaN(), math.NaN()
	}
	// A good above a bad is a pair ranked right; a tie is half right.
	var right float64
	badBelow, goodBelow := 0, 0
	for k := range good {
		right += float64(good[k])*float64(badBelow) + 0.5*float64(good[k])*float64(bad[k])
		badBelow += bad[k]
		goodBelow += good[k]
		ks = max(ks, math.Abs(float64(badBelow)/float64(bads)-float64(goodBelow)/float64(goods)))
	}
	return right / (float64(goods) * float64(bads)), ks
}

// Measure computes a model's figures from its observations.
func Measure(obs []Obs) Figures {
	t := tabulate(obs)
	auc, ks := separation(t.good, t.bad, t.goods, t.bads)
	f := Figures{AUC: auc, Gini: 2*auc - 1, KS: ks, Observations: len(obs), Bads: t.bads}
	accounts := map[int32]bool{}
	months := map[int16]bool{}
	for i := range obs {
		if obs[i].Bad || !accounts[obs[i].Account] {
			accounts[obs[i].Account] = obs[i].Bad || accounts[obs[i].Account]
		}
		months[obs[i].Month] = true
	}
	f.Accounts, f.Months = len(accounts), len(months)
	for _, bad := range accounts {
		if bad {
			f.Defaults++
		}
	}
	return f
}

// ClassRate is one class's observations and how many went bad.
type ClassRate struct {
	Class              string
	Observations, Bads int
	// Interval is the 95 % bootstrap interval of its bad rate (Validate
	// sets it; NaN when the model has nothing to tell apart).
	Interval Interval
}

// Rate is the class's bad rate, 0–1; NaN when empty.
func (c ClassRate) Rate() float64 {
	if c.Observations == 0 {
		return math.NaN()
	}
	return float64(c.Bads) / float64(c.Observations)
}

// BadRates counts observations and bad ones per class, safest first.
func BadRates(obs []Obs, cs []Class) []ClassRate {
	out := make([]ClassRate, len(cs))
	for i, c := range cs {
		out[i].Class = c.Name
	}
	for i := range obs {
		k := classOf(cs, int(obs[i].Score))
		out[k].Observations++
		if obs[i].Bad {
			out[k].Bads++
		}
	}
	return out
}
