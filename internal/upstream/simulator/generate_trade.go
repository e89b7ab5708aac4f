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
	var jitter [4]float64
	for b := range jitter {
		jitter[b] = r.uniform(0.8, 1.25)
	}
	wander := 0.0
	for m := 0; m < c.months; m++ {
		wander = 0.7*wander + 0.3*r.norm()
		factor := genClamp(1+0.07*float64(c.finalRisk-c.risk[m]), 0.5, 1.6)
		d := genClamp(level*math.Exp(0.12*wander)*factor, p.min, p.max)
		// The mix of late buckets shifts a little from month to month: one
		// draw tilts it towards the early or the late buckets.
		tilt := r.uniform(-0.1, 0.1)
		var w [4]float64
		for b := range w {
			w[b] = p.weights[b] * jitter[b] * (1 + tilt*float64(b-1))
		}
		other := r.uniform(0, 1.2)
		if c.sc != nil && c.sc.trade != genTradeGeneric {
			d, w = c.scenarioTrade(m, &r)
		}
		c.dbtRaw[m] = d
		c.shares[m] = genShares(d, w, other)
		c.dbt[m] = genRoundDBT(c.shares[m])
	}
	c.paySeries()
}

// genShares solves for the aging percents: the past-due buckets keep the
// weights' proportions and together come to whatever share gives `dbt`
// days beyond terms; "other" is set aside and current takes the rest.
func genShares(dbt float64, w [4]float64, other float64) [6]float64 {
	total, days := 0.0, 0.0
	for b := range w {
		total += w[b]
		days += w[b] * genBucketDays[b]
	}
	pastDue := min(dbt*100*total/days, 95-other)
	var s [6]float64
	for b := range w {
		s[b+1] = pastDue * w[b] / total
	}
	s[5] = other
	s[0] = 100 - pastDue - other
	return s
}

// genDBT is the bucket formula over percents (or over amounts divided by the
// total due).
func genDBT(s [6]float64) float64 {
	return (s[1]*genBucketDays[0] + s[2]*genBucketDays[1] + s[3]*genBucketDays[2] + s[4]*genBucketDays[3]) / 100
}

// genRoundDBT is the DBT index: the bucket formula rounded to whole days.
func genRoundDBT(s [6]float64) int { return int(math.Round(genDBT(s))) }

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
