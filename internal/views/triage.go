package views

import (
	"cmp"
	"math"
	"slices"
	"strconv"
	"strings"

	"creditdash/internal/credit"
	"creditdash/internal/store"
	"creditdash/internal/upstream"
)

// TriageSort is how a triage table is ordered, as ?sort= spells it.
type TriageSort string

// The orders: worst first overall (the default), by one score worst
// first, or by name.
const (
	SortWorst TriageSort = "worst"
	SortRisk  TriageSort = "risk"
	SortPay   TriageSort = "pay"
	SortDBT   TriageSort = "dbt"
	SortZ     TriageSort = "z"
	SortName  TriageSort = "name"
)

// ReadTriageSort reads ?sort=; anything else is the default, worst first.
func ReadTriageSort(raw string) TriageSort {
	switch s := TriageSort(strings.ToLower(strings.TrimSpace(raw))); s {
	case SortRisk, SortPay, SortDBT, SortZ, SortName:
		return s
	}
	return SortWorst
}

// TriageRow is one business with its latest known four scores.
type TriageRow struct {
	ID, Name, URL      string
	Risk, Pay, DBT, Z  ScoreCell
	id                 int32
	risk, pay, dbt, zv *float64
	worst              credit.Level
}

// TriageColumn is a sortable column heading.
type TriageColumn struct {
	Label, URL string
	// Sorted is the column the table is ordered by.
	Sorted bool
}

// TriageColumns are the headings of a triage table at base (a path with
// an optional anchor after #), the current order marked.
func TriageColumns(base string, by TriageSort) []TriageColumn {
	path, anchor, _ := strings.Cut(base, "#")
	link := func(s TriageSort) string {
		u := path
		if s != SortWorst {
			u += "?sort=" + string(s)
		}
		if anchor != "" {
			u += "#" + anchor
		}
		return u
	}
	cols := []struct {
		s     TriageSort
		label string
	}{{SortName, "Business"}, {SortRisk, "Risk"}, {SortPay, "Pay"}, {SortDBT, "DBT"}, {SortZ, "Z″"}, {SortWorst, "Worst first"}}
	out := make([]TriageColumn, 0, len(cols))
	for _, c := range cols {
		out = append(out, TriageColumn{Label: c.label, URL: link(c.s), Sorted: c.s == by})
	}
	return out
}

// Member is a business to triage: its id and name.
type Member struct {
	ID   int32
	Name string
}

// MembersOf lists a folder's businesses once each.
func MembersOf(members []upstream.PortfolioBusiness) []Member {
	seen := map[int32]bool{}
	out := make([]Member, 0, len(members))
	for _, m := range members {
		if !seen[m.BusinessID] {
			seen[m.BusinessID] = true
			out = append(out, Member{ID: m.BusinessID, Name: m.BusinessName})
		}
	}
	return out
}

// TriageRows gives each business its latest Pay and Z″ from the portfolio
// histories (nil when not loaded) and, for Risk and DBT, which only a
// report carries, the value the analyst last saw on one (seen); then
// orders them. missing says why the histories are absent.
func TriageRows(members []Member, pay, z map[int32]credit.Latest, seen map[store.SeenKey]store.Seen, missing string, by TriageSort) []TriageRow {
	rows := make([]TriageRow, 0, len(members))
	for _, m := range members {
		r := TriageRow{ID: strconv.FormatInt(int64(m.ID), 10), Name: businessLabel(m.Name, m.ID), URL: reportURL(m.ID), id: m.ID}
		r.Pay, r.pay = historyCell(ScorePay, pay, seen, m.ID, missing)
		r.Z, r.zv = historyCell(ScoreZ, z, seen, m.ID, missing)
		r.Risk, r.risk = seenCell(ScoreRisk, seen, m.ID)
		r.DBT, r.dbt = seenCell(ScoreDBT, seen, m.ID)
		for _, c := range []ScoreCell{r.Risk, r.Pay, r.DBT, r.Z} {
			if c.Value != "" && c.Zone.Level != credit.LevelNone && (r.worst == credit.LevelNone || c.Zone.Level < r.worst) {
				r.worst = c.Zone.Level
			}
		}
		rows = append(rows, r)
	}
	SortTriage(rows, by)
	return rows
}

// SortTriage orders rows: by one score worst first (Risk, Pay and Z″
// lowest first, DBT highest first), by name, or by each row's worst zone
// and then its Risk; businesses without the value go last.
func SortTriage(rows []TriageRow, by TriageSort) {
	byValue := func(a, b *float64, lowWorst bool) int {
		switch {
		case a == nil && b == nil:
			return 0
		case a == nil:
			return 1
		case b == nil:
			return -1
		}
		if lowWorst {
			return cmp.Compare(*a, *b)
		}
		return cmp.Compare(*b, *a)
	}
	slices.SortStableFunc(rows, func(a, b TriageRow) int {
		var c int
		switch by {
		case SortName:
		case SortRisk:
			c = byValue(a.risk, b.risk, true)
		case SortPay:
			c = byValue(a.pay, b.pay, true)
		case SortDBT:
			c = byValue(a.dbt, b.dbt, false)
		case SortZ:
			c = byValue(a.zv, b.zv, true)
		default:
			la, lb := a.worst, b.worst
			if la == credit.LevelNone {
				la = math.MaxInt8
			}
			if lb == credit.LevelNone {
				lb = math.MaxInt8
			}
			if c = cmp.Compare(la, lb); c == 0 {
				c = byValue(a.risk, b.risk, true)
			}
		}
		if c == 0 {
			c = cmp.Or(strings.Compare(a.Name, b.Name), cmp.Compare(a.id, b.id))
		}
		return c
	})
}

// historyCell is a portfolio score from its history, or, without the
// history, the value last seen on the business's report.
func historyCell(k ScoreKind, m map[int32]credit.Latest, seen map[store.SeenKey]store.Seen, id int32, missing string) (ScoreCell, *float64) {
	if m != nil {
		if l, ok := m[id]; ok {
			v := l.Value
			return plainCell(k, v, Month(l.Year, l.Month)), &v
		}
		if c, v := seenCell(k, seen, id); v != nil {
			return c, v
		}
		return ScoreCell{Missing: "no score in the portfolio history"}, nil
	}
	if c, v := seenCell(k, seen, id); v != nil {
		return c, v
	}
	return ScoreCell{Missing: missing}, nil
}

// seenCell is the value the analyst last saw on the business's report.
func seenCell(k ScoreKind, seen map[store.SeenKey]store.Seen, id int32) (ScoreCell, *float64) {
	s, ok := seen[store.SeenKey{BusinessID: id, Score: kindScore(k)}]
	if !ok {
		return ScoreCell{Missing: "open the report to see it"}, nil
	}
	v := s.Value
	return plainCell(k, v, "seen "+Date(s.At)), &v
}

func kindScore(k ScoreKind) store.Score {
	switch k {
	case ScoreRisk:
		return store.ScoreRisk
	case ScorePay:
		return store.ScorePay
	case ScoreDBT:
		return store.ScoreDBT
	}
	return store.ScoreZ
}

// plainCell is a score in plain words: "9 · low risk", "12 days · slow",
// "1.80 · grey zone".
func plainCell(k ScoreKind, v float64, when string) ScoreCell {
	z := k.zone(v)
	return ScoreCell{Value: k.format(v), Zone: z, Month: when, Word: PlainZone(k, z)}
}

// PlainZone names a zone so it reads on its own beside the number: Risk
// and Pay zones are kinds of risk, Z″'s grey is a zone.
func PlainZone(k ScoreKind, z Zone) string {
	switch {
	case z.Level == credit.LevelNone:
		return z.Label
	case k == ScoreRisk || k == ScorePay:
		return z.Label + " risk"
	case k == ScoreZ && z.Label == "grey":
		return "grey zone"
	}
	return z.Label
}

// PlainPortfolioZone is PlainZone for a portfolio score.
func PlainPortfolioZone(k PortfolioScore, z Zone) string {
	if k == PortfolioPay {
		return PlainZone(ScorePay, z)
	}
	return PlainZone(ScoreZ, z)
}

// Triage is a sortable table of businesses with their latest scores.
type Triage struct {
	Columns []TriageColumn
	Rows    []TriageRow
	Sort    TriageSort
	// More counts businesses beyond the rows listed.
	More int
	// ScoresProblem says why the portfolio histories are missing.
	ScoresProblem *Problem
}

// Caption says how the table is ordered.
func (t Triage) Caption() string {
	switch t.Sort {
	case SortName:
		return "Businesses by name"
	case SortRisk:
		return "Businesses by Risk, worst first"
	case SortPay:
		return "Businesses by Pay, worst first"
	case SortDBT:
		return "Businesses by DBT, most days first"
	case SortZ:
		return "Businesses by Z″, lowest first"
	}
	return "Businesses, worst first: the worst zone among their known scores, then Risk"
}

// WithKnownScores adds to search results the scores the analyst already
// has: Pay and Z″ from the portfolio histories (nil when not loaded), Risk
// and DBT as last seen on a report.
func WithKnownScores(rows []SearchRow, pay, z map[int32]credit.Latest, seen map[store.SeenKey]store.Seen) {
	for i := range rows {
		id := rows[i].id
		for _, k := range []struct {
			label string
			cell  func() (ScoreCell, *float64)
		}{
			{"Risk", func() (ScoreCell, *float64) { return seenCell(ScoreRisk, seen, id) }},
			{"Pay", func() (ScoreCell, *float64) { return historyCell(ScorePay, pay, seen, id, "") }},
			{"DBT", func() (ScoreCell, *float64) { return seenCell(ScoreDBT, seen, id) }},
			{"Z″", func() (ScoreCell, *float64) { return historyCell(ScoreZ, z, seen, id, "") }},
		} {
			if c, v := k.cell(); v != nil {
				rows[i].Known = append(rows[i].Known, KnownScore{Label: k.label, Cell: c})
			}
		}
	}
}
