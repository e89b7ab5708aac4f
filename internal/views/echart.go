package views

// The ECharts options of the dashboard's charts, as plain typed structs:
// exactly the parts the pages draw with, encoded once by encoding/json
// into the page. go-echarts built the same JSON through a map of its own
// structs per chart, by reflection: with json.Marshal, 43 % of what a page
// view allocated under load (issue 25). It stays as the yardstick in the
// tests: handlers' TestChartOptionsFitGoEchartsTypes decodes every chart's
// options into go-echarts' types, field for field.
// Field names and omissions follow ECharts' option reference; the default
// palette and go-echarts' empty toolbox are left out, as ECharts has them.

// ecOption is one chart's option object.
type ecOption struct {
	Animation bool          `json:"animation"`
	Title     *ecTitle      `json:"title,omitempty"`
	Legend    *ecLegend     `json:"legend,omitempty"`
	Tooltip   *ecTooltip    `json:"tooltip,omitempty"`
	Grid      []ecGrid      `json:"grid,omitempty"`
	DataZoom  []ecZoom      `json:"dataZoom,omitempty"`
	VisualMap []ecVisualMap `json:"visualMap,omitempty"`
	Aria      *ecAria       `json:"aria,omitempty"`
	XAxis     []ecAxis      `json:"xAxis,omitempty"`
	YAxis     []ecAxis      `json:"yAxis,omitempty"`
	Series    []ecSeries    `json:"series"`
}

type ecTitle struct {
	Text      string       `json:"text,omitempty"`
	Left      string       `json:"left,omitempty"`
	TextStyle *ecTextStyle `json:"textStyle,omitempty"`
}

type ecTextStyle struct {
	FontSize int `json:"fontSize,omitempty"`
}

type ecLegend struct {
	Show   bool   `json:"show"`
	Type   string `json:"type,omitempty"`
	Top    string `json:"top,omitempty"`
	Right  string `json:"right,omitempty"`
	Bottom string `json:"bottom,omitempty"`
	Left   string `json:"left,omitempty"`
}

type ecTooltip struct {
	Show      bool   `json:"show"`
	Trigger   string `json:"trigger,omitempty"`
	Formatter string `json:"formatter,omitempty"`
}

type ecGrid struct {
	Left         string `json:"left,omitempty"`
	Top          string `json:"top,omitempty"`
	Right        string `json:"right,omitempty"`
	Bottom       string `json:"bottom,omitempty"`
	ContainLabel bool   `json:"containLabel"`
}

type ecZoom struct {
	Type string `json:"type"`
}

type ecVisualMap struct {
	Type      string       `json:"type"`
	Pieces    []ecPiece    `json:"pieces,omitempty"`
	Orient    string       `json:"orient,omitempty"`
	Left      string       `json:"left,omitempty"`
	Bottom    string       `json:"bottom,omitempty"`
	TextStyle *ecTextStyle `json:"textStyle,omitempty"`
}

// ecPiece is one range of a piecewise visual map; a zero bound is no
// bound, as in go-echarts.
type ecPiece struct {
	Min   float64 `json:"min,omitempty"`
	Max   float64 `json:"max,omitempty"`
	Lt    float64 `json:"lt,omitempty"`
	Lte   float64 `json:"lte,omitempty"`
	Gt    float64 `json:"gt,omitempty"`
	Gte   float64 `json:"gte,omitempty"`
	Color string  `json:"color,omitempty"`
}

type ecAria struct {
	Enabled bool         `json:"enabled"`
	Label   *ecAriaLabel `json:"label,omitempty"`
	Decal   *ecShow      `json:"decal,omitempty"`
}

type ecAriaLabel struct {
	Enabled bool `json:"enabled"`
}

type ecShow struct {
	Show bool `json:"show"`
}

// ecAxis is an x or y axis. Min and Max are numbers when set (nil: the
// data's own range).
type ecAxis struct {
	Name         string       `json:"name,omitempty"`
	Type         string       `json:"type,omitempty"`
	NameLocation string       `json:"nameLocation,omitempty"`
	NameGap      int          `json:"nameGap,omitempty"`
	BoundaryGap  *bool        `json:"boundaryGap,omitempty"`
	Inverse      bool         `json:"inverse,omitempty"`
	Min          any          `json:"min,omitempty"`
	Max          any          `json:"max,omitempty"`
	SplitNumber  int          `json:"splitNumber,omitempty"`
	MinInterval  float64      `json:"minInterval,omitempty"`
	Data         []string     `json:"data,omitempty"`
	SplitArea    *ecShow      `json:"splitArea,omitempty"`
	AxisLabel    *ecAxisLabel `json:"axisLabel,omitempty"`
}

type ecAxisLabel struct {
	Show     bool   `json:"show"`
	Interval string `json:"interval,omitempty"`
	Rotate   int    `json:"rotate,omitempty"`
	FontSize int    `json:"fontSize,omitempty"`
}

// ecSeries is one series of any of the kinds drawn: line, bar, heatmap,
// scatter.
type ecSeries struct {
	Name         string `json:"name"`
	Type         string `json:"type"`
	Stack        string `json:"stack,omitempty"`
	BarWidth     string `json:"barWidth,omitempty"`
	Symbol       string `json:"symbol,omitempty"`
	SymbolSize   int    `json:"symbolSize,omitempty"`
	ShowSymbol   *bool  `json:"showSymbol,omitempty"`
	ConnectNulls *bool  `json:"connectNulls,omitempty"`
	// Data is []ecItem, or []ecCell for a heat map, []ecPoint for a
	// scatter chart: each a slice of plain structs, no value boxed.
	Data      any          `json:"data"`
	ItemStyle *ecItemStyle `json:"itemStyle,omitempty"`
	LineStyle *ecLineStyle `json:"lineStyle,omitempty"`
	Label     *ecLabel     `json:"label,omitempty"`
	MarkLine  *ecMarkLine  `json:"markLine,omitempty"`
	// Animation is false on each series as on the chart: nothing is
	// animated, whatever a series' own default.
	Animation bool `json:"animation"`
}

// ecItem is one data item: its name (the tooltip's text) and value (a
// number, or noValue for a gap).
type ecItem struct {
	Name  string `json:"name,omitempty"`
	Value any    `json:"value"`
}

// ecCell is a heat map's cell: column, row and value.
type ecCell struct {
	Name  string     `json:"name,omitempty"`
	Value [3]float64 `json:"value"`
}

// ecPoint is a scatter chart's point: x, y and its symbol.
type ecPoint struct {
	Name       string     `json:"name,omitempty"`
	Value      [2]float64 `json:"value"`
	Symbol     string     `json:"symbol,omitempty"`
	SymbolSize int        `json:"symbolSize,omitempty"`
}

type ecItemStyle struct {
	Color string `json:"color,omitempty"`
}

type ecLineStyle struct {
	Color   string   `json:"color,omitempty"`
	Width   float64  `json:"width,omitempty"`
	Type    string   `json:"type,omitempty"`
	Opacity *float64 `json:"opacity,omitempty"`
}

type ecLabel struct {
	Show      bool   `json:"show"`
	FontSize  int    `json:"fontSize,omitempty"`
	Position  string `json:"position,omitempty"`
	Formatter string `json:"formatter,omitempty"`
}

// ecMarkLine draws lines at given values across the plot, each named.
type ecMarkLine struct {
	Data      []ecMark     `json:"data"`
	Symbol    []string     `json:"symbol,omitempty"`
	Label     *ecLabel     `json:"label,omitempty"`
	LineStyle *ecLineStyle `json:"lineStyle,omitempty"`
}

type ecMark struct {
	Name  string   `json:"name,omitempty"`
	XAxis *float64 `json:"xAxis,omitempty"`
	YAxis *float64 `json:"yAxis,omitempty"`
}

// yesNo points at a bool, for options whose false must be sent.
func yesNo(b bool) *bool { return &b }

// zoneMarkLine marks Z″'s zone bounds (1.10 and 2.60) as dashed lines
// named at position, across the y axis (onX false) or the x axis.
func zoneMarkLine(onX bool, position string) *ecMarkLine {
	lo, hi := 1.1, 2.6
	m := &ecMarkLine{
		Symbol:    []string{"none", "none"},
		Label:     &ecLabel{Show: true, Formatter: "{b}", Position: position},
		LineStyle: &ecLineStyle{Type: "dashed", Color: "#5b6475"},
	}
	if onX {
		m.Data = []ecMark{{Name: "distress below 1.10", XAxis: &lo}, {Name: "safe above 2.60", XAxis: &hi}}
	} else {
		m.Data = []ecMark{{Name: "distress below 1.10", YAxis: &lo}, {Name: "safe above 2.60", YAxis: &hi}}
	}
	return m
}
