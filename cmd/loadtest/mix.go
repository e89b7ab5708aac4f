package main

import (
	"fmt"
	"math/rand/v2"
)

// kind is a page of the dashboard an analyst opens.
type kind int

const (
	kindOverview kind = iota
	kindPayments
	kindFinancials
	kindOfficers
	kindPortfolio
	kindScores
	kindNews
	kindHome
	kindExport
	numKinds
)

var kindNames = [numKinds]string{"overview", "payments", "financials", "officers", "portfolio", "scores", "news", "home", "export"}

func (k kind) String() string { return kindNames[k] }

// analystMix is how often an analyst opens each page, per 100 requests:
// mostly business reports (the overview, then a tab of the same business),
// the portfolio and its scores, some news, the home page, and an export now
// and then.
var analystMix = [numKinds]int{
	kindOverview: 30, kindPayments: 12, kindFinancials: 12, kindOfficers: 8,
	kindPortfolio: 12, kindScores: 10, kindNews: 8, kindHome: 6, kindExport: 2,
}

// stormMix is the hostile Ordinary user's: reports, scores and exports,
// the pages that spend the quota.
var stormMix = [numKinds]int{
	kindOverview: 30, kindPayments: 10, kindScores: 20, kindPortfolio: 10, kindExport: 30,
}

// victimMix is the starved user's: pages only, no export.
var victimMix = [numKinds]int{
	kindOverview: 50, kindPayments: 15, kindPortfolio: 20, kindScores: 15,
}

// The businesses analysts open: the regular population of the stand-in.
const (
	firstBusiness = 1001
	lastBusiness  = 1500
)

// page is one request of the mix: its kind, the business it is about (for
// the report tabs) and its path on the dashboard.
type page struct {
	kind     kind
	business int
	path     string
}

// mixer draws an analyst's pages: a tab opens the business of the last
// overview, as an analyst reads one report at a time; an overview opens a
// new business. Seeded, so the direct run replays the dashboard run's pages.
type mixer struct {
	weights  [numKinds]int
	total    int
	rnd      *rand.Rand
	business int
}

func newMixer(weights [numKinds]int, seed uint64) *mixer {
	m := &mixer{weights: weights, rnd: rand.New(rand.NewPCG(seed, 0x10ad))}
	for _, w := range weights {
		m.total += w
	}
	m.business = m.newBusiness()
	return m
}

func (m *mixer) newBusiness() int {
	return firstBusiness + m.rnd.IntN(lastBusiness-firstBusiness+1)
}

// next is the following page.
func (m *mixer) next() page {
	n := m.rnd.IntN(m.total)
	k := kind(0)
	for ; k < numKinds-1 && n >= m.weights[k]; k++ {
		n -= m.weights[k]
	}
	if k == kindOverview {
		m.business = m.newBusiness()
	}
	return page{kind: k, business: m.business, path: pathOf(k, m.business)}
}

// pathOf is the dashboard path of a page.
func pathOf(k kind, business int) string {
	switch k {
	case kindOverview:
		return fmt.Sprintf("/businesses/%d", business)
	case kindPayments, kindFinancials, kindOfficers:
		return fmt.Sprintf("/businesses/%d/%s", business, k)
	case kindPortfolio:
		return "/portfolio"
	case kindScores:
		return "/portfolio/scores"
	case kindNews:
		return "/news/industry"
	case kindExport:
		return "/portfolio/export?format=csv"
	}
	return "/"
}
