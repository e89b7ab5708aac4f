package simulator

// genFiscal is one fiscal year of statement figures, in whole thousands of
// dollars, exactly as they will appear in the statements.
type genFiscal struct {
	year                     int
	end                      genMonth // month of the period end
	sales, cogs, gross, ebit float64
	net, assets, current     float64
	curLiab, liab, retained  float64
	cash                     float64
	cashMissing              bool // the service has no cash figure for the year
	z                        float64
}

// workingCapital and equity are derived, never drawn, so the statement
// identities hold exactly.
func (f *genFiscal) workingCapital() float64 { return f.current - f.curLiab }
func (f *genFiscal) equity() float64         { return f.assets - f.liab }

// genZ is the four-ratio Z″ score: 6.56·WC/TA + 3.26·RE/TA + 6.72·EBIT/TA +
// 1.05·Equity/TL, rounded to two decimals.
func genZ(wc, re, ebit, ta, equity, tl float64) float64 {
	return genRound2(6.56*wc/ta + 3.26*re/ta + 6.72*ebit/ta + 1.05*equity/tl)
}

// zScore is the Z″ of the fiscal year's own figures.
func (f *genFiscal) zScore() float64 {
	return genZ(f.workingCapital(), f.retained, f.ebit, f.assets, f.equity(), f.liab)
}

// genFilingMonths is how long a fiscal year's statements take to be filed:
// the newest year ends at least this many months before the as-of month.
const genFilingMonths = 3

// genFYEndMonths are the months fiscal years end in, and how common each is.
var (
	genFYEndMonths = [4]int{12, 6, 9, 3}
	genFYEndOdds   = [4]float64{0.7, 0.12, 0.1, 0.08}
)

// fiscalYears builds 3-5 years of statement figures, newest first. Each
// year's ratios follow the business's health at its period end: strong ones
// carry less debt, more liquidity, wider margins and more retained
// earnings; distressed ones shrink, lose money and run working capital
// down. The Z-Score series is then anchored on these years.
func (c *genCore) fiscalYears() {
	if !c.statements {
		return
	}
	r := newGenRand(c.seed, int64(c.id), genStreamFiscal)
	sec := genSectorOf(c.primary().code)
	endMonth := genFYEndMonths[r.weighted(genFYEndOdds[:])]
	c.nFY = 3
	sales := r.logUniform(50e6, 2e9)
	if c.public {
		c.nFY = r.between(3, genMaxFY)
		if c.bulk >= 0 {
			c.nFY = 3 // the fewest years allowed, as with the history
		}
		sales = r.logUniform(50e6, 50e9)
	}
	if c.sc != nil && c.sc.revenue > 0 {
		c.nFY, sales = genMaxFY, c.sc.revenue
	}
	if c.sc != nil && c.sc.fyLatest {
		endMonth = (c.asOf - genFilingMonths).month()
	}
	// The latest year is the last one whose statements had three months to
	// be filed by the as-of month.
	latest := c.asOf - genFilingMonths
	for latest.month() != endMonth {
		latest--
	}
	turnover := sec.turnover * r.uniform(0.75, 1.3)
	gm := sec.grossMgn * r.uniform(0.8, 1.2)
	caShare := genClamp(sec.caShare*r.uniform(0.8, 1.25), 0.1, 0.65)
	offL, offC, offM, offR := r.norm(), r.norm(), r.norm(), r.norm()
	if c.sc != nil {
		offL, offC, offM, offR = c.sc.fyTilt[0], c.sc.fyTilt[1], c.sc.fyTilt[2], c.sc.fyTilt[3]
	}
	for k := 0; k < c.nFY; k++ {
		end := latest - genMonth(12*k)
		h := c.healthAt(end)
		u := (h - 1) / 9
		// Three raw draws, split in 16-bit slices, give the year's twelve
		// small variations; full draws for each would double the cost of
		// the statements in BulkListing.
		x, y, z := r.next(), r.next(), r.next()
		lev := genClamp(0.86-0.5*u+0.04*offL+0.02*genTriangular(genU16(x, 0), genU16(x, 1)), 0.31, 0.89)
		cr := genClamp(0.85+1.45*u+0.12*offC+0.05*genTriangular(genU16(x, 2), genU16(x, 3)), 0.82, 2.45)
		margin := genClamp(-0.045+0.25*u+0.02*offM+0.01*genTriangular(genU16(y, 0), genU16(y, 1)), -0.049, min(0.249, gm-0.03))
		re := genClamp(-0.55+1.05*u+0.08*offR+0.03*genTriangular(genU16(y, 2), genU16(y, 3)), -0.8, min(0.75, 1.2-lev))
		ta := sales / (turnover * (0.95 + 0.1*genU16(z, 0)))
		f := &c.fy[k]
		f.year, f.end = end.year(), end
		f.sales = genRound1k(sales)
		f.cogs = genRound1k(sales * (1 - gm))
		f.gross = f.sales - f.cogs
		f.ebit = genRound1k(margin * sales)
		pretax := f.ebit - 0.6*lev*ta*0.05 // interest on the debt part of liabilities
		f.net = genRound1k(pretax - max(0, 0.23*pretax))
		f.assets = genRound1k(ta)
		f.liab = genRound1k(lev * ta)
		f.current = genRound1k(caShare * ta * (0.95 + 0.1*genU16(z, 1)))
		f.curLiab = genRound1k(f.current / cr)
		f.retained = genRound1k(re * ta)
		f.cash = genRound1k((0.1 + 0.35*genU16(z, 2)) * f.current)
		f.cashMissing = k == c.nFY-1 && genU16(z, 3) < 0.15
		f.z = f.zScore()
		// Step back a year: growth follows the change in health.
		w := r.next()
		g := 0.04 + 0.05*(h-c.healthAt(end-12)) + 0.03*genTriangular(genU16(w, 0), genU16(w, 1))
		if h < 3 {
			g -= 0.06
		}
		sales = genClamp(sales/(1+genClamp(g, -0.3, 0.3)), 50e6, 50e9)
	}
	c.zSeriesFrom(&r)
}

// zSeriesFrom fills the quarterly Z-Score of a public business. The rule:
// all months of a calendar quarter carry the same value; the quarter that
// holds a fiscal year's period end carries that year's Z″ exactly; quarters
// between two year ends are interpolated (interim filings we do not
// publish); quarters after the latest year end, or before the oldest, move
// with the business's health.
func (c *genCore) zSeriesFrom(r *genRand) {
	if !c.public || c.nFY == 0 {
		return
	}
	newest, oldest := &c.fy[0], &c.fy[c.nFY-1]
	for q := c.start().quarter(); q <= c.asOf.quarter(); q++ {
		last := min(c.asOf, genMonth(q*3+2))
		x := r.next()
		noise := 0.1 * genTriangular(genU16(x, 0), genU16(x, 1))
		z := 0.0
		switch {
		case q > newest.end.quarter():
			z = newest.z + 0.55*(c.healthAt(last)-c.healthAt(newest.end)) + noise
		case q < oldest.end.quarter():
			z = oldest.z + 0.55*(c.healthAt(last)-c.healthAt(oldest.end)) + noise
		default:
			z = c.interpolateZ(q) + noise
		}
		z = genRound2(genClamp(z, -4, 12))
		for m := genMonth(q * 3); m <= genMonth(q*3+2); m++ {
			if i := int(m - c.start()); i >= 0 && i < c.months {
				c.z[i], c.hasZ[i] = z, true
			}
		}
	}
	// Year-end quarters must equal their statements exactly, noise or not.
	for k := 0; k < c.nFY; k++ {
		for m := genMonth(c.fy[k].end.quarter() * 3); m <= genMonth(c.fy[k].end.quarter()*3+2); m++ {
			if i := int(m - c.start()); i >= 0 && i < c.months {
				c.z[i] = c.fy[k].z
			}
		}
	}
}

// interpolateZ is the straight line between the two fiscal years around
// quarter q (or the year's own value on a year-end quarter).
func (c *genCore) interpolateZ(q int) float64 {
	for k := 0; k+1 < c.nFY; k++ {
		hi, lo := &c.fy[k], &c.fy[k+1]
		qh, ql := hi.end.quarter(), lo.end.quarter()
		if q <= qh && q >= ql {
			t := float64(q-ql) / float64(qh-ql)
			return lo.z + t*(hi.z-lo.z)
		}
	}
	return c.fy[0].z
}
