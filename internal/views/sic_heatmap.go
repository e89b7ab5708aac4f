package views

import (
	"cmp"
	"slices"
	"strconv"

	"creditdash/internal/credit"
	"creditdash/internal/upstream"
)

// sicHeatChartMonths is how many of the latest months the heat map chart
// draws: more columns than this leave no room for the values at 390 px.
// The table beside it has every month.
const sicHeatChartMonths = 12

// SICHeatMap is the DBT of each supplier category by month: categories
// down, the worst (highest average DBT) first, months across, oldest first.
type SICHeatMap struct {
	Months []HeatMonth
	Rows   []SICHeatRow
	// Note says what the chart draws when it is fewer months than the table.
	Note string
	// Chart draws the latest months; the table is the text alternative.
	Chart Chart
	// Empty, when not "", replaces the chart and table.
	Empty string
}

// SICHeatRow is one supplier category and its months.
type SICHeatRow struct {
	Category string
	// Average is the mean DBT over the months that have one ("12.5 days").
	Average string
	Cells   []HeatCell
	avg     float64
	scored  bool
}

// DBTLegend lists the DBT zones in words, worst first.
func DBTLegend() []LegendItem {
	return []LegendItem{
		{"zone-1", "over 60 severe"}, {"zone-2", "31–60 delinquent"}, {"zone-3", "16–30 late"},
		{"zone-4", "6–15 slow"}, {"zone-5", "0–5 prompt"}, {"zone-none", Dash + " no DBT"},
	}
}

// dbtPieces are the DBT zones for the chart's visual map, in the zone colours.
func dbtPieces() []ecPiece {
	return []ecPiece{
		{Gt: 60, Color: zoneColours[credit.Level1]},
		{Gte: 31, Lte: 60, Color: zoneColours[credit.Level2]},
		{Gte: 16, Lte: 30, Color: zoneColours[credit.Level3]},
		{Gte: 6, Lte: 15, Color: zoneColours[credit.Level4]},
		{Gte: 0, Lte: 5, Color: zoneColours[credit.Level5]},
	}
}

// NewSICHeatMap lays out the SIC payment rows (the Payments tab's own
// PaymentSummary/SIC answer) as a heat map. Rows whose month cannot be read
// are left out; a category without a DBT in a month shows a dash, never 0.
func NewSICHeatMap(rows []upstream.PaymentSummaryRow) (SICHeatMap, error) {
	var hm SICHeatMap
	g := newSICGrid(rows)
	cats, months := g.cats, g.months
	if len(months) == 0 {
		hm.Empty = "No payments by supplier category reported."
		return hm, nil
	}
	slices.Sort(months)
	for _, m := range months {
		hm.Months = append(hm.Months, HeatMonth{Label: m.String(), Param: m.param()})
	}
	for _, c := range cats {
		row := SICHeatRow{Category: c, Average: Dash, Cells: make([]HeatCell, len(months))}
		sum, n := 0, 0
		for i, m := range months {
			// A negative index is no DBT the zones can place: shown as missing.
			v, ok := g.dbt(c, m).Get()
			if !ok || v < 0 {
				row.Cells[i] = HeatCell{Text: Dash, Missing: true, Zone: Zone{Label: "no DBT"},
					Title: c + ", " + m.String() + ": no DBT"}
				continue
			}
			z := DBTZone(v)
			row.Cells[i] = HeatCell{Text: Int(int64(v)), Zone: z, value: float64(v),
				Title: c + ", " + m.String() + ": DBT " + ScoreDBT.format(float64(v)) + " (" + z.Label + ")"}
			sum += v
			n++
		}
		if n > 0 {
			row.avg, row.scored = float64(sum)/float64(n), true
			row.Average = Decimal(row.avg, 1)
		}
		hm.Rows = append(hm.Rows, row)
	}
	// Worst first: the highest average DBT; categories without any DBT
	// last; ties by name, so the order never depends on the answer's.
	slices.SortStableFunc(hm.Rows, func(a, b SICHeatRow) int {
		if a.scored != b.scored {
			return cmp.Compare(boolRank(!a.scored), boolRank(!b.scored))
		}
		if c := cmp.Compare(b.avg, a.avg); c != 0 {
			return c
		}
		return cmp.Compare(a.Category, b.Category)
	})
	var err error
	hm.Chart, err = hm.chart()
	return hm, err
}

// chart draws the latest sicHeatChartMonths months: the visual map colours
// cells by DBT zone and each cell shows its value.
func (hm *SICHeatMap) chart() (Chart, error) {
	first := max(0, len(hm.Months)-sicHeatChartMonths)
	shown := hm.Months[first:]
	if first > 0 {
		hm.Note = "The chart draws the latest " + strconv.Itoa(len(shown)) + " months; the table lists all " + strconv.Itoa(len(hm.Months)) + "."
	}
	labels := make([]string, len(shown))
	for i, m := range shown {
		// "Oct 26": short enough for twelve columns on a phone.
		labels[i] = m.Label[:3] + " " + m.Label[len(m.Label)-2:]
	}
	names := make([]string, len(hm.Rows))
	data := make([]ecCell, 0, len(hm.Rows)*len(shown))
	for y, r := range hm.Rows {
		// The axis has room for a short name; the table has the full one.
		names[y] = Clip(r.Category, 14)
		for x, c := range r.Cells[first:] {
			if c.Missing {
				continue
			}
			data = append(data, ecCell{Name: r.Category + " · " + shown[x].Label,
				Value: [3]float64{float64(x), float64(y), float64(c.value)}})
		}
	}
	hc := &ecOption{
		Tooltip: &ecTooltip{Show: true},
		Legend:  &ecLegend{Show: false},
		Grid:    []ecGrid{{Left: "4", Right: "8", Top: "8", Bottom: "72", ContainLabel: true}},
		XAxis: []ecAxis{{Type: "category", Data: labels, SplitArea: &ecShow{Show: true},
			AxisLabel: &ecAxisLabel{Show: true, Rotate: 45, FontSize: 10}}},
		YAxis: []ecAxis{{Type: "category", Data: names, Inverse: true,
			AxisLabel: &ecAxisLabel{Show: true, Interval: "0", FontSize: 10}}},
		VisualMap: []ecVisualMap{{Type: "piecewise", Pieces: dbtPieces(),
			Orient: "horizontal", Left: "center", Bottom: "0", TextStyle: &ecTextStyle{FontSize: 10}}},
		Series: []ecSeries{{Name: "DBT", Type: "heatmap", Data: data, Label: &ecLabel{Show: true, FontSize: 10}}},
	}
	c, err := newChart("chart-sic-heat", "DBT of "+strconv.Itoa(len(hm.Rows))+
		" supplier categories by month, worst first, coloured by DBT zone; the table below has the same numbers", hc)
	c.Size = sicHeatSize(len(hm.Rows))
	return c, err
}

// sicHeatSize is the container class that fits the rows: the short chart
// up to four categories, the default up to eight, the tall one beyond.
func sicHeatSize(rows int) string {
	switch {
	case rows <= 4:
		return "short"
	case rows <= 8:
		return ""
	default:
		return "tall"
	}
}
