package views

import (
	"encoding/json"
	"reflect"
	"testing"

	"creditdash/internal/upstream"
)

func TestOrdinal(t *testing.T) {
	for n, want := range map[int]string{
		1: "1st", 2: "2nd", 3: "3rd", 4: "4th", 10: "10th", 11: "11th", 12: "12th", 13: "13th",
		21: "21st", 22: "22nd", 23: "23rd", 38: "38th", 101: "101st", 111: "111th", 112: "112th", 1003: "1003rd",
	} {
		if got := Ordinal(n); got != want {
			t.Errorf("Ordinal(%d) = %q, want %q", n, got, want)
		}
	}
}

func TestRankText(t *testing.T) {
	n := func(i int) upstream.Num[int] { return upstream.Some(i) }
	tests := []struct {
		rank  upstream.Num[int]
		count int
		want  string
	}{
		{n(38), 41, "38th of 41"},
		{n(1), 1, "1st of 1"},
		{n(2), 12, "2nd of 12"},
		{upstream.Num[int]{}, 41, Dash},
		{n(0), 41, Dash},
		{n(3), 0, Dash},
	}
	for _, tt := range tests {
		if got := RankText(tt.rank, tt.count); got != tt.want {
			t.Errorf("RankText(%v, %d) = %q, want %q", tt.rank, tt.count, got, tt.want)
		}
	}
}

func TestFormatRatio(t *testing.T) {
	f := func(v float64) upstream.Num[float64] { return upstream.Some(v) }
	tests := []struct {
		ratio string
		v     upstream.Num[float64]
		want  string
	}{
		{upstream.RatioCurrent, f(0.9), "0.90"},
		{upstream.RatioDebtToEquity, f(1.2598), "1.26"},
		{upstream.RatioNetMargin, f(0.114), "11.4%"},
		{upstream.RatioReturnOnEquity, f(-0.335), "-33.5%"},
		{upstream.RatioLiabilitiesToAssets, f(0.5575), "55.8%"},
		{"SomethingNew", f(1.23456), "1.2346"},
		{upstream.RatioCurrent, upstream.Num[float64]{}, Dash},
	}
	for _, tt := range tests {
		if got := formatRatio(tt.ratio, tt.v); got != tt.want {
			t.Errorf("formatRatio(%s, %v) = %q, want %q", tt.ratio, tt.v, got, tt.want)
		}
	}
}

func TestPeerPosition(t *testing.T) {
	tests := []struct {
		v, lo, hi float64
		up        bool
		want      float64
	}{
		{2, 1, 3, true, 50},
		{3, 1, 3, true, 100},
		{1, 1, 3, false, 100}, // the lowest debt is the best
		{3, 1, 3, false, 0},
		{0.7, 0.7, 0.7, true, 50},
		{1.5, 1, 4, true, 16.7},
	}
	for _, tt := range tests {
		if got := peerPosition(tt.v, tt.lo, tt.hi, tt.up); got != tt.want {
			t.Errorf("peerPosition(%v, %v..%v, up %v) = %v, want %v", tt.v, tt.lo, tt.hi, tt.up, got, tt.want)
		}
	}
}

// peerAnswer is a service answer with a ranked ratio, a lower-is-better
// one, one the business lacks and one no peer has.
func peerAnswer() upstream.PeerAnalysis {
	f := func(v float64) upstream.Num[float64] { return upstream.Some(v) }
	n := func(i int) upstream.Num[int] { return upstream.Some(i) }
	return upstream.PeerAnalysis{PeerYear: 2025, PeerQuarter: 4, SIC: "5311", IndustryName: "Department Stores", PeerCount: 41,
		Ratios: []upstream.PeerRatio{
			{Ratio: upstream.RatioCurrent, Value: f(0.9), Min: f(0.5), Median: f(1.5), Max: f(2.5), Count: 41, Rank: n(38)},
			{Ratio: upstream.RatioDebtToEquity, Value: f(1), Min: f(0.5), Median: f(1.5), Max: f(4.5), Count: 40, Rank: n(12)},
			{Ratio: upstream.RatioCash, Min: f(0.1), Median: f(0.3), Max: f(0.9), Count: 39},
			{Ratio: upstream.RatioGrossMargin},
		}}
}

func TestPeerViewRows(t *testing.T) {
	s, err := PeerView(peerAnswer())
	if err != nil {
		t.Fatal(err)
	}
	if s.Period != "2025 Q4" || s.Industry != "SIC 5311 Department Stores" || s.PeerCount != 41 || s.Panel.Empty != "" {
		t.Errorf("section = %q, %q, %d peers, empty %q", s.Period, s.Industry, s.PeerCount, s.Panel.Empty)
	}
	want := []PeerRow{
		{Ratio: "CurrentRatio", Label: "Current ratio", Value: "0.90", Min: "0.50", Median: "1.50", Max: "2.50",
			Rank: "38th of 41", HigherIsBetter: true, Direction: "higher is better"},
		{Ratio: "DebtToEquity", Label: "Debt / equity", Value: "1.00", Min: "0.50", Median: "1.50", Max: "4.50",
			Rank: "12th of 40", Direction: "lower is better"},
		{Ratio: "CashRatio", Label: "Cash ratio", Value: Dash, Min: "0.10", Median: "0.30", Max: "0.90",
			Rank: Dash, HigherIsBetter: true, Direction: "higher is better", Missing: true},
		{Ratio: "GrossMargin", Label: "Gross margin", Value: Dash, Min: Dash, Median: Dash, Max: Dash,
			Rank: Dash, HigherIsBetter: true, Direction: "higher is better", Missing: true},
	}
	if !reflect.DeepEqual(s.Rows, want) {
		t.Errorf("rows\n got %+v\nwant %+v", s.Rows, want)
	}
	if len(s.Panel.Table.Rows) != 4 || s.Panel.Table.Rows[0].Cells[5].Text != "38th of 41" ||
		s.Panel.Table.Rows[2].Cells[1].Class != "missing" {
		t.Errorf("table = %+v", s.Panel.Table)
	}
}

func TestPeerViewWithoutStatements(t *testing.T) {
	s, err := PeerView(upstream.PeerAnalysis{SIC: "7363", IndustryName: "Help Supply Services", Ratios: []upstream.PeerRatio{}})
	if err != nil || s.Panel.Empty == "" || len(s.Rows) != 0 || s.Panel.Chart.ID != "" || s.Period != "" {
		t.Errorf("no statements: %+v, %v; want an empty panel and no chart", s, err)
	}
}

// A period without statements, a group of the business alone and a
// business without a statement for the period are each told plainly,
// never as a ranking of dashes or "1st of 1".
func TestPeerViewThinGroups(t *testing.T) {
	f := func(v float64) upstream.Num[float64] { return upstream.Some(v) }
	one := func(i int) upstream.Num[int] { return upstream.Some(i) }
	nothing := upstream.PeerAnalysis{PeerYear: 2015, PeerQuarter: 4, PeerCount: 0, Ratios: []upstream.PeerRatio{
		{Ratio: upstream.RatioCurrent}, {Ratio: upstream.RatioNetMargin}}}
	if s, _ := PeerView(nothing); len(s.Rows) != 0 || s.Panel.Empty != "No statements for 2015 Q4 from this business or its peers: choose another year." {
		t.Errorf("no statements in the period: rows %d, empty %q", len(s.Rows), s.Panel.Empty)
	}
	alone := upstream.PeerAnalysis{PeerYear: 2025, PeerQuarter: 4, PeerCount: 1, Ratios: []upstream.PeerRatio{
		{Ratio: upstream.RatioNetMargin, Value: f(-0.046), Min: f(-0.046), Max: f(-0.046), Median: f(-0.046), Count: 1, Rank: one(1)}}}
	if s, _ := PeerView(alone); len(s.Rows) != 0 || s.Panel.Chart.ID != "" || s.Panel.Empty != "No other business matches these peer filters for 2025 Q4: widen them to compare." {
		t.Errorf("the business alone: rows %d, chart %q, empty %q", len(s.Rows), s.Panel.Chart.ID, s.Panel.Empty)
	}
	without := upstream.PeerAnalysis{PeerYear: 2026, PeerQuarter: 4, PeerCount: 10, Ratios: []upstream.PeerRatio{
		{Ratio: upstream.RatioCurrent, Min: f(0.8), Max: f(2.3), Median: f(1.3), Count: 10}}}
	s, _ := PeerView(without)
	if len(s.Rows) != 1 || s.Compared() != "10 peers compared; this business has no statement for 2026 Q4" {
		t.Errorf("the business without a statement: rows %d, %q", len(s.Rows), s.Compared())
	}
	with := without
	with.Ratios = []upstream.PeerRatio{{Ratio: upstream.RatioCurrent, Value: f(1), Min: f(0.8), Max: f(2.3), Median: f(1.3), Count: 10, Rank: one(4)}}
	if s, _ := PeerView(with); s.Compared() != "10 businesses compared, this one included" {
		t.Errorf("the business with a statement: %q", s.Compared())
	}
}

// The chart's options, as the page hands them to ECharts.
type peerOptions struct {
	YAxis []struct {
		Type    string
		Data    []string
		Inverse bool
	}
	XAxis []struct {
		Type     string
		Min, Max float64
	}
	Series []struct {
		Name string
		Type string
		Data []struct {
			Name  string
			Value any
		}
	}
}

func TestPeerChartOptions(t *testing.T) {
	s, err := PeerView(peerAnswer())
	if err != nil {
		t.Fatal(err)
	}
	c := s.Panel.Chart
	if c.ID != "chart-peers" || c.Label == "" {
		t.Fatalf("chart %q labelled %q", c.ID, c.Label)
	}
	b := c.OptionJSON
	var o peerOptions
	if err := json.Unmarshal(b, &o); err != nil {
		t.Fatal(err)
	}
	// The ratio no peer has is left out of the chart.
	wantLabels := []string{"Current ratio", "Debt / equity", "Cash ratio"}
	if len(o.YAxis) == 0 || o.YAxis[0].Type != "category" || !reflect.DeepEqual(o.YAxis[0].Data, wantLabels) || !o.YAxis[0].Inverse {
		t.Errorf("y axis = %+v, want the ratios top to bottom", o.YAxis)
	}
	if len(o.XAxis) == 0 || o.XAxis[0].Type != "value" || o.XAxis[0].Min != 0 || o.XAxis[0].Max != 100 {
		t.Errorf("x axis = %+v, want 0 to 100", o.XAxis)
	}
	type want struct {
		name, typ string
		values    []any
	}
	wants := []want{
		{"Peer range", "bar", []any{100.0, 100.0, 100.0}},
		// Current 1.5 on 0.5..2.5 is 50; debt 1.5 on 0.5..4.5, lower better, is 75.
		{"Peers' median", "line", []any{50.0, 75.0, 25.0}},
		// Current 0.9 is 20; debt 1 is 87.5; the business has no cash ratio.
		{"This business", "line", []any{20.0, 87.5, "-"}},
	}
	if len(o.Series) != len(wants) {
		t.Fatalf("%d series, want %d", len(o.Series), len(wants))
	}
	for i, w := range wants {
		sr := o.Series[i]
		var got []any
		for _, d := range sr.Data {
			got = append(got, d.Value)
		}
		if sr.Name != w.name || sr.Type != w.typ || !reflect.DeepEqual(got, w.values) {
			t.Errorf("series %d = %s %s %v, want %s %s %v", i, sr.Name, sr.Type, got, w.name, w.typ, w.values)
		}
	}
	if tip := o.Series[2].Data[0].Name; tip != "Current ratio · this business 0.90, 38th of 41" {
		t.Errorf("tooltip of the business = %q", tip)
	}
}
