package views

import (
	"encoding/json"
	"strings"
	"testing"

	"creditdash/internal/upstream"
)

func sicRow(month, code, name string, dbt upstream.Num[int]) upstream.PaymentSummaryRow {
	return upstream.PaymentSummaryRow{MonthReported: month, CategoryCode: code, CategoryName: name, DBTIndex: dbt, TotalDue: 1000}
}

// Categories down, worst average DBT first; months across, oldest first;
// each cell its value and zone, a missing DBT a dash, never 0.
func TestSICHeatMapOrderAndCells(t *testing.T) {
	rows := []upstream.PaymentSummaryRow{
		sicRow("2026-10", "73", "Business Services", ip(3)),
		sicRow("2026-09", "73", "Business Services", ip(5)),
		sicRow("2026-10", "42", "Trucking and Warehousing", ip(40)),
		sicRow("2026-09", "42", "Trucking and Warehousing", upstream.Num[int]{}),
		sicRow("2026-10", "50", "Wholesale-Durable Goods", ip(12)),
		sicRow("2026-09", "50", "Wholesale-Durable Goods", ip(70)),
		sicRow("2026-10", "28", "Chemicals", upstream.Num[int]{}),
		sicRow("bad", "99", "Unreadable", ip(100)),
	}
	hm, err := NewSICHeatMap(rows)
	if err != nil {
		t.Fatal(err)
	}
	if len(hm.Months) != 2 || hm.Months[0].Label != "Sep 2026" || hm.Months[1].Label != "Oct 2026" {
		t.Fatalf("months %+v", hm.Months)
	}
	var order []string
	for _, r := range hm.Rows {
		order = append(order, r.Category)
	}
	// 50: (70+12)/2 = 41; 42: 40; 73: 4; 28 has no DBT: last.
	if got := strings.Join(order, " | "); got != "50 Wholesale-Durable Goods | 42 Trucking and Warehousing | 73 Business Services | 28 Chemicals" {
		t.Errorf("order %q", got)
	}
	w := hm.Rows[0]
	if w.Average != "41.0" || w.Cells[0].Text != "70" || w.Cells[0].Zone.Class() != "zone-1" || w.Cells[1].Zone.Label != "slow" {
		t.Errorf("worst row %+v", w)
	}
	if c := hm.Rows[1].Cells[0]; !c.Missing || c.Text != Dash || c.Zone.Class() != "zone-none" {
		t.Errorf("missing DBT cell %+v", c)
	}
	if hm.Rows[3].Average != Dash {
		t.Errorf("no-DBT category average %q", hm.Rows[3].Average)
	}
	if !strings.Contains(hm.Rows[0].Cells[0].Title, "DBT 70 days (severe)") {
		t.Errorf("title %q", hm.Rows[0].Cells[0].Title)
	}

	b := hm.Chart.OptionJSON
	opt := string(b)
	for _, want := range []string{`"type":"heatmap"`, `"type":"piecewise"`, `"color":"#b3261e"`, `"color":"#2e7d4f"`, `"show":true`} {
		if !strings.Contains(opt, want) {
			t.Errorf("chart options lack %s", want)
		}
	}
	// Three DBT values, one per drawn cell; the missing ones are not drawn.
	var o struct {
		Series []struct {
			Data []struct{ Value [3]float64 } `json:"data"`
		} `json:"series"`
		YAxis []struct{ Data []string } `json:"yAxis"`
	}
	if err := json.Unmarshal(b, &o); err != nil {
		t.Fatal(err)
	}
	if n := len(o.Series[0].Data); n != 5 {
		t.Errorf("%d cells drawn, want 5", n)
	}
	if o.YAxis[0].Data[0] != "50 Wholesale-D…" {
		t.Errorf("axis label %q", o.YAxis[0].Data[0])
	}
	if hm.Chart.ID != "chart-sic-heat" || hm.Chart.Size != "short" || hm.Note != "" {
		t.Errorf("chart %q size %q note %q", hm.Chart.ID, hm.Chart.Size, hm.Note)
	}
}

// More months than fit a phone: the chart draws the latest twelve and
// says so; the table keeps them all.
func TestSICHeatMapLongHistory(t *testing.T) {
	var rows []upstream.PaymentSummaryRow
	for i := range 24 {
		m := monthIndexOf(2024, 11) + monthIndex(i)
		rows = append(rows, sicRow(m.param(), "73", "Business Services", ip(i)))
	}
	hm, err := NewSICHeatMap(rows)
	if err != nil {
		t.Fatal(err)
	}
	if len(hm.Months) != 24 || len(hm.Rows[0].Cells) != 24 {
		t.Errorf("table months %d", len(hm.Months))
	}
	if hm.Note != "The chart draws the latest 12 months; the table lists all 24." {
		t.Errorf("note %q", hm.Note)
	}
	b := hm.Chart.OptionJSON
	if !strings.Contains(string(b), `"Nov 25"`) || strings.Contains(string(b), `"Oct 25"`) {
		t.Errorf("chart months: %s", b)
	}
	if empty, _ := NewSICHeatMap(nil); empty.Empty == "" || len(empty.Rows) != 0 {
		t.Errorf("empty: %+v", empty)
	}
}
