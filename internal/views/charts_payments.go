package views

import (
	"cmp"
	"slices"
	"strconv"

	"creditdash/internal/credit"
	"creditdash/internal/upstream"
)

// agingColours run from the zone colours' best to worst so the stack reads
// as a gradient of lateness; the legend names each bucket, and the bars
// carry patterns (aria decals), so colour is never the only signal.
var agingColours = [...]string{
	zoneColours[credit.Level5], zoneColours[credit.Level4], zoneColours[credit.Level3],
	zoneColours[credit.Level2], zoneColours[credit.Level1], zoneColours[credit.LevelNone],
}

// seriesSymbols tell the lines of a multi-series chart apart without colour.
var seriesSymbols = [...]string{"circle", "rect", "triangle", "diamond", "pin", "arrow", "roundRect", "emptyCircle"}

// legendGrid leaves room for the title and a legend line above the plot,
// and the zoom slider below it.
var legendGrid = ecGrid{Top: "80", Bottom: "64", Left: "48", Right: "24", ContainLabel: true}

// pastDueBuckets are the indexes in AgingColumns of the late buckets, which
// the aging chart draws: beside 85–95 % current they would be a sliver.
var pastDueBuckets = [...]int{1, 2, 3, 4}

// AgingChart stacks the share of the total due in each past-due bucket
// (1–30, 31–60, 61–90, 91+ days) per month, oldest month first, on an axis
// of their own scale: the late buckets carry the signal. The current share
// and the rest are in the aging table beside it.
func AgingChart(rows []upstream.PaymentSummaryRow) (ChartPanel, error) {
	p := ChartPanel{Title: "Past-due share over time",
		Note: "share of the total due in each past-due bucket, per month; the rest is current or other (the table below lists every bucket)"}
	var months []string
	var shares [len(pastDueBuckets)][]ecItem
	for _, r := range sortedPayments(rows, true) {
		if _, ok := r.Month(); !ok {
			continue
		}
		m := paymentMonth(r)
		months = append(months, m)
		for i, v := range [...]float64{r.PastDue30DaysPercent, r.PastDue60DaysPercent, r.PastDue90DaysPercent, r.PastDueOver90DaysPercent} {
			shares[i] = append(shares[i], ecItem{Name: m, Value: round(v, 2)})
		}
	}
	if len(months) == 0 {
		p.Empty = "No monthly payment data."
		return p, nil
	}
	bar := paymentChart("Past due", months)
	bar.YAxis = []ecAxis{{Name: "% of total due", Type: "value", Min: 0}}
	// Decal patterns only: ECharts' generated description would replace
	// the container's own aria-label with a long text of raw values.
	bar.Aria = &ecAria{Enabled: true, Label: &ecAriaLabel{Enabled: false}, Decal: &ecShow{Show: true}}
	for i, s := range shares {
		col := pastDueBuckets[i]
		bar.Series = append(bar.Series, ecSeries{Name: AgingColumns[col] + " (%)", Type: "bar", Stack: "aging", Data: s,
			ItemStyle: &ecItemStyle{Color: agingColours[col]}})
	}
	// The data table beside this chart is the monthly aging table itself.
	c, err := newChart("chart-aging", "Share of the total due in each past-due bucket by month; the aging table lists every value", bar)
	p.Chart = c
	return p, err
}

// SICDBTChart draws the DBT index of each SIC category by month, with a
// table of the same numbers.
func SICDBTChart(rows []upstream.PaymentSummaryRow) (ChartPanel, error) {
	p := ChartPanel{Title: "DBT by supplier category", Note: "days beyond terms per SIC category and month; lower is better"}
	g := newSICGrid(rows)
	cats, months := g.cats, g.months
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
	p.Table = DataTable{Caption: "DBT by category and month", Head: append([]string{"Month"}, cats...), Rows: make([]DataRow, 0, len(months))}
	for _, m := range months {
		row := DataRow{Cells: make([]DataCell, 1, 1+len(cats))}
		row.Cells[0] = DataCell{Text: m.String()}
		for _, c := range cats {
			if v, ok := g.dbt(c, m).Get(); ok {
				z := DBTZone(v)
				row.Cells = append(row.Cells, DataCell{Text: Int(int64(v)) + " (" + z.Label + ")", Class: "num"})
			} else {
				row.Cells = append(row.Cells, missingCell(Dash))
			}
		}
		p.Table.Rows = append(p.Table.Rows, row)
	}
	drawn := worstCategories(cats, months, g.dbt)
	if len(drawn) < len(cats) {
		p.Note += "; the " + strconv.Itoa(len(drawn)) + " categories with the highest average DBT are drawn, the table lists all " + strconv.Itoa(len(cats))
	}
	line := paymentChart("DBT by supplier category", labels)
	line.XAxis[0].BoundaryGap = yesNo(false)
	line.YAxis = []ecAxis{{Name: "days", Type: "value", Min: 0, MinInterval: 1}}
	for i, c := range drawn {
		data := make([]ecItem, len(months))
		for j, m := range months {
			data[j] = ecItem{Value: noValue}
			if v, ok := g.dbt(c, m).Get(); ok {
				data[j].Value = v
			}
		}
		line.Series = append(line.Series, ecSeries{Name: c, Type: "line", Data: data,
			Symbol: seriesSymbols[i%len(seriesSymbols)], SymbolSize: 7, ShowSymbol: yesNo(true)})
	}
	c, err := newChart("chart-sic-dbt", "DBT index of each supplier category by month; the table below lists every value", line)
	p.Chart = c
	return p, err
}

// maxDBTLines is how many categories the DBT chart draws: more lines than
// this tangle, and their legend no longer fits a line.
const maxDBTLines = 4

// worstCategories picks the maxDBTLines categories with the highest average
// DBT over the months (those without any DBT last), keeping the given
// (alphabetical) order so the legend matches the table's columns.
func worstCategories(cats []string, months []monthIndex, dbt func(string, monthIndex) upstream.Num[int]) []string {
	if len(cats) <= maxDBTLines {
		return cats
	}
	avg := make(map[string]float64, len(cats))
	for _, c := range cats {
		sum, n := 0, 0
		for _, m := range months {
			if v, ok := dbt(c, m).Get(); ok {
				sum += v
				n++
			}
		}
		avg[c] = -1
		if n > 0 {
			avg[c] = float64(sum) / float64(n)
		}
	}
	ranked := slices.Clone(cats)
	slices.SortStableFunc(ranked, func(a, b string) int { return cmp.Compare(avg[b], avg[a]) })
	keep := ranked[:maxDBTLines]
	return slices.DeleteFunc(slices.Clone(cats), func(c string) bool { return !slices.Contains(keep, c) })
}

// paymentChart is what both payment charts share: a title, a scrolling
// legend under it, axis tooltips and zoom over the months.
func paymentChart(title string, months []string) *ecOption {
	return &ecOption{
		Title:    &ecTitle{Text: title, TextStyle: &ecTextStyle{FontSize: 14}},
		Legend:   &ecLegend{Show: true, Type: "scroll", Top: "24"},
		Tooltip:  &ecTooltip{Show: true, Trigger: "axis"},
		Grid:     []ecGrid{legendGrid},
		DataZoom: timeZoom(),
		XAxis:    []ecAxis{{Type: "category", Data: months}},
	}
}

// sicGrid is the PaymentSummary/SIC answer as categories by months: the
// categories in the answer's order, the months it names, and each cell's
// DBT (not OK when the service gave none). Rows whose month cannot be read
// are left out.
type sicGrid struct {
	cats   []string
	months []monthIndex
	cells  map[sicCell]upstream.Num[int]
}

type sicCell struct {
	cat   string
	month monthIndex
}

func newSICGrid(rows []upstream.PaymentSummaryRow) sicGrid {
	g := sicGrid{cells: make(map[sicCell]upstream.Num[int], len(rows))}
	// A category's label is made once, not once a row: the service sends
	// every category for each month, a few categories over many months.
	type named struct{ code, name, label string }
	var seen []named
	for _, r := range rows {
		m, ok := paymentMonthIndex(r)
		if !ok {
			continue
		}
		i := slices.IndexFunc(seen, func(n named) bool { return n.code == r.CategoryCode && n.name == r.CategoryName })
		if i < 0 {
			i = len(seen)
			seen = append(seen, named{r.CategoryCode, r.CategoryName, categoryLabel(r)})
			// Two categories may share a label; the grid has it once.
			if !slices.Contains(g.cats, seen[i].label) {
				g.cats = append(g.cats, seen[i].label)
			}
		}
		c := seen[i].label
		if !slices.Contains(g.months, m) {
			g.months = append(g.months, m)
		}
		g.cells[sicCell{c, m}] = r.DBTIndex
	}
	return g
}

// dbt is the DBT of category c in month m, not OK when none was reported.
func (g sicGrid) dbt(c string, m monthIndex) upstream.Num[int] { return g.cells[sicCell{c, m}] }
