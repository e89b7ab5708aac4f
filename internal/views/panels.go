package views

// ChartPanel is a chart with its title and the data table beside it that is
// its text alternative. Without data, Empty says so and no chart is drawn.
type ChartPanel struct {
	Title string
	// Note is a sentence under the title: what the chart shows, assumptions.
	Note  string
	Chart Chart
	Table DataTable
	// Empty, when not "", replaces the chart and table.
	Empty string
}

// DataTable is a plain table of what a chart draws.
type DataTable struct {
	Caption string
	Head    []string
	Rows    []DataRow
}

// DataRow is one row; its first cell is the row's header.
type DataRow struct {
	Cells []DataCell
}

// DataCell is one cell: its text and a CSS class ("num", "zone-3 num",
// "missing").
type DataCell struct {
	Text  string
	Class string
}

// numCell is a right-aligned number.
func numCell(s string) DataCell { return DataCell{Text: s, Class: "num"} }

// missingCell marks a value the service did not give.
func missingCell(s string) DataCell { return DataCell{Text: s, Class: "missing"} }
