package views

import (
	"math"
	"strconv"
	"time"

	"creditdash/internal/store"
	"creditdash/internal/upstream"
)

// SnapshotMark says a page shows a dated copy, not today's data.
type SnapshotMark struct {
	ID         string
	BusinessID int32
	Name       string
	// AsOf is when the service sent the data, for "as of <date>".
	AsOf    string
	AsOfISO string
	Saved   string
	Size    string
}

// URL, CompareURL and ReportURL are the copy's pages and today's report.
func (m SnapshotMark) URL() string        { return "/snapshots/" + m.ID }
func (m SnapshotMark) CompareURL() string { return "/snapshots/" + m.ID + "/compare" }
func (m SnapshotMark) ReportURL() string  { return reportURL(m.BusinessID) }
func (m SnapshotMark) DeleteURL() string  { return "/snapshots/" + m.ID + "/delete" }

// NewSnapshotMark describes a stored copy.
func NewSnapshotMark(s store.SnapshotInfo) *SnapshotMark {
	return &SnapshotMark{ID: strconv.FormatInt(s.ID, 10), BusinessID: s.BusinessID, Name: s.BusinessName,
		AsOf: DateTime(s.Fetched), AsOfISO: s.Fetched.UTC().Format(time.RFC3339), Saved: DateTime(s.Saved),
		Size: Plural(max(1, (s.Size+1023)/1024), "kB")}
}

// SnapshotsPage lists the analyst's dated copies.
type SnapshotsPage struct {
	Base
	Rows []SnapshotMark
}

// SnapshotRows formats the list, newest first as the store gives it.
func SnapshotRows(list []store.SnapshotInfo) []SnapshotMark {
	out := make([]SnapshotMark, 0, len(list))
	for _, s := range list {
		out = append(out, *NewSnapshotMark(s))
	}
	return out
}

// SnapshotComparePage puts a dated copy beside today's data.
type SnapshotComparePage struct {
	Base
	Snapshot SnapshotMark
	Rows     []ThenNowRow
	// TodayProblem tells why today's data is missing.
	TodayProblem *Problem
}

// ThenNowRow is one fact then and now.
type ThenNowRow struct {
	Label      string
	Then, Now  string
	Changed    bool
	ChangeWord string // "changed", "unchanged"
}

// Fact is one labelled value of an overview.
type Fact struct {
	Label, Value string
}

// OverviewFacts lists what the comparison compares: name, location, the
// latest of each score with its month, the latest average risk, summary.
func OverviewFacts(ident *upstream.Identification, summary string, hist []upstream.CreditScoreHistoryRow, risk []upstream.RiskHistoryRow) []Fact {
	var facts []Fact
	name, loc := "unknown", "unknown"
	if ident != nil {
		name, loc = ident.BusinessName, Location(ident.City, ident.State, ident.Country)
	}
	facts = append(facts, Fact{"Name", name}, Fact{"Location", loc})
	series := map[store.Score]ScoreSeries{}
	for _, s := range ReportSeries(0, "", hist) {
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
		if m := monthIndexOf(r.Year, r.Month); r.AverageRiskScore != nil && !math.IsNaN(*r.AverageRiskScore) && m > latest {
			avg, latest = Decimal(*r.AverageRiskScore, 1)+" ("+Month(r.Year, r.Month)+")", m
		}
	}
	facts = append(facts, Fact{"Average risk", avg}, Fact{"Summary", summary})
	return facts
}

// CompareOverview pairs the facts of then and now and marks each change
// in words as well as colour.
func CompareOverview(then, now []Fact) []ThenNowRow {
	rows := make([]ThenNowRow, 0, len(then))
	for i, t := range then {
		n := ""
		if i < len(now) {
			n = now[i].Value
		}
		r := ThenNowRow{Label: t.Label, Then: t.Value, Now: n, Changed: t.Value != n, ChangeWord: "unchanged"}
		if r.Changed {
			r.ChangeWord = "changed"
		}
		rows = append(rows, r)
	}
	return rows
}
