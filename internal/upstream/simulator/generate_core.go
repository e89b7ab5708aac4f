package simulator

// Sizes of the fixed arrays in genCore; keeping them fixed lets BulkListing
// build a business without heap allocations beyond the returned slices.
const (
	genMaxMonths = 36 // longest score history
	genMaxFY     = 5  // most fiscal years of statements
	genMaxExtra  = 3  // most NAICS codes per business
)

// genCore is the cheap part of a business: identity and every monthly
// series the scores come from. BulkListing stops here; GenerateBusiness
// builds payments, statements and text on top of the same numbers, so the
// two always agree.
type genCore struct {
	seed int64
	id   int32
	asOf genMonth
	bulk int // index in the bulk portfolio, -1 for a regular business
	sc   *genScenario

	public     bool
	thin       bool // thin trade file: no Pay score
	statements bool
	industries [genMaxExtra]int
	nIndustry  int
	city       int
	nameBase   int
	nameWord   string
	suffix     string
	finalRisk  int

	months  int // length of the score history, oldest first
	risk    [genMaxMonths]int
	health  [genMaxMonths]float64 // risk plus a smooth wobble; drives the statements
	avgRisk [genMaxMonths]float64
	profile int // trade payer profile
	// The trade file by month: the DBT its buckets come to, the weights of
	// the past-due buckets and the "other" percent (genShares turns them
	// into percents when payments are rendered).
	dbtExact [genMaxMonths]float64
	weights  [genMaxMonths][4]float64
	other    [genMaxMonths]float64
	dbt      [genMaxMonths]int   // DBT index: dbtExact rounded
	pay      [genMaxMonths]int   // 0: no Pay score
	fy       [genMaxFY]genFiscal // newest first
	nFY      int
	z        [genMaxMonths]float64
	hasZ     [genMaxMonths]bool
	// divergeBase is the diverging scenario category's DBT three months
	// before the latest (see divergeMonth).
	divergeBase float64
}

// start is the oldest month of the score history.
func (c *genCore) start() genMonth { return c.asOf - genMonth(c.months-1) }

// primary is the business's main industry.
func (c *genCore) primary() *genIndustry { return &genIndustries[c.industries[0]] }

// genBuildCore fills c, which must be zero, for (seed, asOf, id). bulk is
// the bulk index or -1. (Assigning a whole new genCore would build a second
// 6 KB value and copy it, a tenth of BulkListing's time.)
func genBuildCore(c *genCore, seed int64, asOf genMonth, id int32, bulk int) {
	c.seed, c.id, c.asOf, c.bulk, c.sc = seed, id, asOf, bulk, genScenarioFor(id)
	c.identity()
	c.riskSeries()
	c.tradeSeries()
	c.fiscalYears()
	if c.sc != nil && c.sc.hideZ {
		c.hideLatestZ()
	}
}

// genRiskShares is DEMO-DATA's target spread of the latest Risk score,
// index 0 for Risk 1 up to index 9 for Risk 10.
var genRiskShares = [10]float64{0.03, 0.04, 0.06, 0.08, 0.10, 0.12, 0.13, 0.14, 0.15, 0.15}

// Population shares (DEMO-DATA "Population").
const (
	genPublicShare     = 0.60
	genThinShare       = 0.125 // of private businesses
	genPrivateStmShare = 0.30  // private businesses that file statements
)

// identity decides who the business is: public or private, industry,
// location, name, history length and its latest Risk score.
func (c *genCore) identity() {
	r := newGenRand(c.seed, int64(c.id), genStreamIdentity)
	c.public = genWeyl(c.seed, c.id, genAlphaPublic, 1) < genPublicShare
	c.thin = !c.public && genWeyl(c.seed, c.id, genAlphaThin, 2) < genThinShare
	c.statements = c.public || (!c.thin && r.chance(genPrivateStmShare))
	c.finalRisk = genRiskBand(genWeyl(c.seed, c.id, genAlphaRisk, 3))
	c.industries[0] = r.intn(len(genIndustries))
	c.nIndustry = 1 + r.weighted([]float64{0.5, 0.35, 0.15})
	c.city = r.intn(len(genCities))
	c.months = r.between(24, genMaxMonths)
	if c.bulk >= 0 {
		// Bulk businesses carry the shortest history DEMO-DATA allows: a
		// million-row export builds every one of them.
		c.months = 24
	}
	if sc := c.sc; sc != nil {
		c.public, c.thin, c.statements = sc.public, sc.thin, sc.statements
		c.industries[0] = genIndustryIndex(sc.industry)
		c.city = genCityIndex(sc.city)
		c.months = genMaxMonths
		c.finalRisk = sc.finalRisk
	}
	c.pickExtraIndustries(&r)
	ind := c.primary()
	c.nameBase = genNameBase(c.seed, c.id)
	c.nameWord = ind.words[r.intn(len(ind.words))]
	if c.public {
		c.suffix = genSuffixPublic[r.intn(len(genSuffixPublic))]
	} else {
		c.suffix = genSuffixPrivate[r.intn(len(genSuffixPrivate))]
	}
}

// pickExtraIndustries adds secondary codes from the same broad group
// (first NAICS digit), as a manufacturer that also wholesales would have.
func (c *genCore) pickExtraIndustries(r *genRand) {
	first := c.primary().code[0]
	want := c.nIndustry
	c.nIndustry = 1
	for tries := 0; c.nIndustry < want && tries < 20; tries++ {
		k := r.intn(len(genIndustries))
		if genIndustries[k].code[0] != first || c.hasIndustry(k) {
			continue
		}
		c.industries[c.nIndustry] = k
		c.nIndustry++
	}
}

// hasIndustry reports whether table index k is already assigned.
func (c *genCore) hasIndustry(k int) bool {
	for _, i := range c.industries[:c.nIndustry] {
		if i == k {
			return true
		}
	}
	return false
}

// genRiskBand maps a uniform value to a Risk score with genRiskShares.
func genRiskBand(u float64) int {
	for i, p := range genRiskShares {
		if u < p {
			return i + 1
		}
		u -= p
	}
	return 10
}
