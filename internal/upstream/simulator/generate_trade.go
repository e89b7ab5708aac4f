package simulator

import "math"

// Payer profiles (DEMO-DATA "Trade payments").
const (
	genPrompt = iota
	genSlow
	genStressed
	genDefaulted // only for the Chapter 11 scenario: most of the money is 91+ days late
)

// genBucketDays are the midpoints of the past-due buckets in the DBT
// formula: DBT = (1-30 x 15 + 31-60 x 45 + 61-90 x 75 + 91+ x 105) / total.
var genBucketDays = [4]float64{15, 45, 75, 105}

// genProfile is a payer profile: the relative weights of the four past-due
// buckets and the range of days beyond terms it pays at. The weights are the
// middles of DEMO-DATA's bucket ranges, so that solving for a DBT lands the
// buckets in those ranges.
type genProfile struct {
	weights  [4]float64
	lo, hi   float64 // typical DBT level
	min, max float64 // hard limits while the level wanders
}

var genProfiles = [...]genProfile{
	genPrompt:    {[4]float64{5, 1.25, 0.5, 0.5}, 1.2, 3.8, 0.6, 5},
	genSlow:      {[4]float64{14, 5, 2, 2.5}, 6.5, 13, 4.5, 16},
	genStressed:  {[4]float64{20, 10, 6, 14}, 19, 32, 14, 38},
	genDefaulted: {[4]float64{12, 8, 8, 40}, 45, 60, 35, 80},
}

// genScenarioMix is the scenario businesses' own mix of the past-due
// buckets around their profile's middles. Within the month's tilt (±0.1) no
// two of a profile's tied buckets can come out in the same proportion.
var genScenarioMix = [4]float64{1, 1.06, 0.94, 1.1}

// genProfileOdds is the chance of each profile (prompt, slow, stressed) by
// band of latest Risk: strong credits mostly pay promptly, but not always (a
// big company can be a slow payer on purpose), and weak ones mostly pay late.
var genProfileOdds = [4][3]float64{
	{0.10, 0.30, 0.60}, // Risk 1-2
	{0.20, 0.50, 0.30}, // Risk 3-4
	{0.45, 0.45, 0.10}, // Risk 5-7
	{0.75, 0.22, 0.03}, // Risk 8-10
}

// genOddsBand is the row of genProfileOdds for a Risk score.
func genOddsBand(risk int) int {
	switch {
	case risk >= 8:
		return 3
	case risk >= 5:
		return 2
	case risk >= 3:
		return 1
	default:
		return 0
	}
}

// tradeSeries builds the monthly aging shares and the DBT index they imply,
// then the Pay score. The DBT level wanders slowly, and was lower before a
// slide and higher before a recovery, because payments follow credit.
func (c *genCore) tradeSeries() {
	r := newGenRand(c.seed, int64(c.id), genStreamTrade)
	c.profile = r.weighted(genProfileOdds[genOddsBand(c.finalRisk)][:])
	p := &genProfiles[c.profile]
	level := r.uniform(p.lo, p.hi)
	// This business's own mix of late buckets (base) and how a month's
	// tilt shifts it towards the early or the late buckets (slope).
	var base, slope [4]float64
	for b := range base {
		base[b] = p.weights[b] * r.uniform(0.8, 1.25)
		slope[b] = base[b] * float64(b-1)
	}
	wander := 0.0
	for m := 0; m < c.months; m++ {
		u := r.next()
		wander = 0.7*wander + 0.3*genTriangular(genU16(u, 0), genU16(u, 1))
		factor := genClamp(1+0.07*float64(c.finalRisk-c.risk[m]), 0.5, 1.6)
		x := 0.12 * wander // |x| < 0.3: a two-term series stands in for exp
		d := genClamp(level*(1+x+x*x/2)*factor, p.min, p.max)
		tilt := 0.2*genU16(u, 2) - 0.1
		w := [4]float64{base[0] + tilt*slope[0], base[1] + tilt*slope[1], base[2] + tilt*slope[2], base[3] + tilt*slope[3]}
		other := 1.2 * genU16(u, 3)
		if c.sc != nil && c.sc.trade != genTradeGeneric {
			d, w = c.scenarioTrade(m, &r)
			// A profile's middles tie some buckets (prompt's 61-90 and 91+,
			// the defaulted 31-60 and 61-90): a scenario takes its own mix
			// and the month's tilt as every other business does, or those
			// buckets come out equal to the cent month after month.
			for b := range w {
				w[b] *= genScenarioMix[b] * (1 + tilt*float64(b-1))
			}
		}
		c.dbtExact[m] = genExactDBT(d, w, other)
		c.weights[m], c.other[m] = w, other
		c.dbt[m] = int(genRoundInt(c.dbtExact[m]))
	}
	c.paySeries()
}

// genExactDBT is the DBT the month's buckets come to: the target, unless
// the past-due share would pass its cap (95 % less "other"), in which case
// the capped share's DBT. The cap's days per unit of past due are at least
// 15 (everything 1-30 days late), so below 14 days it cannot bind and the
// division, BulkListing's costliest step per month, is skipped.
func genExactDBT(dbt float64, w [4]float64, other float64) float64 {
	if dbt < 14 {
		return dbt
	}
	total := w[0] + w[1] + w[2] + w[3]
	days := w[0]*genBucketDays[0] + w[1]*genBucketDays[1] + w[2]*genBucketDays[2] + w[3]*genBucketDays[3]
	return min(dbt, (95-other)*days/total/100)
}

// genShares solves for the aging percents that give `dbt` days beyond
// terms (as genExactDBT returned it) by the bucket formula: the past-due
// buckets keep the weights' proportions, "other" is set aside and current
// takes the rest.
func genShares(dbt float64, w [4]float64, other float64) [6]float64 {
	total := w[0] + w[1] + w[2] + w[3]
	days := w[0]*genBucketDays[0] + w[1]*genBucketDays[1] + w[2]*genBucketDays[2] + w[3]*genBucketDays[3]
	k := dbt * 100 / days // past-due share per unit of weight
	pastDue := k * total
	return [6]float64{100 - pastDue - other, k * w[0], k * w[1], k * w[2], k * w[3], other}
}

// genDBT is the bucket formula over percents (or over amounts divided by the
// total due).
func genDBT(s [6]float64) float64 {
	return (s[1]*genBucketDays[0] + s[2]*genBucketDays[1] + s[3]*genBucketDays[2] + s[4]*genBucketDays[3]) / 100
}

// genRoundDBT is the DBT index of percents or amounts: the bucket formula
// rounded to whole days.
func genRoundDBT(s [6]float64) int { return int(genRoundInt(genDBT(s))) }

// genIndustryDBT is the industry's average DBT in a month: the same for
// every business with that key (a NAICS sector or a SIC group), within 4-10,
// drifting a little from month to month.
func genIndustryDBT(seed int64, key string, base float64, m genMonth) int {
	k := int64(0)
	for i := 0; i < len(key); i++ {
		k = k*131 + int64(key[i])
	}
	r := newGenRand(seed, k<<20|int64(m), genStreamIndustry)
	return int(genClamp(math.Round(base+r.uniform(-1.2, 1.2)), 4, 10))
}
