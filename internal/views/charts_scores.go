package views

import (
	"cmp"
	"math"
	"slices"

	"creditdash/internal/upstream"
)

// noValue is how ECharts marks a gap in a series: the line breaks there
// instead of dropping to zero.
const noValue = "-"

// Series colours; each chart also names its series in a legend, and every
// value is in the table beside the chart.
const (
	colourRisk = "#1f5fbf"
	colourPay  = "#7b3fa0"
	colourDBT  = "#c05a1a"
	colourZ    = "#2e7d4f"
)

func (k ScoreKind) colour() string {
	return [...]string{colourRisk, colourPay, colourDBT, colourZ}[k]
}

// chartID is the element id of a score's history chart.
func (k ScoreKind) chartID() string {
	return [...]string{"chart-risk", "chart-pay", "chart-dbt", "chart-z"}[k]
}

// ScoreCharts builds the history charts of the four scores, each with a
// table of its months beside it.
func ScoreCharts(rows []upstream.CreditScoreHistoryRow) ([]ChartPanel, error) {
	h := newScoreHistory(rows)
	out := make([]ChartPanel, 0, len(scoreKinds))
	for _, k := range scoreKinds {
		p, err := scoreChart(k, h)
		if err != nil {
			return nil, err
		}
		out = append(out, p)
	}
	return out, nil
}

func scoreChart(k ScoreKind, h scoreHistory) (ChartPanel, error) {
	p := ChartPanel{Title: k.Name() + " history", Note: k.Scale()}
	pts := h.of(k)
	if len(pts) == 0 {
		p.Empty = "No score history in this time frame."
		return p, nil
	}
	if _, ever := lastReported(pts); !ever {
		p.Empty = "No " + k.short() + " score in this time frame."
		return p, nil
	}
	if k == ScoreRisk || k == ScorePay {
		p.Note += "; the tooltip names the 12-month bankruptcy probability of each score"
		if k == ScorePay {
			p.Note += " (the Risk table, assumed to apply to Pay)"
		}
	}
	labels := make([]string, len(pts))
	data := make([]ecItem, len(pts))
	p.Table = DataTable{Caption: k.Name() + " by month", Head: []string{"Month", k.short(), "Zone"}, Rows: make([]DataRow, len(pts))}
	// Every row's three cells in one block: a report builds four of these
	// tables of up to 36 rows.
	cells := make([]DataCell, 3*len(pts))
	for i, pt := range pts {
		labels[i] = pt.month.String()
		data[i] = ecItem{Name: scoreTip(k, pt), Value: noValue}
		row := cells[3*i : 3*i+3 : 3*i+3]
		row[0] = DataCell{Text: labels[i]}
		if pt.ok {
			data[i].Value = round(pt.value, k.decimals())
			z := k.zone(pt.value)
			row[1], row[2] = numCell(k.format(pt.value)), DataCell{Text: z.Label, Class: z.Class()}
		} else {
			row[1], row[2] = missingCell("missing"), missingCell(Dash)
		}
		p.Table.Rows[i] = DataRow{Cells: row}
	}
	y := k.yAxis()
	if k == ScoreZ {
		y.Min, y.Max = zRange(pts)
	}
	line := newLineChart(k.Name(), y, labels)
	s := lineSeries(k.short(), data, k.colour(), "circle")
	if k == ScoreZ {
		// Named at the start (left), clear of the newest points.
		s.MarkLine = zoneMarkLine(false, "insideStartTop")
	}
	line.Series = append(line.Series, s)
	c, err := newChart(k.chartID(), k.Name()+" by month; the table below lists every value", line)
	p.Chart = c
	return p, err
}

// yAxis fixes the scale of Risk and Pay so charts of different businesses
// compare at a glance (0 to 10 in steps of 2 keeps the labels apart).
func (k ScoreKind) yAxis() ecAxis {
	switch k {
	case ScoreRisk, ScorePay:
		return ecAxis{Name: "score", Type: "value", Min: 0, Max: 10, SplitNumber: 5, MinInterval: 1}
	case ScoreDBT:
		return ecAxis{Name: "days", Type: "value", Min: 0, MinInterval: 1}
	default:
		return ecAxis{Name: "Z″", Type: "value"}
	}
}

// zRange is the Z″ axis: the data and both zone lines (1.10 and 2.60), so
// the lines that name the zones are always in view.
func zRange(pts []scorePoint) (lo, hi float64) {
	lo, hi = 1.1, 2.6
	for _, p := range pts {
		if p.ok {
			lo, hi = math.Min(lo, p.value), math.Max(hi, p.value)
		}
	}
	return math.Floor(lo - 0.5), math.Ceil(hi + 0.5)
}

// scoreTip is the tooltip text of one month: with richText tooltips the
// text comes from the data point's name, so no formatter function is needed.
func scoreTip(k ScoreKind, pt scorePoint) string {
	when := pt.month.String()
	if k == ScoreZ {
		when = pt.month.quarter() + " (" + when + ")"
	}
	if !pt.ok {
		return when + " · no " + k.short() + " score"
	}
	sep, band := "", bandText(k, int(math.Round(pt.value)))
	if band != "" {
		sep = " · "
	}
	return when + " · " + k.short() + " " + k.format(pt.value) + " (" + k.zone(pt.value).Label + ")" + sep + band
}

// RiskHistoryChart draws the monthly average risk score (RiskHistory, which
// the service sends newest first).
func RiskHistoryChart(rows []upstream.RiskHistoryRow) (ChartPanel, error) {
	p := ChartPanel{Title: "Average risk score history", Note: "monthly average of the Risk score, 1–10, 10 safest"}
	rows = slices.Clone(rows)
	slices.SortStableFunc(rows, func(a, b upstream.RiskHistoryRow) int {
		return cmp.Compare(monthIndexOf(a.Year, a.Month), monthIndexOf(b.Year, b.Month))
	})
	if len(rows) == 0 {
		p.Empty = "No risk history in this time frame."
		return p, nil
	}
	labels := make([]string, len(rows))
	data := make([]ecItem, len(rows))
	p.Table = DataTable{Caption: "Average risk score by month", Head: []string{"Month", "Average risk", "Zone"}, Rows: make([]DataRow, 0, len(rows))}
	cells := make([]DataCell, 3*len(rows)) // one block for every row's three
	for i, r := range rows {
		m := monthIndexOf(r.Year, r.Month)
		labels[i] = m.String()
		data[i] = ecItem{Name: labels[i] + " · no average risk score", Value: noValue}
		row := DataRow{Cells: cells[3*i : 3*i+1 : 3*i+3]}
		row.Cells[0] = DataCell{Text: labels[i]}
		if r.AverageRiskScore.OK && !math.IsNaN(r.AverageRiskScore.V) {
			v := r.AverageRiskScore.V
			z := RiskZone(int(math.Round(v)))
			data[i] = ecItem{Name: labels[i] + " · average risk " + Decimal(v, 2) + " (" + z.Label + ")", Value: round(v, 2)}
			row.Cells = append(row.Cells, numCell(Decimal(v, 2)), DataCell{Text: z.Label, Class: z.Class()})
		} else {
			row.Cells = append(row.Cells, missingCell("missing"), missingCell(Dash))
		}
		p.Table.Rows = append(p.Table.Rows, row)
	}
	line := newLineChart("Average risk score", ScoreRisk.yAxis(), labels)
	line.Series = append(line.Series, lineSeries("Average risk", data, colourRisk, "diamond"))
	c, err := newChart("chart-risk-history", "Average risk score by month; the table below lists every value", line)
	p.Chart = c
	return p, err
}

// newLineChart sets what every line chart of the report shares: title,
// legend, an axis tooltip whose text is the data point's name, no
// animation, the months along the x axis.
func newLineChart(title string, y ecAxis, months []string) *ecOption {
	return &ecOption{
		Title:    &ecTitle{Text: title, Left: "left", TextStyle: &ecTextStyle{FontSize: 14}},
		Legend:   &ecLegend{Show: true, Top: "0", Right: "0"},
		Tooltip:  &ecTooltip{Show: true, Trigger: "axis", Formatter: "{b0}"},
		Grid:     []ecGrid{timeGrid},
		DataZoom: timeZoom(),
		XAxis:    []ecAxis{{Type: "category", BoundaryGap: yesNo(false), Data: months}},
		YAxis:    []ecAxis{y},
	}
}

// timeGrid leaves room for the title above and the zoom slider below.
var timeGrid = ecGrid{Top: "56", Bottom: "64", Left: "48", Right: "24", ContainLabel: true}

// timeZoom lets the reader zoom into a stretch of months: with the mouse
// wheel or a drag inside the chart, or with the slider below it.
func timeZoom() []ecZoom { return []ecZoom{{Type: "inside"}, {Type: "slider"}} }

// lineSeries is a line of a chart: its colour and a symbol on every
// point, so a lone month between gaps still shows.
func lineSeries(name string, data []ecItem, colour, symbol string) ecSeries {
	return ecSeries{Name: name, Type: "line", Data: data,
		Symbol: symbol, SymbolSize: 6, ShowSymbol: yesNo(true), ConnectNulls: yesNo(false),
		ItemStyle: &ecItemStyle{Color: colour}, LineStyle: &ecLineStyle{Color: colour, Width: 2}}
}

// round keeps chart data short and free of float noise. A value too large
// to scale (a service's 1e307) is already whole and stays as it is: scaled,
// it would overflow to +Inf, which no chart's JSON can carry.
func round(v float64, decimals int) float64 {
	p := math.Pow(10, float64(decimals))
	if math.IsInf(v*p, 0) {
		return v
	}
	return math.Round(v*p) / p
}
