package views

import (
	"encoding/json"
	"math"
	"strings"
	"testing"
	"time"

	"creditdash/internal/upstream"
)

func month(y int, m time.Month) time.Time { return time.Date(y, m, 1, 0, 0, 0, 0, time.UTC) }

func TestNewHeatMapCellsZonesAndGaps(t *testing.T) {
	h := hist("PayScore",
		biz(1001, "Alpha", map[int]float64{8: 7, 9: 5, 10: 2}),
		biz(1003, "", map[int]float64{}), // no Pay score at all
		biz(1005, "Echo", map[int]float64{6: 9, 10: 8}),
	)
	span := MonthSpan{From: month(2026, time.August), To: month(2026, time.October)}
	hm := NewHeatMap(PortfolioPay, h, span)
	if len(hm.Months) != 3 || hm.Months[0].Label != "Aug 2026" || hm.Months[2].Param != "2026-10" {
		t.Fatalf("months = %+v", hm.Months)
	}
	if len(hm.Rows) != 3 || hm.Scored != 4 {
		t.Fatalf("rows %d scored %d, want 3 and 4", len(hm.Rows), hm.Scored)
	}
	alpha := hm.Rows[0]
	wantText := []string{"7", "5", "2"}
	wantClass := []string{"zone-4", "zone-3", "zone-1"}
	for i, c := range alpha.Cells {
		if c.Text != wantText[i] || c.Zone.Class() != wantClass[i] || c.Missing {
			t.Errorf("Alpha cell %d = %q %s missing=%v, want %q %s", i, c.Text, c.Zone.Class(), c.Missing, wantText[i], wantClass[i])
		}
	}
	if alpha.URL != "/businesses/1001" || !strings.Contains(alpha.Cells[2].Title, "severe") {
		t.Errorf("Alpha URL %q title %q", alpha.URL, alpha.Cells[2].Title)
	}
	unnamed := hm.Rows[1]
	if unnamed.Name != "Business 1003" {
		t.Errorf("unnamed row is called %q", unnamed.Name)
	}
	for i, c := range unnamed.Cells {
		if !c.Missing || c.Text != Dash || c.Zone.Class() != "zone-none" {
			t.Errorf("missing cell %d = %+v, want a dash in zone-none, never 0", i, c)
		}
	}
	echo := hm.Rows[2]
	if !echo.Cells[0].Missing || !echo.Cells[1].Missing || echo.Cells[2].Text != "8" {
		t.Errorf("Echo cells = %+v: June is outside the span, Aug and Sep missing", echo.Cells)
	}
}

func TestNewHeatMapZScores(t *testing.T) {
	h := hist("ZScore", biz(1, "Zed", map[int]float64{9: 0.5, 10: 2.6}), biz(2, "Yan", map[int]float64{10: 2.6001}))
	hm := NewHeatMap(PortfolioZ, h, MonthSpan{From: month(2026, time.September), To: month(2026, time.October)})
	c := hm.Rows[0].Cells
	if c[0].Text != "0.50" || c[0].Zone.Label != "distress" || c[1].Text != "2.60" || c[1].Zone.Label != "grey" {
		t.Errorf("Z cells = %+v", c)
	}
	if z := hm.Rows[1].Cells[1].Zone; z.Label != "safe" {
		t.Errorf("2.6001 is %q, want safe (above 2.60)", z.Label)
	}
}

func TestLatestSpan(t *testing.T) {
	h := hist("PayScore", biz(1, "A", map[int]float64{3: 5, 10: 6}), biz(2, "B", map[int]float64{11: 4}))
	span, ok := LatestSpan(h, 12)
	if !ok || !span.From.Equal(month(2025, time.December)) || !span.To.Equal(month(2026, time.November)) || span.Months() != 12 {
		t.Errorf("LatestSpan = %v..%v (%d months) ok=%v, want Dec 2025..Nov 2026", span.From, span.To, span.Months(), ok)
	}
	if _, ok := LatestSpan(hist("PayScore", biz(1, "A", nil)), 12); ok {
		t.Error("a history without scores has no latest span")
	}
	if n := (MonthSpan{From: month(2026, time.May), To: month(2026, time.March)}).Months(); n != 0 {
		t.Errorf("a reversed span has %d months", n)
	}
}

func TestHeatMapChartOptions(t *testing.T) {
	h := hist("PayScore", biz(1, `Alpha </script><b>`, map[int]float64{9: 7}), biz(2, "Bravo", map[int]float64{10: 3}))
	hm := NewHeatMap(PortfolioPay, h, MonthSpan{From: month(2026, time.September), To: month(2026, time.October)})
	c, err := hm.Chart("heat", HeatSize(len(hm.Rows)))
	if err != nil {
		t.Fatal(err)
	}
	if c.Class() != "chart heat-25" {
		t.Errorf("class %q", c.Class())
	}
	b := c.OptionJSON
	var opt struct {
		VisualMap []struct {
			Type   string           `json:"type"`
			Pieces []map[string]any `json:"pieces"`
		} `json:"visualMap"`
		Series []struct {
			Type string `json:"type"`
			Data []struct {
				Value []float64 `json:"value"`
			} `json:"data"`
		} `json:"series"`
		YAxis []struct {
			Data []string `json:"data"`
		} `json:"yAxis"`
	}
	if err := json.Unmarshal(b, &opt); err != nil {
		t.Fatalf("%v in %s", err, b)
	}
	if len(opt.VisualMap) != 1 || opt.VisualMap[0].Type != "piecewise" || len(opt.VisualMap[0].Pieces) != 5 {
		t.Errorf("visualMap = %+v", opt.VisualMap)
	}
	if len(opt.Series) != 1 || opt.Series[0].Type != "heatmap" {
		t.Fatalf("series = %+v", opt.Series)
	}
	// Two scores, two missing months: missing months are absent, not 0.
	data := opt.Series[0].Data
	if len(data) != 2 || data[0].Value[0] != 0 || data[0].Value[1] != 0 || data[0].Value[2] != 7 ||
		data[1].Value[0] != 1 || data[1].Value[1] != 1 || data[1].Value[2] != 3 {
		t.Errorf("data = %+v", data)
	}
	if len(opt.YAxis) == 0 || len(opt.YAxis[0].Data) != 2 || opt.YAxis[0].Data[0] != `Alpha </script><b>` {
		t.Errorf("y axis = %+v", opt.YAxis)
	}
}

// Scores are indexed by month whatever their order; the later of two for
// one month stands, as the service's order has it; impossible ones are out.
func TestMonthValuesIndexesByMonth(t *testing.T) {
	f := func(v float64) upstream.Num[float64] { return upstream.Some(v) }
	scores := []upstream.MonthlyScore{
		{Year: 2026, Month: 3, Score: f(30)},
		{Year: 2025, Month: 12, Score: f(12)},
		{Year: 2026, Month: 1, Score: f(10)},
		{Year: 2026, Month: 1, Score: f(11)},
		{Year: 2026, Month: 2, Score: upstream.Num[float64]{}},
		{Year: 2026, Month: 13, Score: f(99)},
		{Year: 2026, Month: 4, Score: f(math.NaN())},
	}
	buf := monthValues(make(monthScores, 0, 1), scores)
	for _, c := range []struct {
		y, m int
		want float64
		ok   bool
	}{{2025, 12, 12, true}, {2026, 1, 11, true}, {2026, 2, 0, false}, {2026, 3, 30, true}, {2026, 4, 0, false}, {2027, 1, 0, false}} {
		if v, ok := buf.at(monthIndexOf(c.y, c.m)); v != c.want || ok != c.ok {
			t.Errorf("%d-%02d: %v, %v; want %v, %v", c.y, c.m, v, ok, c.want, c.ok)
		}
	}
	// The buffer is reused: a second business starts empty.
	if again := monthValues(buf, nil); len(again) != 0 {
		t.Errorf("a business without scores has %d", len(again))
	}
}
