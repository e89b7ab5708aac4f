package simulator

// riskSeries builds the monthly Risk scores, oldest first, ending at
// finalRisk. It walks backwards from the latest month towards a target path:
// flat for most businesses, a 2-4 point slide over 6-12 months for some
// (more often the weaker ones, since distress is usually how they got
// there), a recovery for a few. Steps are always 0 or ±1 a month.
func (c *genCore) riskSeries() {
	r := newGenRand(c.seed, int64(c.id), genStreamRisk)
	n, final := c.months, c.finalRisk
	if c.sc != nil && c.sc.riskTail != nil {
		c.scenarioRisk(&r)
	} else {
		delta, length, end := c.planTrend(&r, final)
		cur := final
		c.risk[n-1] = cur
		for m := n - 2; m >= 0; m-- {
			t := genTrendTarget(final, delta, length, end, n-1-m)
			x := r.next()
			step := 0
			switch d := t - float64(cur); {
			case d >= 1.5 || (d >= 0.5 && genU16(x, 0) < 0.8):
				step = 1
			case d <= -1.5 || (d <= -0.5 && genU16(x, 0) < 0.8):
				step = -1
			case genU16(x, 1) < 0.1:
				// A passing wobble; the target pulls it back.
				step = 1
				if genU16(x, 2) < 0.5 {
					step = -1
				}
			}
			if cur += step; cur < 1 || cur > 10 {
				cur -= step
			}
			c.risk[m] = cur
		}
	}
	c.smoothHealth(&r)
}

// planTrend decides the shape of the history: delta is how much better
// (positive) or worse the score was before the change, length the months
// the change took and end how many months ago it finished.
func (c *genCore) planTrend(r *genRand, final int) (delta, length, end int) {
	var pSlide float64
	switch {
	case final <= 2:
		pSlide = 0.7
	case final <= 4:
		pSlide = 0.45
	case final <= 6:
		pSlide = 0.2
	case final == 7:
		pSlide = 0.1
	default:
		pSlide = 0.03
	}
	length = r.between(6, 12)
	end = r.intn(min(12, c.months-length-1) + 1)
	switch u := r.float(); {
	case u < pSlide && final < 10:
		delta = min(r.between(2, 4), 10-final)
	case u < pSlide+0.08 && final >= 5:
		delta = -min(r.between(2, 3), final-1)
	}
	return delta, length, end
}

// genTrendTarget is the planned score `ago` months before the latest month.
func genTrendTarget(final, delta, length, end, ago int) float64 {
	switch {
	case ago <= end:
		return float64(final)
	case ago >= end+length:
		return float64(final + delta)
	default:
		return float64(final) + float64(delta)*float64(ago-end)/float64(length)
	}
}

// smoothHealth derives the continuous health (Risk plus a slow wobble of at
// most ±0.45) that the statements follow, and the monthly AverageRisk,
// which leans towards the previous month's score (it is an average over the
// month) yet always rounds to the month's Risk.
func (c *genCore) smoothHealth(r *genRand) {
	wobble := 0.0
	for m := 0; m < c.months; m++ {
		x := r.next()
		wobble = genClamp(0.6*wobble+0.15*genTriangular(genU16(x, 0), genU16(x, 1)), -0.45, 0.45)
		risk := float64(c.risk[m])
		c.health[m] = genClamp(risk+wobble, 1, 10)
		prev := risk
		if m > 0 {
			prev = float64(c.risk[m-1])
		}
		avg := risk + 0.3*(prev-risk) + 0.1*genTriangular(genU16(x, 2), genU16(x, 3))
		avg = genClamp(genClamp(avg, risk-0.49, risk+0.49), 1, 10)
		c.avgRisk[m] = genRound2(avg)
	}
}

// healthAt is the health in month mo, holding the first month's value for
// months before the history starts.
func (c *genCore) healthAt(mo genMonth) float64 {
	i := int(mo - c.start())
	return c.health[max(0, min(c.months-1, i))]
}

// genPayLimits are the highest DBT that still earns Pay 10, 9, ... 2.
var genPayLimits = [...]int{1, 2, 4, 7, 10, 14, 19, 27, 39}

// genPayByDBT maps DBT 0-120 to the Pay score a payer with that record
// earns (10 safest), as a table because BulkListing looks it up per month.
var genPayByDBT = func() (t [121]int8) {
	for d := range t {
		t[d] = 1
		for i, lim := range genPayLimits {
			if d <= lim {
				t[d] = int8(10 - i)
				break
			}
		}
	}
	return t
}()

// genPayFromDBT is the Pay score for a DBT index.
func genPayFromDBT(dbt int) int { return int(genPayByDBT[max(0, min(dbt, 120))]) }

// paySeries sets the Pay score from the DBT index, moving at most one point
// a month towards it; thin trade files have none.
func (c *genCore) paySeries() {
	if c.thin {
		return
	}
	for m := 0; m < c.months; m++ {
		want := genPayFromDBT(c.dbt[m])
		if m == 0 {
			c.pay[m] = want
			continue
		}
		prev := c.pay[m-1]
		c.pay[m] = prev + max(-1, min(1, want-prev))
	}
}
