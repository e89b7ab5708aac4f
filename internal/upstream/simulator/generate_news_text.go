package simulator

import "fmt"

// Words for business stories.
var (
	genAgencies     = []string{"Barrow & Lane Ratings", "Northfield Credit Research", "Keel Analytics"}
	genRatings      = [11]string{"D", "CCC-", "CCC+", "B", "BB-", "BB", "BBB-", "BBB", "A-", "A+", "AA"} // by Risk, 0 = default
	genSuitTopics   = []string{"a supplier contract", "patent claims", "wage-and-hour practices", "product defects", "environmental permits", "a terminated distribution deal"}
	genDealAssets   = []string{"logistics unit", "specialty products division", "regional operations", "software subsidiary", "European business"}
	genDownReasons  = []string{"weaker cash flow", "rising leverage", "tight liquidity", "falling margins"}
	genUpReasons    = []string{"steady deleveraging", "stronger cash flow", "improved margins"}
	genDefaultTitle = []string{
		"%s misses interest payment on senior notes",
		"%s hires restructuring advisers, opens talks with lenders",
		"%s enters forbearance agreement with bank group",
	}
)

// storyText writes a title and a plain-text body for a business story of a
// class, in the tone the month's Risk and its trend call for.
func (c *genCore) storyText(r *genRand, name string, class, risk, trend int) (string, string) {
	pct := r.between(2, 14)
	switch class {
	case genNewsEarnings:
		if trend >= 0 && risk >= 5 {
			return fmt.Sprintf("%s tops quarterly forecasts as revenue grows %d%%", name, pct),
				fmt.Sprintf("%s reported quarterly revenue up %d%% from a year earlier and said demand stayed firm in its main markets.", name, pct)
		}
		return fmt.Sprintf("%s misses estimates as revenue slips %d%%", name, pct),
			fmt.Sprintf("%s reported quarterly revenue down %d%% from a year earlier and said it is reviewing costs and capital spending.", name, pct)
	case genNewsRating:
		agency := genAgencies[r.intn(len(genAgencies))]
		now, before := genRatings[risk], genRatings[min(10, max(1, risk-trend))]
		switch {
		case trend < 0 || risk <= 2:
			why := genDownReasons[r.intn(len(genDownReasons))]
			return fmt.Sprintf("%s downgrades %s to %s; outlook negative", agency, name, now),
				fmt.Sprintf("%s lowered its issuer rating on %s to %s from %s, citing %s.", agency, name, now, before, why)
		case trend > 0:
			why := genUpReasons[r.intn(len(genUpReasons))]
			return fmt.Sprintf("%s upgrades %s to %s", agency, name, now),
				fmt.Sprintf("%s raised its issuer rating on %s to %s from %s, citing %s.", agency, name, now, before, why)
		}
		return fmt.Sprintf("%s affirms %s at %s; outlook stable", agency, name, now),
			fmt.Sprintf("%s affirmed its %s rating on %s and kept a stable outlook.", agency, now, name)
	case genNewsDeal:
		other := genFamilyNames[r.intn(len(genFamilyNames))] + " " + c.primary().words[r.intn(3)] + " LLC"
		if risk <= 4 {
			asset := genDealAssets[r.intn(len(genDealAssets))]
			return fmt.Sprintf("%s agrees to sell %s to %s", name, asset, other),
				fmt.Sprintf("%s will sell its %s to %s for %s in cash and use the proceeds to pay down debt.", name, asset, other, genMoney(float64(r.between(20, 900))*1e6))
		}
		return fmt.Sprintf("%s to acquire %s", name, other),
			fmt.Sprintf("%s agreed to buy %s for %s, expanding its %s footprint; the deal is expected to close next quarter.", name, other, genMoney(float64(r.between(20, 2500))*1e6), c.primary().words[0])
	case genNewsLitigation:
		topic := genSuitTopics[r.intn(len(genSuitTopics))]
		if r.chance(0.4) {
			return fmt.Sprintf("%s settles dispute over %s", name, topic),
				fmt.Sprintf("%s agreed to pay %s to settle claims over %s without admitting liability.", name, genMoney(float64(r.between(1, 90))*1e6), topic)
		}
		return fmt.Sprintf("%s faces lawsuit over %s", name, topic),
			fmt.Sprintf("A complaint filed this week accuses %s of breaches related to %s; the company said it would defend itself.", name, topic)
	case genNewsLayoffs:
		jobs := 25 * r.between(2, 80)
		return fmt.Sprintf("%s to cut %d jobs in restructuring", name, jobs),
			fmt.Sprintf("%s said it will eliminate about %d positions and consolidate facilities to reduce costs.", name, jobs)
	}
	return fmt.Sprintf(genDefaultTitle[r.intn(len(genDefaultTitle))], name),
		fmt.Sprintf("%s said it is working with lenders and advisers on its capital structure; trade creditors report slower payments.", name)
}

// genChapter11Story is the filing story of the Chapter 11 scenario.
func genChapter11Story(name string) (string, string) {
	return fmt.Sprintf("%s files for Chapter 11 bankruptcy protection", name),
		fmt.Sprintf("%s filed a voluntary petition under Chapter 11 and said it has arranged debtor-in-possession financing to keep operating while it restructures.", name)
}

// genIndustryHeadlines are industry headline templates over a sector's
// crowd ("retailers") and one of its topics ("store closures").
var genIndustryHeadlines = []func(s *genSector, topic string) string{
	func(s *genSector, t string) string {
		return fmt.Sprintf("Outlook: %s watch %s closely this quarter", s.crowd, t)
	},
	func(s *genSector, t string) string {
		return fmt.Sprintf("Survey: %s expect relief on %s by year end", s.crowd, t)
	},
	func(s *genSector, t string) string {
		return fmt.Sprintf("Analysts flag %s as the key risk for %s", t, s.crowd)
	},
	func(s *genSector, t string) string {
		return fmt.Sprintf("Lenders tighten terms for %s amid concern over %s", s.crowd, t)
	},
	func(s *genSector, t string) string {
		return fmt.Sprintf("Mid-size %s lean on suppliers amid changes in %s", s.crowd, t)
	},
	func(s *genSector, t string) string {
		return fmt.Sprintf("Defaults among smaller %s tick up; %s cited", s.crowd, t)
	},
	func(s *genSector, t string) string {
		return fmt.Sprintf("M&A pipeline for %s grows despite %s", s.crowd, t)
	},
	func(s *genSector, t string) string {
		return fmt.Sprintf("Credit insurers revisit limits on %s over %s", s.crowd, t)
	},
	func(s *genSector, t string) string {
		return fmt.Sprintf("Large %s see %s stabilize after a volatile year", s.crowd, t)
	},
	func(s *genSector, t string) string {
		return fmt.Sprintf("How shifts in %s could change payment habits among %s", t, s.crowd)
	},
}
