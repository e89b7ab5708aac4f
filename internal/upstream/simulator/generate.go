package simulator

import "time"

// GenerateOptions controls Generate.
type GenerateOptions struct {
	Seed int64
	AsOf time.Time // the latest month with data; only year and month count. Zero: the month before the current one (UTC).
}

// The regular population: ids genFirstID .. genFirstID+GenerateCount-1.
const (
	genFirstID = 1001
	// GenerateCount is how many businesses Generate makes, from id 1001.
	GenerateCount = 520
)

// Generate builds the demo dataset: businesses from id 1001 (at least 500), the fixed scenario businesses 1001-1007, the four demo users and the two-factor user secure, industry news per sector.
func Generate(opts GenerateOptions) *Dataset {
	asOf := genAsOfMonth(opts.AsOf)
	d := &Dataset{
		Seed:       opts.Seed,
		AsOf:       asOf.String(),
		Businesses: make([]Business, GenerateCount),
	}
	for i := range d.Businesses {
		d.Businesses[i] = genBusiness(opts.Seed, asOf, genFirstID+int32(i))
	}
	d.Users = genUsers(opts.Seed, asOf, d)
	d.IndustryNews = genIndustryNews(opts.Seed, asOf)
	return d
}

// GenerateBusiness builds one business deterministically from (seed, asOf month, id) alone, independent of any other business. Generate uses it for non-scenario businesses; the server uses it to make bulk businesses on the fly.
//
// For a scenario id (1001-1007) it returns the scenario business, and for a
// bulk id it returns the business whose cheap part BulkListing gives, so any
// id means the same business wherever it is made.
func GenerateBusiness(seed int64, asOf time.Time, id int32) Business {
	return genBusiness(seed, genAsOfMonth(asOf), id)
}

// genBusiness builds the full business: the cheap part, then payments,
// statements, officers, text and news on the same numbers.
func genBusiness(seed int64, asOf genMonth, id int32) Business {
	var c genCore
	genBuildCore(&c, seed, asOf, id, genBulkIndex(id))
	b := c.listing()
	c.complete(&b)
	return b
}

// complete adds everything BulkListing leaves out. Each part draws from its
// own stream so that none depends on how many draws another made.
func (c *genCore) complete(b *Business) {
	text := newGenRand(c.seed, int64(c.id), genStreamText)
	b.Address = c.address(&text)
	b.Ticker = c.ticker(&text)
	b.Statements = c.statementList()
	amounts := newGenRand(c.seed, int64(c.id), genStreamAmounts)
	b.PaymentsMonthly, b.PaymentsSIC = c.payments(&amounts)
	people := newGenRand(c.seed, int64(c.id), genStreamOfficers)
	b.Officers = c.officers(&people)
	b.Summary = c.summary(&text, b)
	b.FinancialComments = c.comments(b)
	news := newGenRand(c.seed, int64(c.id), genStreamNews)
	b.News = c.news(&news, b.Name)
}

// name is the company name; scenario businesses have fixed ones.
func (c *genCore) name() string {
	if c.sc != nil {
		return c.sc.name
	}
	return genCompanyName(c.bulk, c.nameBase, c.nameWord, c.suffix)
}

// story is the business's Story: its scenario, or why its Pay score is
// missing.
func (c *genCore) story() string {
	switch {
	case c.sc != nil:
		return c.sc.story
	case c.thin:
		return StoryThinTradeFile
	}
	return ""
}

// listing converts the cheap part into a Business with the fields
// BulkListing promises: ID, Name, City, State, Country, NAICS, Public,
// Scores (and Story, which costs nothing).
func (c *genCore) listing() Business {
	city := &genCities[c.city]
	b := Business{
		ID: c.id, Name: c.name(), City: city.city, State: city.state, Country: city.country,
		Public: c.public, Story: c.story(),
	}
	b.NAICS = make([]NAICSCode, c.nIndustry)
	for i := range b.NAICS {
		ind := &genIndustries[c.industries[i]]
		b.NAICS[i] = NAICSCode{Code: ind.code, Name: ind.title}
	}
	b.Scores = c.scoreMonths()
	return b
}

// genScoreValues backs the pointers of one ScoreMonth.
type genScoreValues struct {
	risk, pay, dbt int
	avg, z         float64
}

// scoreMonths renders the score series, oldest first, with two
// allocations instead of one per score per month. The months are filled on
// the stack and copied in at once: storing each pointer into the heap one
// by one costs a write barrier per pointer while the collector runs, which
// it nearly always does during a million-row export.
func (c *genCore) scoreMonths() []ScoreMonth {
	n := c.months
	values := make([]genScoreValues, n)
	var months [genMaxMonths]ScoreMonth
	for m := range n {
		mo := c.start() + genMonth(m)
		v, s := &values[m], &months[m]
		*v = genScoreValues{risk: c.risk[m], pay: c.pay[m], dbt: c.dbt[m], avg: c.avgRisk[m], z: c.z[m]}
		s.Year, s.Month = mo.year(), mo.month()
		s.Risk, s.AverageRisk, s.DBT = &v.risk, &v.avg, &v.dbt
		if c.pay[m] > 0 {
			s.Pay = &v.pay
		}
		if c.hasZ[m] {
			s.Z = &v.z
		}
	}
	return append([]ScoreMonth(nil), months[:n]...)
}
