package simulator

import (
	"math"
	"slices"
)

// genAllCategories is the CategoryName of the overall monthly rows.
const genAllCategories = "All categories"

// genCategory is one supplier category of a business's trade file: its
// share of the money (weight) and how much slower than the business's
// average it gets paid (slowness > 1: later).
type genCategory struct {
	sic      *genSIC
	weight   float64
	slowness float64
}

// payments renders 12-24 months of trade payments, newest first, overall
// and split over 3-8 supplier categories. Amounts are whole dollars; each
// month's buckets are the core's shares of its total due, and each bucket is
// split over the categories so the categories add up to the month exactly.
func (c *genCore) payments(r *genRand) (monthly, sic []PaymentRow) {
	months := min(c.months, r.between(12, 24))
	base := c.tradeSize(r)
	accounts := r.between(3, 4) // thin files: one or two lines per category at most
	cats := c.categories(r)
	credit := 0.0
	if r.chance(0.4) {
		credit = r.uniform(0, 0.01)
	}
	sec := c.primary().sector()
	monthly = make([]PaymentRow, 0, months)
	sic = make([]PaymentRow, 0, months*len(cats))
	wander := 0.0
	for m := c.months - months; m < c.months; m++ {
		mo := c.start() + genMonth(m)
		wander = 0.7*wander + 0.3*r.norm()
		total := math.Round(genClamp(base*math.Exp(0.08*wander), 20e3, 50e6))
		if !c.thin {
			accounts = int(genClamp(math.Round(5*math.Pow(total/20e3, 0.56)*r.uniform(0.9, 1.1)), 5, 400))
		}
		accounts = max(accounts, len(cats)) // every category has a line
		shares := genShares(c.dbtExact[m], c.weights[m], c.other[m])
		var amt [6]int64
		rest := int64(total)
		for b := 1; b < 6; b++ {
			amt[b] = int64(math.Round(total * shares[b] / 100))
			rest -= amt[b]
		}
		amt[0] = rest
		row := genPaymentRow(genAllCategories, "", mo, accounts, amt, int64(math.Round(total*credit)))
		row.DBTIndex = genIntPtr(c.dbt[m])
		row.AverageDBTIndex = genIntPtr(genIndustryDBT(c.seed, "NAICS"+sec, genSectors[sec].avgDBT, mo))
		monthly = append(monthly, row)
		sic = append(sic, c.splitMonth(r, mo, row, amt, cats)...)
	}
	slices.Reverse(monthly)
	// Newest month first, then by category code: reverse whole months.
	k := len(cats)
	for i, j := 0, len(sic)/k-1; i < j; i, j = i+1, j-1 {
		for x := 0; x < k; x++ {
			sic[i*k+x], sic[j*k+x] = sic[j*k+x], sic[i*k+x]
		}
	}
	return monthly, sic
}

// tradeSize is the usual total due: tied to revenue when the business files
// statements ($20k at $50M sales up to $50M at $50B), drawn by size
// otherwise, and small for a thin file.
func (c *genCore) tradeSize(r *genRand) float64 {
	switch {
	case c.thin:
		return r.logUniform(20e3, 150e3)
	case c.nFY > 0:
		k := math.Log(2500) / math.Log(1000)
		return genClamp(20e3*math.Pow(c.fy[0].sales/50e6, k)*r.uniform(0.7, 1.4), 20e3, 50e6)
	}
	return r.logUniform(20e3, 5e6)
}

// categories picks 3-8 supplier categories (3 for a thin file), the
// sector's usual suppliers first, ordered by SIC code.
func (c *genCore) categories(r *genRand) []genCategory {
	k := r.between(3, 8)
	if c.thin {
		k = 3
	}
	diverging := c.sc != nil && c.sc.divergeSIC != ""
	if diverging {
		k = max(k, 5) // others to pay sooner while one waits
	}
	prefer := genSectors[c.primary().sector()].suppliers
	order := make([]int, 0, len(genSICs))
	for _, code := range prefer {
		order = append(order, genSICIndex(code))
	}
	r.shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
	others := make([]int, 0, len(genSICs))
	for i := range genSICs {
		if !slices.Contains(order, i) {
			others = append(others, i)
		}
	}
	r.shuffle(len(others), func(i, j int) { others[i], others[j] = others[j], others[i] })
	order = append(order[:min(k, len(order), 4)], others...)[:k]
	if diverging {
		// The story needs the category it pays last among its suppliers.
		if d := genSICIndex(c.sc.divergeSIC); !slices.Contains(order, d) {
			order[k-1] = d
		}
	}
	slices.Sort(order)
	// Slowness is stratified (one category per band of the range, in a
	// random order) so that the categories really differ in how late they
	// get paid.
	rank := make([]int, k)
	for i := range rank {
		rank[i] = i
	}
	r.shuffle(k, func(i, j int) { rank[i], rank[j] = rank[j], rank[i] })
	cats := make([]genCategory, k)
	for i, idx := range order {
		w := r.uniform(0.3, 1)
		slow := 0.45 + 1.55*(float64(rank[i])+r.float())/float64(k)
		cats[i] = genCategory{sic: &genSICs[idx], weight: w * w, slowness: slow}
		if diverging && genSICs[idx].code == c.sc.divergeSIC {
			// Paid as promptly as any until the last three months.
			cats[i].slowness = 0.45
		}
	}
	return cats
}

// genPaymentRow fills a row from bucket amounts (current, 1-30, 31-60,
// 61-90, 91+, other); percents are of the total due, two decimals.
func genPaymentRow(name, code string, mo genMonth, accounts int, amt [6]int64, credit int64) PaymentRow {
	var total int64
	for _, a := range amt {
		total += a
	}
	pct := func(a int64) float64 {
		if total == 0 {
			return 0
		}
		return genRound2(float64(a) / float64(total) * 100)
	}
	return PaymentRow{
		CategoryName: name, CategoryCode: code, MonthReported: mo.String(), Accounts: accounts,
		TotalDue: total, CurrentAmount: amt[0], PastDue30Days: amt[1], PastDue60Days: amt[2],
		PastDue90Days: amt[3], PastDueOver90Days: amt[4], OtherAmount: amt[5], CreditBalance: credit,
		CurrentAmountPercent: pct(amt[0]), PastDue30DaysPercent: pct(amt[1]), PastDue60DaysPercent: pct(amt[2]),
		PastDue90DaysPercent: pct(amt[3]), PastDueOver90DaysPercent: pct(amt[4]), OtherAmountPercent: pct(amt[5]),
	}
}

// genIntPtr returns a pointer to a copy of v.
func genIntPtr(v int) *int { return &v }
