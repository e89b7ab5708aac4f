package views

import (
	"math"
	"strconv"

	"creditdash/internal/upstream"
)

// PeerSection is the Peers section of the Financials tab: where the
// business stands among its industry peers, ratio by ratio.
type PeerSection struct {
	// Period is "2025 Q4"; Industry is "SIC 5311 Department Stores".
	Period, Industry string
	// PeerCount is how many businesses were compared, the business included
	// when it has a statement for the period.
	PeerCount int
	// Included: the business has a statement for the period, so it is one
	// of the businesses compared.
	Included bool
	Rows     []PeerRow
	// Panel holds the chart and its table; Panel.Empty says why there is none.
	Panel ChartPanel
	// Withheld lists the labels of the contract's ratios the service left
	// out of a non-empty answer: an API-Only account gets only the ratios
	// whose inputs its access model shows.
	Withheld []string
}

// peerOrder is the contract's ratios in the order the service lists them.
var peerOrder = []string{
	upstream.RatioCurrent, upstream.RatioCash, upstream.RatioWorkingCapitalToAssets,
	upstream.RatioLiabilitiesToAssets, upstream.RatioDebtToEquity, upstream.RatioGrossMargin,
	upstream.RatioEBITMargin, upstream.RatioNetMargin, upstream.RatioReturnOnAssets,
	upstream.RatioReturnOnEquity, upstream.RatioAssetTurnover, upstream.RatioRetainedEarningsToAssets,
}

// PeerRow is one ratio, formatted for display.
type PeerRow struct {
	// Ratio is the service's name (CurrentRatio), Label the reader's.
	Ratio, Label string
	// Value, Min, Median and Max are formatted, Dash when missing.
	Value, Min, Median, Max string
	// Rank reads "38th of 41", or Dash when the business lacks the ratio.
	Rank string
	// HigherIsBetter says which way the rank runs; Direction says it in words.
	HigherIsBetter bool
	Direction      string
	// Missing is set when the business lacks the inputs of this ratio.
	Missing bool
}

// peerFormat is how a ratio reads: a fraction shown as a percent, or times.
type peerFormat struct {
	label   string
	percent bool
}

// peerFormats covers the ratios of upstream's contract; another ratio a
// service sends shows under its own name with four decimals.
var peerFormats = map[string]peerFormat{
	upstream.RatioCurrent:                  {"Current ratio", false},
	upstream.RatioCash:                     {"Cash ratio", false},
	upstream.RatioWorkingCapitalToAssets:   {"Working capital / assets", true},
	upstream.RatioLiabilitiesToAssets:      {"Liabilities / assets", true},
	upstream.RatioDebtToEquity:             {"Debt / equity", false},
	upstream.RatioGrossMargin:              {"Gross margin", true},
	upstream.RatioEBITMargin:               {"EBIT margin", true},
	upstream.RatioNetMargin:                {"Net margin", true},
	upstream.RatioReturnOnAssets:           {"Return on assets", true},
	upstream.RatioReturnOnEquity:           {"Return on equity", true},
	upstream.RatioAssetTurnover:            {"Asset turnover", false},
	upstream.RatioRetainedEarningsToAssets: {"Retained earnings / assets", true},
}

// formatRatio shows a ratio value: margins and shares of assets as percents
// (0.114 -> "11.4%"), the others with two decimals.
func formatRatio(ratio string, n upstream.Num[float64]) string {
	v, ok := n.Get()
	if !ok || math.IsNaN(v) || math.IsInf(v, 0) {
		return Dash
	}
	f, known := peerFormats[ratio]
	switch {
	case !known:
		return Decimal(v, 4)
	case f.percent:
		return Percent(v * 100)
	}
	return Decimal(v, 2)
}

func ratioLabel(ratio string) string {
	if f, ok := peerFormats[ratio]; ok {
		return f.label
	}
	return ratio
}

// Ordinal is the English ordinal of n: 1st, 2nd, 3rd, 4th, 11th, 21st, 112th.
func Ordinal(n int) string {
	suffix := "th"
	if n%100 < 11 || n%100 > 13 {
		switch n % 10 {
		case 1, -1:
			suffix = "st"
		case 2, -2:
			suffix = "nd"
		case 3, -3:
			suffix = "rd"
		}
	}
	return strconv.Itoa(n) + suffix
}

// RankText reads "38th of 41"; Dash when there is no rank.
func RankText(rank upstream.Num[int], count int) string {
	if !rank.OK || rank.V < 1 || count < 1 {
		return Dash
	}
	return Ordinal(rank.V) + " of " + strconv.Itoa(count)
}

// forPeriod is "for 2025 Q4", or "for that period" when the service named
// none.
func (s PeerSection) forPeriod() string {
	if s.Period == "" {
		return "for that period"
	}
	return "for " + s.Period
}

// Compared says how many businesses were compared and whether this one is
// among them.
func (s PeerSection) Compared() string {
	if !s.Included {
		return strconv.Itoa(s.PeerCount) + " peers compared; this business has no statement " + s.forPeriod()
	}
	return strconv.Itoa(s.PeerCount) + " businesses compared, this one included"
}

// NoPeerAnalysis is the Peers section when the service has none for the
// business and period (it answered 404).
func NoPeerAnalysis() PeerSection {
	return PeerSection{Panel: ChartPanel{Empty: "The credit-risk service has no peer analysis for this business and period."}}
}

// PeerView builds the Peers section from the service's answer.
func PeerView(pa upstream.PeerAnalysis) (PeerSection, error) {
	s := PeerSection{PeerCount: pa.PeerCount}
	if pa.PeerYear > 0 && pa.PeerQuarter > 0 {
		s.Period = strconv.Itoa(pa.PeerYear) + " Q" + strconv.Itoa(pa.PeerQuarter)
	}
	if pa.SIC != "" {
		s.Industry = "SIC " + pa.SIC
		if pa.IndustryName != "" {
			s.Industry += " " + pa.IndustryName
		}
	}
	s.Panel = ChartPanel{Title: "Ratios among peers",
		Note: "each bar is the peers' range of one ratio, worst at the left and best at the right; ◆ the peers' median, ● this business"}
	var measured bool // any ratio of any business in the period
	for _, r := range pa.Ratios {
		measured = measured || r.Value.OK || r.Min.OK || r.Max.OK
		s.Included = s.Included || r.Value.OK
	}
	switch {
	case len(pa.Ratios) == 0:
		s.Panel.Empty = "No statements on file, so no peers to compare with."
		return s, nil
	case !measured || pa.PeerCount == 0:
		s.Panel.Empty = "No statements " + s.forPeriod() + " from this business or its peers: choose another year."
		return s, nil
	case pa.PeerCount == 1:
		// The business alone: every rank would read "1st of 1".
		s.Panel.Empty = "No other business matches these peer filters " + s.forPeriod() + ": widen them to compare."
		return s, nil
	}
	s.Panel.Table = DataTable{Caption: "Ratios among peers",
		Head: []string{"Ratio", "This business", "Peers' minimum", "Median", "Maximum", "Rank", "Better"}}
	for _, r := range pa.Ratios {
		row := PeerRow{
			Ratio: r.Ratio, Label: ratioLabel(r.Ratio),
			Value: formatRatio(r.Ratio, r.Value), Min: formatRatio(r.Ratio, r.Min),
			Median: formatRatio(r.Ratio, r.Median), Max: formatRatio(r.Ratio, r.Max),
			Rank: RankText(r.Rank, r.Count), HigherIsBetter: r.HigherIsBetter(),
			Direction: "higher is better", Missing: !r.Value.OK,
		}
		if !row.HigherIsBetter {
			row.Direction = "lower is better"
		}
		s.Rows = append(s.Rows, row)
		s.Panel.Table.Rows = append(s.Panel.Table.Rows, row.tableRow())
	}
	sent := map[string]bool{}
	for _, r := range pa.Ratios {
		sent[r.Ratio] = true
	}
	for _, name := range peerOrder {
		if !sent[name] {
			s.Withheld = append(s.Withheld, ratioLabel(name))
		}
	}
	c, err := peerChart(pa.Ratios)
	s.Panel.Chart = c
	return s, err
}

func (r PeerRow) tableRow() DataRow {
	cell := func(s string) DataCell {
		if s == Dash {
			return missingCell(s)
		}
		return numCell(s)
	}
	return DataRow{Cells: []DataCell{{Text: r.Label}, cell(r.Value), cell(r.Min), cell(r.Median), cell(r.Max),
		cell(r.Rank), {Text: r.Direction}}}
}

// Colours of the peer chart: a pale track for the range, dark for the
// median, the Risk blue for the business.
const (
	colourPeerRange  = "#d5dae3"
	colourPeerMedian = "#3a4150"
)

// peerPosition places v on a ratio's peer range as 0 (the worst end) to
// 100 (the best), so that ratios of different units share one axis and
// right is always better; a range of one value puts it in the middle.
func peerPosition(v, lo, hi float64, higherIsBetter bool) float64 {
	if hi <= lo {
		return 50
	}
	p := (v - lo) / (hi - lo) * 100
	if !higherIsBetter {
		p = 100 - p
	}
	return round(math.Max(0, math.Min(100, p)), 1)
}

// peerChart draws each ratio's peer range as a bar from worst to best, with
// the median and the business as markers (line series without lines: the
// dashboard's ECharts build has bars and lines, no scatter). Ratios no peer
// has are left out; the table lists them.
func peerChart(ratios []upstream.PeerRatio) (Chart, error) {
	var labels []string
	var track, median, mine []ecItem
	for _, r := range ratios {
		if !r.Min.OK || !r.Max.OK || !r.Median.OK {
			continue
		}
		label := ratioLabel(r.Ratio)
		lo, hi, up := r.Min.V, r.Max.V, r.HigherIsBetter()
		labels = append(labels, label)
		track = append(track, ecItem{Name: label + " · peers " + formatRatio(r.Ratio, r.Min) + " to " +
			formatRatio(r.Ratio, r.Max) + " (" + strconv.Itoa(r.Count) + ")", Value: 100})
		median = append(median, ecItem{Name: label + " · peers' median " + formatRatio(r.Ratio, r.Median),
			Value: peerPosition(r.Median.V, lo, hi, up)})
		point := ecItem{Name: label + " · this business: none", Value: noValue}
		if r.Value.OK {
			point = ecItem{Name: label + " · this business " + formatRatio(r.Ratio, r.Value) + ", " +
				RankText(r.Rank, r.Count), Value: peerPosition(r.Value.V, lo, hi, up)}
		}
		mine = append(mine, point)
	}
	bar := &ecOption{
		Title:   &ecTitle{Text: "Ratios among peers", Left: "left", TextStyle: &ecTextStyle{FontSize: 14}},
		Legend:  &ecLegend{Show: true, Top: "0", Right: "0"},
		Tooltip: &ecTooltip{Show: true, Trigger: "item", Formatter: "{b}"},
		Grid:    []ecGrid{{Top: "56", Bottom: "32", Left: "16", Right: "24", ContainLabel: true}},
		// Bars run across: the ratios down the y axis, the peer range along x.
		XAxis: []ecAxis{{Type: "value", Min: 0, Max: 100, Name: "worst → best among peers",
			NameLocation: "middle", NameGap: 24, AxisLabel: &ecAxisLabel{Show: false}}},
		YAxis: []ecAxis{{Type: "category", Inverse: true, Data: labels}},
		Series: []ecSeries{
			{Name: "Peer range", Type: "bar", Data: track, BarWidth: "40%", ItemStyle: &ecItemStyle{Color: colourPeerRange}},
			peerMarker("Peers' median", median, colourPeerMedian, "diamond"),
			peerMarker("This business", mine, colourRisk, "circle"),
		},
	}
	return newChart("chart-peers", "Each ratio's peer range from worst to best, with the peers' median and this business; the table lists every value", bar)
}

// peerMarker is a line series drawn as markers only.
func peerMarker(name string, data []ecItem, colour, symbol string) ecSeries {
	none := 0.0
	return ecSeries{Name: name, Type: "line", Data: data,
		Symbol: symbol, SymbolSize: 12, ShowSymbol: yesNo(true), ConnectNulls: yesNo(false),
		ItemStyle: &ecItemStyle{Color: colour}, LineStyle: &ecLineStyle{Opacity: &none}}
}
