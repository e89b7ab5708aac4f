package simulator

// Stories of the fixed scenario businesses (Business.Story). A thin-file
// private business that is not a scenario also carries StoryThinTradeFile,
// so that the server can say why its Pay score is missing.
const (
	StoryRiskSlide           = "risk-slide"                // 1001: Risk 7 -> 2 over the last year, DBT steady about 3
	StorySlowPayer           = "slow-payer"                // 1002: DBT about 20 while Risk stays 9
	StoryThinTradeFile       = "thin-trade-file"           // 1003: too few trade lines for a Pay score
	StoryChapter11           = "chapter-11"                // 1004: Risk 1, 91+ above 30 %, bankruptcy news
	StoryPayTurnaround       = "pay-turnaround"            // 1005: Pay 3 -> 7 over a year
	StoryZScoreMissing       = "zscore-missing"            // 1006: no Z-Score for the latest quarters
	StoryNoFinancials        = "no-statements-no-officers" // 1007: empty statements and officers
	StorySuppliersLast       = "suppliers-last"            // 1008: DBT toward SIC 36 up 12-20 days in 3 months, overall steady
	ScenarioFirstID    int32 = 1001                        // first scenario business
	ScenarioLastID     int32 = 1008                        // last scenario business
	// ScenarioDivergeSIC is the supplier category 1008 pays last.
	ScenarioDivergeSIC = "36"
)

// StoryNote is a sentence the dashboard can show for a story ("" for none).
func StoryNote(story string) string {
	switch story {
	case StoryThinTradeFile:
		return "No Pay score: thin trade file (too few trade lines reported)."
	case StoryZScoreMissing:
		return "No Z-Score for the latest quarters: interim filings not yet received."
	case StoryNoFinancials:
		return "No financial statements or officers on file."
	case StoryChapter11:
		return "Filed for Chapter 11 bankruptcy protection."
	case StoryRiskSlide:
		return "Risk score has fallen sharply over the last year."
	case StorySlowPayer:
		return "Strong credit that pays its suppliers slowly."
	case StoryPayTurnaround:
		return "Payment record has improved steadily over the last year."
	case StorySuppliersLast:
		return "Pays its electronic-parts suppliers later and later while its overall payments look steady."
	}
	return ""
}

// genScenario fixes what a scenario business must show; the rest of it is
// generated like any other business. It is plain data, dispatched by
// switch rather than through function values, so that escape analysis keeps
// the generator's state on the stack for the million ordinary calls.
type genScenario struct {
	story                    string
	name, industry, city     string
	public, thin, statements bool
	noOfficers               bool
	finalRisk                int
	revenue                  float64 // latest fiscal-year sales; 0: drawn
	// fyLatest ends the fiscal years three months before the as-of month,
	// the latest a filing can be in, so that the newest statements show
	// where the story has got to whatever month the data is made for.
	fyLatest bool
	// fyTilt replaces the drawn offsets of the statement ratios (leverage,
	// current ratio, EBIT margin, retained earnings, in standard
	// deviations), so that a story's statements do not depend on the seed.
	fyTilt                  [4]float64
	riskTail                []int // latest months of Risk, last = latest; nil: generated
	trade                   int   // genTrade* below
	steadyProfile           int
	steadyDBT, steadySpread float64
	hideZ                   bool
	// divergeSIC is a supplier category the business pays later and
	// later over the last three months (see divergeMonth).
	divergeSIC string
}

// How a scenario's trade payments behave.
const (
	genTradeGeneric = iota
	genTradeSteady
	genTradeChapter11
	genTradeTurnaround
)

// genScenarioFor returns the scenario of a fixed business, nil for others.
func genScenarioFor(id int32) *genScenario {
	if id < ScenarioFirstID || id > ScenarioLastID {
		return nil
	}
	return &genScenarios[id-ScenarioFirstID]
}

var genScenarios = [...]genScenario{
	{story: StoryRiskSlide, name: "Westbridge Department Stores Inc", industry: "455110", city: "Columbus",
		public: true, statements: true, finalRisk: 2, revenue: 8.4e9, fyLatest: true,
		fyTilt:   [4]float64{0, 0, -2.5, 0}, // a department store's thin margin: a loss once Risk is down to 3
		riskTail: []int{7, 7, 7, 6, 6, 5, 5, 4, 4, 3, 3, 3, 2, 2},
		trade:    genTradeSteady, steadyProfile: genPrompt, steadyDBT: 3, steadySpread: 0.3},
	{story: StorySlowPayer, name: "Stonecrest Machinery Corporation", industry: "333120", city: "Milwaukee",
		public: true, statements: true, finalRisk: 9, revenue: 32e9, riskTail: []int{9},
		trade: genTradeSteady, steadyProfile: genStressed, steadyDBT: 20, steadySpread: 0.6},
	{story: StoryThinTradeFile, name: "Calloway Industrial Supply LLC", industry: "423830", city: "Cleveland",
		thin: true, finalRisk: 6},
	{story: StoryChapter11, name: "Redrock Freight Lines Inc", industry: "484121", city: "Tulsa",
		public: true, statements: true, finalRisk: 1, revenue: 1.4e9, fyLatest: true,
		fyTilt:   [4]float64{0, -1, 0, 0}, // bills it can no longer pay: negative working capital at the end
		riskTail: []int{5, 5, 5, 4, 4, 3, 3, 2, 2, 1, 1, 1, 1}, trade: genTradeChapter11},
	{story: StoryPayTurnaround, name: "Glenbrook Molding Co", industry: "326199", city: "Grand Rapids",
		finalRisk: 6, riskTail: []int{4, 4, 4, 4, 5, 5, 5, 5, 6, 6, 6, 6, 6}, trade: genTradeTurnaround},
	{story: StoryZScoreMissing, name: "Silverpoint Semiconductor Corp", industry: "334413", city: "San Jose",
		public: true, statements: true, finalRisk: 6, hideZ: true},
	{story: StoryNoFinancials, name: "Hadley Workforce Inc", industry: "561320", city: "Omaha",
		finalRisk: 7, noOfficers: true},
	{story: StorySuppliersLast, name: "Brightline Systems Distribution Inc", industry: "423430", city: "Charlotte",
		finalRisk: 5, riskTail: []int{6, 6, 6, 6, 6, 6, 5, 5, 5, 5, 5, 5},
		trade: genTradeSteady, steadyProfile: genSlow, steadyDBT: 9, steadySpread: 0.3, divergeSIC: ScenarioDivergeSIC},
}

// scenarioRisk sets a Risk path that ends with the scenario's tail and
// before it holds the tail's first value; a history with a story to tell
// wobbles up a point now and then, a flat one (a single value) never moves.
func (c *genCore) scenarioRisk(r *genRand) {
	tail := c.sc.riskTail
	head := c.months - len(tail)
	for m := 0; m < head; m++ {
		c.risk[m] = tail[0]
		if len(tail) > 1 && tail[0] < 10 && m%2 == 1 && r.chance(0.2) {
			c.risk[m]++
		}
	}
	copy(c.risk[head:c.months], tail)
}

// scenarioTrade is the month's DBT and bucket weights for a scenario.
func (c *genCore) scenarioTrade(m int, r *genRand) (float64, [4]float64) {
	sc := c.sc
	ago := c.months - 1 - m
	switch sc.trade {
	case genTradeSteady:
		d := genClamp(sc.steadyDBT+sc.steadySpread*r.norm(), sc.steadyDBT-1.4*sc.steadySpread, sc.steadyDBT+1.4*sc.steadySpread)
		return d, genProfiles[sc.steadyProfile].weights
	case genTradeChapter11:
		// Late, then later, then not paying: most of the money 91+ days
		// late in the last four months.
		switch {
		case ago < 4:
			return 55 + 2*r.norm(), genProfiles[genDefaulted].weights
		case ago < 10:
			return 30 + float64(10-ago)*2 + r.norm(), genProfiles[genStressed].weights
		}
		return 22 + r.norm(), genProfiles[genStressed].weights
	default: // genTradeTurnaround
		// Stressed (about 24 days, Pay 3) a year ago to prompt (about 6.5
		// days, Pay 7) now, the bucket mix moving with it.
		t := genClamp(float64(12-ago)/12, 0, 1)
		from, to := genProfiles[genStressed].weights, genProfiles[genPrompt].weights
		var w [4]float64
		for b := range w {
			w[b] = from[b] + t*(to[b]-from[b])
		}
		return 24 + t*(6.5-24) + 0.2*r.norm(), w
	}
}

// hideLatestZ removes the Z-Score from the last three calendar quarters (so
// at least the last two whole ones), as when interim filings are late.
func (c *genCore) hideLatestZ() {
	for m := 0; m < c.months; m++ {
		if (c.start() + genMonth(m)).quarter() > c.asOf.quarter()-3 {
			c.hasZ[m], c.z[m] = false, 0
		}
	}
}
