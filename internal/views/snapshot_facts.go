package views

import (
	"math"
	"strconv"
	"strings"
	"time"

	"creditdash/internal/credit"
	"creditdash/internal/store"
	"creditdash/internal/upstream"
)

// A dated copy is compared with today's data fact by fact: each tab lists
// the labelled values it shows, formatted as the tab shows them, and
// CompareFacts pairs them by label, so a month, a year or an officer that
// is new today shows as such instead of shifting every row below it.

// Fact is one labelled value of a report tab.
type Fact struct {
	Label, Value string
}

// notShown is a fact's value on the side that lacks it.
const notShown = "not shown"

// HeaderFacts are the business's name and location, which every tab shows.
func HeaderFacts(ident *upstream.Identification) []Fact {
	name, loc := "unknown", "unknown"
	if ident != nil {
		name, loc = ident.BusinessName, Location(ident.City, ident.State, ident.Country)
	}
	return []Fact{{"Name", name}, {"Location", loc}}
}

// OverviewFacts lists what the overview's comparison compares: name,
// location, the latest of each score with its month, the latest average
// risk, summary.
func OverviewFacts(ident *upstream.Identification, summary string, hist []upstream.CreditScoreHistoryRow, risk []upstream.RiskHistoryRow) []Fact {
	facts := HeaderFacts(ident)
	series := map[store.Score]credit.ScoreSeries{}
	for _, s := range credit.ReportSeries(0, "", hist) {
		series[s.Score] = s
	}
	for _, sc := range store.Scores {
		v := "missing"
		if s, ok := series[sc]; ok {
			v = formatScore(sc, s.Latest.Value) + " " + scoreZone(sc, s.Latest.Value).Label + " (" + Month(s.Latest.Year, s.Latest.Month) + ")"
		}
		facts = append(facts, Fact{sc.Name() + " score", v})
	}
	avg := "missing"
	var latest monthIndex
	for _, r := range risk {
		// The service's order is not relied on: the latest month wins.
		if m := monthIndexOf(r.Year, r.Month); r.AverageRiskScore.OK && !math.IsNaN(r.AverageRiskScore.V) && m > latest {
			avg, latest = Decimal(r.AverageRiskScore.V, 1)+" ("+Month(r.Year, r.Month)+")", m
		}
	}
	return append(facts, Fact{"Average risk", avg}, Fact{"Summary", summary})
}

// PaymentsFacts lists the payments tab's facts: every month's aging as
// the monthly table shows it, then the latest month's supplier categories.
func PaymentsFacts(ident *upstream.Identification, monthly, sic []upstream.PaymentSummaryRow) []Fact {
	facts := HeaderFacts(ident)
	rows := AgingRows(monthly)
	facts = append(facts, Fact{"Months reported", strconv.Itoa(len(rows))})
	for _, r := range rows {
		facts = append(facts, Fact{r.Month, agingText(r)})
	}
	month, cats := SICLatest(sic)
	if month == "" {
		month = "none"
	}
	facts = append(facts, Fact{"Supplier categories, latest month", month})
	for _, r := range cats {
		facts = append(facts, Fact{"Category " + r.Category, agingText(r)})
	}
	return facts
}

// agingText is one aging row in words: accounts, total due, each bucket
// and the DBT with its zone.
func agingText(r AgingRow) string {
	parts := []string{Plural(atoiOr(r.Accounts), "account"), "total due " + r.TotalDue}
	for i, col := range AgingColumns {
		parts = append(parts, col+" "+r.Buckets[i].Amount)
	}
	dbt := "DBT " + r.DBT
	if r.DBTZone.Label != "" {
		dbt += " " + r.DBTZone.Label
	}
	return strings.Join(append(parts, dbt, "industry DBT "+r.IndustryDBT), " · ")
}

// atoiOr reads a count formatted with thousands separators; 0 if none.
func atoiOr(s string) int {
	n, _ := strconv.Atoi(strings.ReplaceAll(s, ",", ""))
	return n
}

// FinancialsFacts lists the financials tab's facts: each data point of
// each fiscal year, the financial comments and each ratio among peers.
func FinancialsFacts(ident *upstream.Identification, stmts []upstream.AnnualFinancials, comments string, peers upstream.PeerAnalysis) []Fact {
	facts := HeaderFacts(ident)
	g := NewStatementGrid(stmts)
	years := "none"
	if len(g.Years) > 0 {
		years = strings.Join(g.Years, ", ")
	}
	facts = append(facts, Fact{"Fiscal years", years})
	for _, r := range g.Rows {
		for i, y := range g.Years {
			v := r.Withheld
			if v == "" && i < len(r.Cells) {
				v = r.Cells[i].Text
			}
			facts = append(facts, Fact{r.Label + ", " + y, v})
		}
	}
	if comments == "" {
		comments = "none"
	}
	facts = append(facts, Fact{"Financial comments", comments})
	period := "none"
	if peers.PeerYear > 0 && peers.PeerQuarter > 0 {
		period = strconv.Itoa(peers.PeerYear) + " Q" + strconv.Itoa(peers.PeerQuarter)
	}
	facts = append(facts, Fact{"Peers' period", period}, Fact{"Peers compared", strconv.Itoa(peers.PeerCount)})
	for _, r := range peers.Ratios {
		facts = append(facts, Fact{"Peers: " + ratioLabel(r.Ratio),
			"this business " + formatRatio(r.Ratio, r.Value) + " · median " + formatRatio(r.Ratio, r.Median) +
				" · rank " + RankText(r.Rank, r.Count)})
	}
	return facts
}

// OfficersFacts lists the officers tab's facts: the industry codes and
// each officer's title, dates and age.
func OfficersFacts(ident *upstream.Identification, naics []upstream.NAICSCode, officers []upstream.Officer) []Fact {
	facts := HeaderFacts(ident)
	codes := make([]string, 0, len(naics))
	for _, n := range NAICSItems(naics) {
		codes = append(codes, n.Code+" "+n.Title)
	}
	if len(codes) == 0 {
		codes = append(codes, "none")
	}
	facts = append(facts, Fact{"Industry codes", strings.Join(codes, "; ")}, Fact{"Officers", strconv.Itoa(len(officers))})
	// The tenure is left out: it grows with the day it is read, not with
	// the data.
	for _, r := range OfficerRows(officers, time.Time{}) {
		facts = append(facts, Fact{"Officer " + r.Name, r.Title + " · since " + r.TitleSince + " · hired " + r.HiredOn + " · age " + r.Age})
	}
	return facts
}

// CompareFacts pairs the facts of then and now by label and marks each
// change in words as well as colour. Rows follow then's order; facts only
// today has come after them. A label seen twice (two officers of one
// name) pairs with its namesake in the same place.
func CompareFacts(then, now []Fact) []ThenNowRow {
	type key struct {
		label string
		n     int
	}
	keyed := func(facts []Fact) ([]key, map[key]string) {
		seen := map[string]int{}
		keys := make([]key, 0, len(facts))
		values := make(map[key]string, len(facts))
		for _, f := range facts {
			k := key{f.Label, seen[f.Label]}
			seen[f.Label]++
			keys = append(keys, k)
			values[k] = f.Value
		}
		return keys, values
	}
	thenKeys, thenValues := keyed(then)
	nowKeys, nowValues := keyed(now)
	row := func(k key, t string, inThen bool, n string, inNow bool) ThenNowRow {
		r := ThenNowRow{Label: k.label, Then: t, Now: n, Changed: !inThen || !inNow || t != n, ChangeWord: "unchanged"}
		switch {
		case !inThen:
			r.Then, r.ChangeWord = notShown, "new"
		case !inNow:
			r.Now, r.ChangeWord = notShown, "gone"
		case r.Changed:
			r.ChangeWord = "changed"
		}
		if inThen && inNow {
			r.ThenParts, r.NowParts = markParts(t, n)
		} else {
			r.ThenParts, r.NowParts = []ValuePart{{Text: r.Then}}, []ValuePart{{Text: r.Now}}
		}
		return r
	}
	rows := make([]ThenNowRow, 0, len(thenKeys))
	for _, k := range thenKeys {
		n, ok := nowValues[k]
		rows = append(rows, row(k, thenValues[k], true, n, ok))
	}
	for _, k := range nowKeys {
		if _, ok := thenValues[k]; !ok {
			rows = append(rows, row(k, "", false, nowValues[k], true))
		}
	}
	return rows
}
