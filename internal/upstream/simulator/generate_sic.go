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
	for b := range amt {
		for i := range cats {
			tilted[i] = w[i] * math.Pow(cats[i].slowness, lateness[b])
		}
		genSplit(amt[b], tilted[:k], parts[b][:k])
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
