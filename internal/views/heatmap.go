package views

import (
	"cmp"
	"math"
	"slices"
	"strconv"
	"time"

	"creditdash/internal/credit"
	"creditdash/internal/upstream"
)

// MonthSpan is an inclusive range of calendar months; From and To are the
// first days of their months in UTC.
type MonthSpan struct{ From, To time.Time }

// Months counts the months of the span (0 for an empty or reversed span).
func (s MonthSpan) Months() int {
	if s.From.IsZero() || s.To.IsZero() {
		return 0
	}
	return max(int(monthOfTime(s.To)-monthOfTime(s.From))+1, 0)
}

// LatestSpan is the n months ending at the latest month with a score in h;
// ok is false when h holds no score at all.
func LatestSpan(h upstream.PortfolioScoreHistory, n int) (span MonthSpan, ok bool) {
	latest, ok := latestMonth(h)
	if !ok {
		return MonthSpan{}, false
	}
	return MonthSpan{From: (latest - monthIndex(n-1)).time(), To: latest.time()}, true
}

// HeatMap is the portfolio's scores as a grid: businesses down, months across.
type HeatMap struct {
	Score  PortfolioScore
	Months []HeatMonth
	Rows   []HeatRow
	// Scored counts the cells that hold a score.
	Scored int
}

// HeatMonth is one column.
type HeatMonth struct {
	Label string // "Oct 2026"
	Param string // "2026-10"
}

// HeatRow is one business and its months.
type HeatRow struct {
	Name, URL string
	Cells     []HeatCell
}

// HeatCell is one month of one business. A missing score has Missing set,
// Text a dash and the zone-none class: it is never shown as 0.
type HeatCell struct {
	Text    string
	Zone    Zone
	Missing bool
	// Title says the month and the score in words, for the cell's tooltip.
	Title string
	value float64
}

// NewHeatMap lays out one page of a portfolio score history over span.
// Scores outside the span are left out.
func NewHeatMap(kind PortfolioScore, h upstream.PortfolioScoreHistory, span MonthSpan) HeatMap {
	hm := HeatMap{Score: kind}
	first := monthOfTime(span.From)
	n := span.Months()
	for i := range n {
		m := first + monthIndex(i)
		hm.Months = append(hm.Months, HeatMonth{Label: m.String(), Param: m.param()})
	}
	var values monthScores
	for _, b := range h.Businesses {
		values = monthValues(values, b.Scores)
		row := HeatRow{Name: businessLabel(b.BusinessName, b.BusinessID), URL: reportURL(b.BusinessID), Cells: make([]HeatCell, n)}
		for i := range n {
			m := first + monthIndex(i)
			v, ok := values.at(m)
			if !ok {
				row.Cells[i] = HeatCell{Text: Dash, Missing: true, Zone: Zone{Label: "no score"},
					Title: m.String() + ": no " + kind.Name()}
				continue
			}
			z := kind.Zone(v)
			row.Cells[i] = HeatCell{Text: kind.Format(v), Zone: z, value: v,
				Title: m.String() + ": " + kind.Name() + " " + kind.Format(v) + " (" + z.Label + ")"}
			hm.Scored++
		}
		hm.Rows = append(hm.Rows, row)
	}
	return hm
}

// pieces are the score's zones for the chart's visual map.
func (k PortfolioScore) pieces() []ecPiece {
	if k == PortfolioZ {
		return []ecPiece{
			{Lt: 1.10, Color: zoneColours[credit.Level1]},
			{Gte: 1.10, Lte: 2.60, Color: zoneColours[credit.Level3]},
			{Gt: 2.60, Color: zoneColours[credit.Level5]},
		}
	}
	return []ecPiece{
		{Min: 1, Max: 2, Color: zoneColours[credit.Level1]},
		{Min: 3, Max: 4, Color: zoneColours[credit.Level2]},
		{Min: 5, Max: 5, Color: zoneColours[credit.Level3]},
		{Min: 6, Max: 7, Color: zoneColours[credit.Level4]},
		{Min: 8, Max: 10, Color: zoneColours[credit.Level5]},
	}
}

// LegendItem is one zone of a legend: its colour class and its words.
type LegendItem struct{ Class, Text string }

// Legend lists the score's zones in words, worst first.
func (k PortfolioScore) Legend() []LegendItem {
	if k == PortfolioZ {
		return []LegendItem{
			{"zone-1", "below 1.10 distress"}, {"zone-3", "1.10–2.60 grey"}, {"zone-5", "above 2.60 safe"},
			{"zone-none", Dash + " no score"},
		}
	}
	return []LegendItem{
		{"zone-1", "1–2 severe"}, {"zone-2", "3–4 high"}, {"zone-3", "5 elevated"},
		{"zone-4", "6–7 moderate"}, {"zone-5", "8–10 low"}, {"zone-none", Dash + " no score"},
	}
}

// Chart draws the heat map: the visual map colours cells by
// zone, each cell shows its value, and missing months stay empty. size is
// the container's CSS class that gives it a height fitting the rows.
func (hm HeatMap) Chart(id, size string) (Chart, error) {
	months := make([]string, len(hm.Months))
	for i, m := range hm.Months {
		months[i] = m.Label
	}
	names := make([]string, len(hm.Rows))
	data := make([]ecCell, 0, len(hm.Rows)*len(hm.Months))
	for y, r := range hm.Rows {
		names[y] = r.Name
		for x, c := range r.Cells {
			if c.Missing {
				continue
			}
			data = append(data, ecCell{Name: r.Name + " · " + hm.Months[x].Label,
				Value: [3]float64{float64(x), float64(y), chartValue(hm.Score, c.value)}})
		}
	}
	hc := &ecOption{
		Tooltip: &ecTooltip{Show: true},
		// The visual map is the legend; the series legend would sit on it.
		Legend: &ecLegend{Show: false},
		Grid:   []ecGrid{{Left: "8", Right: "16", Top: "8", Bottom: "56", ContainLabel: true}},
		XAxis:  []ecAxis{{Type: "category", Data: months, SplitArea: &ecShow{Show: true}}},
		YAxis: []ecAxis{{Type: "category", Data: names, Inverse: true,
			AxisLabel: &ecAxisLabel{Show: true, Interval: "0"}}},
		VisualMap: []ecVisualMap{{Type: "piecewise", Pieces: hm.Score.pieces(),
			Orient: "horizontal", Left: "center", Bottom: "0"}},
		Series: []ecSeries{{Name: hm.Score.Name(), Type: "heatmap", Data: data, Label: &ecLabel{Show: true}}},
	}
	c, err := newChart(id, hm.Score.Name()+" by month for "+strconv.Itoa(len(hm.Rows))+" businesses; the table below has the same numbers", hc)
	c.Size = size
	return c, err
}

// chartValue rounds a score as the table shows it, so both agree.
func chartValue(k PortfolioScore, v float64) float64 {
	if k == PortfolioZ {
		return math.Round(v*100) / 100
	}
	return math.Round(v)
}

// monthScores is a business's usable scores in month order, one per month
// (the later of two for the same month, as the service's order has it).
// Pages index every business of a portfolio by month; a sorted slice
// reused from one business to the next costs no allocation, where a map
// per business was a twentieth of the bytes a busy dashboard allocated.
type monthScores []monthScore

type monthScore struct {
	month monthIndex
	value float64
}

// monthValues indexes a business's scores by month into buf's storage;
// months without a score (or with an impossible one) are left out.
func monthValues(buf monthScores, scores []upstream.MonthlyScore) monthScores {
	buf = buf[:0]
	for _, s := range scores {
		if usableScore(s) {
			buf = append(buf, monthScore{monthIndexOf(s.Year, s.Month), s.Score.V})
		}
	}
	return inMonthOrder(buf)
}

// inMonthOrder sorts scores by month and keeps the last of each month.
func inMonthOrder(buf monthScores) monthScores {
	slices.SortStableFunc(buf, func(a, b monthScore) int { return cmp.Compare(a.month, b.month) })
	out := buf[:0]
	for _, s := range buf {
		if n := len(out); n > 0 && out[n-1].month == s.month {
			out[n-1] = s
			continue
		}
		out = append(out, s)
	}
	return out
}

// at is the score of month m.
func (ms monthScores) at(m monthIndex) (float64, bool) {
	i, ok := slices.BinarySearchFunc(ms, m, func(s monthScore, m monthIndex) int { return cmp.Compare(s.month, m) })
	if !ok {
		return 0, false
	}
	return ms[i].value, true
}

// usableScore is a score in a real month with a finite value.
func usableScore(s upstream.MonthlyScore) bool {
	return s.Score.OK && s.Month >= 1 && s.Month <= 12 && !math.IsNaN(s.Score.V) && !math.IsInf(s.Score.V, 0)
}

// latestMonth is the latest month with a score anywhere in the answer.
func latestMonth(h upstream.PortfolioScoreHistory) (monthIndex, bool) {
	var latest monthIndex
	found := false
	for _, b := range h.Businesses {
		for _, sc := range b.Scores {
			if m := monthIndexOf(sc.Year, sc.Month); usableScore(sc) && (!found || m > latest) {
				latest, found = m, true
			}
		}
	}
	return latest, found
}
