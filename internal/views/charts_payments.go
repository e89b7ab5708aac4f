package views

import (
	"slices"

	"github.com/go-echarts/go-echarts/v2/charts"
	"github.com/go-echarts/go-echarts/v2/opts"

	"creditdash/internal/upstream"
)

// agingColours run from the zone colours' best to worst so the stack reads
// as a gradient of lateness; the legend names each bucket, and the bars
// carry patterns (aria decals), so colour is never the only signal.
var agingColours = [...]string{
	zoneColours[Level5], zoneColours[Level4], zoneColours[Level3],
	zoneColours[Level2], zoneColours[Level1], zoneColours[LevelNone],
}

// seriesSymbols tell the lines of a multi-series chart apart without colour.
var seriesSymbols = [...]string{"circle", "rect", "triangle", "diamond", "pin", "arrow", "roundRect", "emptyCircle"}

// legendGrid leaves room for the title and a legend line above the plot,
// and the zoom slider below it.
var legendGrid = opts.Grid{Top: "80", Bottom: "64", Left: "48", Right: "24", ContainLabel: opts.Bool(true)}

// AgingChart stacks the share of each aging bucket per month, oldest month
// first (credit balances are not part of the total due and are left out).
func AgingChart(rows []upstream.PaymentSummaryRow) (ChartPanel, error) {
	p := ChartPanel{Title: "Aging mix over time", Note: "share of the total due in each aging bucket, per month"}
	var months []string
	var shares [6][]opts.BarData
	for _, r := range sortedPayments(rows, true) {
		if _, ok := r.Month(); !ok {
			continue
		}
		m := paymentMonth(r)
		months = append(months, m)
		for i, v := range [...]float64{r.CurrentAmountPercent, r.PastDue30DaysPercent, r.PastDue60DaysPercent, r.PastDue90DaysPercent, r.PastDueOver90DaysPercent, r.OtherAmountPercent} {
			shares[i] = append(shares[i], opts.BarData{Name: m, Value: round(v, 2)})
		}
	}
	if len(months) == 0 {
		p.Empty = "No monthly payment data."
		return p, nil
	}
	bar := charts.NewBar()
	bar.SetGlobalOptions(append(paymentChartOpts("Aging mix"),
		charts.WithXAxisOpts(opts.XAxis{Type: "category"}),
		charts.WithYAxisOpts(opts.YAxis{Name: "% of total due", Type: "value", Min: 0, Max: 100}),
		// Decal patterns only: ECharts' generated description would replace
		// the container's own aria-label with a long text of raw values.
		charts.WithAriaOpts(&opts.Aria{Enabled: opts.Bool(true), Label: &opts.AriaLabel{Enabled: opts.Bool(false)},
			Decal: &opts.AriaDecal{Show: opts.Bool(true)}}),
	)...)
	bar.SetXAxis(months)
	for i, s := range shares {
		bar.AddSeries(AgingColumns[i]+" (%)", s,
			charts.WithBarChartOpts(opts.BarChart{Stack: "aging"}),
			charts.WithItemStyleOpts(opts.ItemStyle{Color: agingColours[i]}),
		)
	}
	// The data table beside this chart is the monthly aging table itself.
	c, err := NewChart("chart-aging", "Share of the total due in each aging bucket by month; the aging table lists every value", bar)
	p.Chart = c
	return p, err
}

// SICDBTChart draws the DBT index of each SIC category by month, with a
// table of the same numbers.
func SICDBTChart(rows []upstream.PaymentSummaryRow) (ChartPanel, error) {
	p := ChartPanel{Title: "DBT by supplier category", Note: "days beyond terms per SIC category and month; lower is better"}
	type key struct {
		cat   string
		month monthIndex
	}
	dbt := map[key]*int{}
	var cats []string
	var months []monthIndex
	for _, r := range rows {
		m, ok := paymentMonthIndex(r)
		if !ok {
			continue
		}
		c := categoryLabel(r)
		if !slices.Contains(cats, c) {
			cats = append(cats, c)
		}
		if !slices.Contains(months, m) {
			months = append(months, m)
		}
		dbt[key{c, m}] = r.DBTIndex
	}
	if len(months) == 0 {
		p.Empty = "No payment data by supplier category."
		return p, nil
	}
	slices.Sort(cats)
	slices.Sort(months)
	labels := make([]string, len(months))
	for i, m := range months {
		labels[i] = m.String()
	}
	p.Table = DataTable{Caption: "DBT by category and month", Head: append([]string{"Month"}, cats...)}
	for _, m := range months {
		row := DataRow{Cells: []DataCell{{Text: m.String()}}}
		for _, c := range cats {
			if v := dbt[key{c, m}]; v != nil {
				z := DBTZone(*v)
				row.Cells = append(row.Cells, DataCell{Text: Int(int64(*v)) + " (" + z.Label + ")", Class: "num"})
			} else {
				row.Cells = append(row.Cells, missingCell(Dash))
			}
		}
		p.Table.Rows = append(p.Table.Rows, row)
	}
	line := charts.NewLine()
	line.SetGlobalOptions(append(paymentChartOpts("DBT by supplier category"),
		charts.WithXAxisOpts(opts.XAxis{Type: "category", BoundaryGap: opts.Bool(false)}),
		charts.WithYAxisOpts(opts.YAxis{Name: "days", Type: "value", Min: 0, MinInterval: 1}),
	)...)
	line.SetXAxis(labels)
	for i, c := range cats {
		data := make([]opts.LineData, len(months))
		for j, m := range months {
			data[j] = opts.LineData{Value: noValue}
			if v := dbt[key{c, m}]; v != nil {
				data[j].Value = *v
			}
		}
		line.AddSeries(c, data, charts.WithLineChartOpts(opts.LineChart{
			Symbol: seriesSymbols[i%len(seriesSymbols)], SymbolSize: 7, ShowSymbol: opts.Bool(true),
		}))
	}
	c, err := NewChart("chart-sic-dbt", "DBT index of each supplier category by month; the table below lists every value", line)
	p.Chart = c
	return p, err
}

// paymentChartOpts is what both payment charts share: a title, a scrolling
// legend under it, axis tooltips and zoom over the months.
func paymentChartOpts(title string) []charts.GlobalOpts {
	return []charts.GlobalOpts{
		charts.WithAnimation(false),
		charts.WithTitleOpts(opts.Title{Title: title, TitleStyle: &opts.TextStyle{FontSize: 14}}),
		charts.WithLegendOpts(opts.Legend{Show: opts.Bool(true), Type: "scroll", Top: "24"}),
		charts.WithTooltipOpts(opts.Tooltip{Show: opts.Bool(true), Trigger: "axis"}),
		charts.WithGridOpts(legendGrid),
		timeZoom(),
	}
}
