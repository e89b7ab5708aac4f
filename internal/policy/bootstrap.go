package policy

import (
	"math"
	"math/rand/v2"
	"slices"
)

// Interval is a 95 % bootstrap interval of a figure.
type Interval struct{ Low, High float64 }

// Intervals are the bootstrap intervals of AUC, Gini and KS.
type Intervals struct {
	AUC, Gini, KS Interval
	// Draws is how many resamples made them.
	Draws int
}

// Bootstrap settings: the same history gives the same intervals.
const (
	BootstrapDraws = 200
	BootstrapSeed  = 45
)

// cell is one account's observations at one score.
type cell struct {
	score     int32 // index into the table's scores
	good, bad int32
}

// bootstrap resamples accounts, not account-months: an account's months
// are not independent of each other, so the interval must move them
// together. Each draw picks as many accounts as were scored, with
// replacement, from a generator seeded by seed alone. The same draws give
// the interval of each class's bad rate (classes safest first, as
// BadRates counts them; NaN for a class no draw scored).
func bootstrap(obs []Obs, draws int, seed uint64, classes []Class) (Intervals, []Interval) {
	out := Intervals{Draws: draws}
	nan := Interval{math.NaN(), math.NaN()}
	rates := make([]Interval, len(classes))
	for c := range rates {
		rates[c] = nan
	}
	t := tabulate(obs)
	if t.goods == 0 || t.bads == 0 || draws <= 0 {
		out.AUC, out.Gini, out.KS = nan, nan, nan
		return out, rates
	}
	// The class of each distinct score.
	classAt := make([]int, len(t.scores))
	for k, s := range t.scores {
		if len(classes) > 0 {
			classAt[k] = classOf(classes, int(s))
		}
	}
	classRates := make([][]float64, len(classes))
	cgood, cbad := make([]int, len(classes)), make([]int, len(classes))
	// Each account's observations as cells, accounts in the order first
	// seen, so the draws do not depend on a map's order; then flat, an
	// account's cells from start[a] to start[a+1], for the draws' sake.
	byAccount := map[int32]int{}
	var lists [][]cell
	for i := range obs {
		a, ok := byAccount[obs[i].Account]
		if !ok {
			a = len(lists)
			byAccount[obs[i].Account] = a
			lists = append(lists, nil)
		}
		k, _ := slices.BinarySearch(t.scores, obs[i].Score)
		cs := lists[a]
		j := slices.IndexFunc(cs, func(c cell) bool { return c.score == int32(k) })
		if j < 0 {
			cs = append(cs, cell{score: int32(k)})
			j = len(cs) - 1
		}
		if obs[i].Bad {
			cs[j].bad++
		} else {
			cs[j].good++
		}
		lists[a] = cs
	}
	start := make([]int32, len(lists)+1)
	flat := make([]cell, 0, len(obs))
	for a, cs := range lists {
		flat = append(flat, cs...)
		start[a+1] = int32(len(flat))
	}
	lists = nil
	r := rand.New(rand.NewPCG(seed, uint64(len(obs))))
	good, bad := make([]int, len(t.scores)), make([]int, len(t.scores))
	aucs, ginis, kss := make([]float64, 0, draws), make([]float64, 0, draws), make([]float64, 0, draws)
	accounts := len(start) - 1
	for range draws {
		clear(good)
		clear(bad)
		for range accounts {
			a := r.IntN(accounts)
			for _, c := range flat[start[a]:start[a+1]] {
				good[c.score] += int(c.good)
				bad[c.score] += int(c.bad)
			}
		}
		goods, bads := 0, 0
		clear(cgood)
		clear(cbad)
		for k := range good {
			goods += good[k]
			bads += bad[k]
			if len(classes) > 0 {
				cgood[classAt[k]] += good[k]
				cbad[classAt[k]] += bad[k]
			}
		}
		for c := range classes {
			if n := cgood[c] + cbad[c]; n > 0 {
				classRates[c] = append(classRates[c], float64(cbad[c])/float64(n))
			}
		}
		auc, ks := separation(good, bad, goods, bads)
		if math.IsNaN(auc) { // a draw with no default: no figure
			continue
		}
		aucs, ginis, kss = append(aucs, auc), append(ginis, 2*auc-1), append(kss, ks)
	}
	out.AUC, out.Gini, out.KS = percentiles(aucs), percentiles(ginis), percentiles(kss)
	for c := range classes {
		rates[c] = percentiles(classRates[c])
	}
	return out, rates
}

// percentiles is the 2.5th and 97.5th percentile of vs (nearest rank).
func percentiles(vs []float64) Interval {
	if len(vs) == 0 {
		return Interval{math.NaN(), math.NaN()}
	}
	slices.Sort(vs)
	at := func(p float64) float64 {
		i := int(math.Ceil(p*float64(len(vs)))) - 1
		return vs[min(max(i, 0), len(vs)-1)]
	}
	return Interval{at(0.025), at(0.975)}
}
