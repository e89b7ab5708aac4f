package simulator

import "math"

// splitMonth splits one month's row over the supplier categories. Each
// bucket is divided by the categories' weights, tilted by their slowness
// (more so for later buckets), so every category gets its own DBT while
// every bucket, the accounts and the credit balance still add up to the
// month's figures exactly.
func (c *genCore) splitMonth(r *genRand, mo genMonth, all PaymentRow, amt [6]int64, cats []genCategory) []PaymentRow {
	k := len(cats)
	var w, tilted [8]float64
	for i := range cats {
		w[i] = cats[i].weight * r.uniform(0.9, 1.1)
	}
	var parts [6][8]int64
	lateness := [6]float64{0, 1, 2, 3, 4, 0} // current and other are not late
	split := func(slower int, by float64) {
		for b := range amt {
			for i := range cats {
				s := cats[i].slowness
				if i == slower {
					s *= by
				}
				tilted[i] = w[i] * math.Pow(s, lateness[b])
			}
			genSplit(amt[b], tilted[:k], parts[b][:k])
		}
	}
	split(-1, 1)
	if i := c.divergingCategory(cats); i >= 0 {
		c.divergeMonth(mo, i, &parts, split)
	}
	var accounts, credit [8]int64
	genSplit(int64(all.Accounts-k), w[:k], accounts[:k])
	genSplit(all.CreditBalance, w[:k], credit[:k])
	rows := make([]PaymentRow, k)
	for i := range cats {
		var a [6]int64
		for b := range a {
			a[b] = parts[b][i]
		}
		sic := cats[i].sic
		row := genPaymentRow(sic.name, sic.code, mo, int(accounts[i])+1, a, credit[i])
		if row.TotalDue > 0 {
			s := [6]float64{}
			for b := range a {
				s[b] = float64(a[b]) / float64(row.TotalDue) * 100
			}
			row.DBTIndex = genIntPtr(genRoundDBT(s))
		}
		row.AverageDBTIndex = genIntPtr(genIndustryDBT(c.seed, "SIC"+sic.code, sic.avgDBT, mo))
		rows[i] = row
	}
	return rows
}

// genSplit divides total over out in proportion to weights: floors first,
// then the few leftover units one each, largest weight first, so the parts
// add up to total exactly.
func genSplit(total int64, weights []float64, out []int64) {
	sum := 0.0
	for _, x := range weights {
		sum += x
	}
	left := total
	for i, x := range weights {
		out[i] = int64(math.Floor(float64(total) * x / sum))
		left -= out[i]
	}
	for left > 0 {
		best := 0
		for i := range weights {
			if weights[i] > weights[best] {
				best = i
			}
		}
		// Spread any remainder round-robin starting at the largest.
		for i := 0; left > 0 && i < len(out); i++ {
			out[(best+i)%len(out)]++
			left--
		}
	}
}

// genDivergeRamp is how many days the diverging category's DBT is above
// its level of three months before, in the last three months (two months
// ago, last month, this month): the 1008 story, a rise of 12-20 days while
// the overall DBT stays put.
var genDivergeRamp = [3]float64{5, 10, 16}

// divergingCategory is the index in cats of the scenario's diverging
// supplier category, -1 for none.
func (c *genCore) divergingCategory(cats []genCategory) int {
	if c.sc == nil || c.sc.divergeSIC == "" {
		return -1
	}
	for i := range cats {
		if cats[i].sic.code == c.sc.divergeSIC {
			return i
		}
	}
	return -1
}

// divergeMonth makes the diverging category's DBT follow genDivergeRamp:
// three months before the latest it is noted as the level; in the three
// months after it, that category is made slower (by a factor found by
// bisection) until its DBT is the level plus the ramp. Every bucket is
// still split exactly, so the month's overall figures do not move: the
// other categories are paid sooner instead.
func (c *genCore) divergeMonth(mo genMonth, i int, parts *[6][8]int64, split func(int, float64)) {
	ago := int(c.asOf - mo)
	dbt := func() float64 {
		var a [6]float64
		total := 0.0
		for b := range a {
			a[b] = float64(parts[b][i])
			total += a[b]
		}
		if total == 0 {
			return 0
		}
		for b := range a {
			a[b] = a[b] / total * 100
		}
		return genDBT(a)
	}
	switch {
	case ago == 3:
		c.divergeBase = dbt()
	case ago >= 0 && ago < 3:
		target := c.divergeBase + genDivergeRamp[2-ago]
		lo, hi := 1.0, 8.0
		for range 40 {
			mid := (lo + hi) / 2
			split(i, mid)
			if dbt() < target {
				lo = mid
			} else {
				hi = mid
			}
		}
		split(i, hi)
	}
}
