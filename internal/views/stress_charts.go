package views

import (
	"math"
)

// Folder lines are told apart by colour and by symbol, so no line relies
// on colour alone; past the palette's end both repeat in a new pairing.
var (
	stressColours = [...]string{"#1f5fbf", "#b3261e", "#2e7d4f", "#7b3fa0", "#c05a1a", "#00796b", "#5b6475", "#9c6b00"}
	stressSymbols = [...]string{"circle", "rect", "triangle", "diamond", "roundRect", "pin", "arrow"}
)

// shareChart draws each folder's share in Pay zones 1–4, one line per
// folder, with a table of months by folders.
func shareChart(months []monthIndex, series []folderSeries) (ChartPanel, error) {
	p := ChartPanel{Title: "Share in Pay zones 1–4",
		Note: "Of each folder's businesses with a Pay score that month, the share scoring 1–4 (severe or high risk)"}
	p.Table = stressTable("Share in Pay zones 1–4 by month (in brackets: businesses in zones 1–4 of those with a Pay score)", months, series,
		func(s folderSeries, i int) DataCell {
			if s.paid[i] == 0 {
				return missingCell(Dash)
			}
			return numCell(sharePercent(s.share[i]) + " (" + Int(int64(s.weak[i])) + " of " + Int(int64(s.paid[i])) + ")")
		})
	line := stressLineChart("Share in Pay zones 1–4", ecAxis{Name: "%", Type: "value", Min: 0, Max: 100, SplitNumber: 5}, monthLabels(months))
	for k, s := range series {
		line.Series = append(line.Series, stressSeries(k, s.name, lineValues(s.share, 1)))
	}
	c, err := newChart("chart-stress-share", "Share of each folder's businesses in Pay zones 1–4 by month; the table below lists every value", line)
	p.Chart = c
	return p, err
}

// medianZChart draws each folder's median Z″ with the zone lines.
func medianZChart(months []monthIndex, series []folderSeries) (ChartPanel, error) {
	p := ChartPanel{Title: "Median Z″",
		Note: "The median Z″ of each folder's businesses with a Z″ that month (below 1.10 distress, 1.10–2.60 grey, above 2.60 safe)"}
	p.Table = stressTable("Median Z″ by month (in brackets: businesses with a Z″)", months, series,
		func(s folderSeries, i int) DataCell {
			if s.zCount[i] == 0 {
				return missingCell(Dash)
			}
			z := ZScoreZone(s.median[i])
			return DataCell{Text: Decimal(s.median[i], 2) + " · " + z.Label + " (" + Int(int64(s.zCount[i])) + ")", Class: z.Class() + " num"}
		})
	lo, hi := 1.1, 2.6
	for _, s := range series {
		for _, v := range s.median {
			if !math.IsNaN(v) {
				lo, hi = math.Min(lo, v), math.Max(hi, v)
			}
		}
	}
	line := stressLineChart("Median Z″", ecAxis{Name: "Z″", Type: "value", Min: math.Floor(lo - 0.5), Max: math.Ceil(hi + 0.5)}, monthLabels(months))
	for k, s := range series {
		ser := stressSeries(k, s.name, lineValues(s.median, 2))
		ser.MarkLine = zoneMarkLine(false, "insideStartTop")
		line.Series = append(line.Series, ser)
	}
	c, err := newChart("chart-stress-z", "Median Z″ of each folder's businesses by month; the table below lists every value", line)
	p.Chart = c
	return p, err
}

// stressLineChart is newLineChart with a legend of folders under the title
// and ECharts' own axis tooltip, which lists every folder's value (a
// text-only formatter can name just one series).
func stressLineChart(title string, y ecAxis, months []string) *ecOption {
	return &ecOption{
		Title:    &ecTitle{Text: title, Left: "left", TextStyle: &ecTextStyle{FontSize: 14}},
		Legend:   &ecLegend{Show: true, Type: "scroll", Top: "24", Left: "0"},
		Tooltip:  &ecTooltip{Show: true, Trigger: "axis"},
		Grid:     []ecGrid{{Top: "72", Bottom: "64", Left: "48", Right: "24", ContainLabel: true}},
		DataZoom: timeZoom(),
		XAxis:    []ecAxis{{Type: "category", BoundaryGap: yesNo(false), Data: months}},
		YAxis:    []ecAxis{y},
	}
}

// stressSeries is folder k's line, styled as its own.
func stressSeries(k int, name string, data []ecItem) ecSeries {
	return lineSeries(name, data, stressColours[k%len(stressColours)], stressSymbols[k%len(stressSymbols)])
}

// lineValues turns NaN into ECharts' gap, so a month without scores breaks
// the line instead of dropping to zero.
func lineValues(vals []float64, decimals int) []ecItem {
	out := make([]ecItem, len(vals))
	for i, v := range vals {
		out[i] = ecItem{Value: noValue}
		if !math.IsNaN(v) {
			out[i].Value = round(v, decimals)
		}
	}
	return out
}

// monthLabels are "2025-03", as the rise is named in words.
func monthLabels(months []monthIndex) []string {
	out := make([]string, len(months))
	for i, m := range months {
		out[i] = m.param()
	}
	return out
}

// stressTable lists months down, oldest first as the chart runs, and
// folders across.
func stressTable(caption string, months []monthIndex, series []folderSeries, cell func(folderSeries, int) DataCell) DataTable {
	t := DataTable{Caption: caption, Head: []string{"Month"}}
	for _, s := range series {
		t.Head = append(t.Head, s.name)
	}
	for i := range months {
		row := DataRow{Cells: []DataCell{{Text: months[i].param()}}}
		for _, s := range series {
			row.Cells = append(row.Cells, cell(s, i))
		}
		t.Rows = append(t.Rows, row)
	}
	return t
}
