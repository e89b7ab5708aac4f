package views

import (
	"testing"
)

func TestMarkBestWorst(t *testing.T) {
	tests := []struct {
		name   string
		vals   []float64
		has    []bool
		better int
		want   []string
	}{
		{"higher better", []float64{3, 9, 5}, []bool{true, true, true}, +1, []string{"worst", "best", ""}},
		{"lower better", []float64{3, 9, 5}, []bool{true, true, true}, -1, []string{"best", "worst", ""}},
		{"ties share", []float64{9, 9, 2}, []bool{true, true, true}, +1, []string{"best", "best", "worst"}},
		{"all equal", []float64{4, 4}, []bool{true, true}, +1, []string{"", ""}},
		{"missing skipped", []float64{0, 7, 3}, []bool{false, true, true}, +1, []string{"", "best", "worst"}},
		{"one value", []float64{0, 7}, []bool{false, true}, +1, []string{"", ""}},
		{"context row", []float64{1, 2}, []bool{true, true}, 0, []string{"", ""}},
	}
	for _, tt := range tests {
		cells := make([]CompareCell, len(tt.vals))
		markBestWorst(cells, tt.vals, tt.has, tt.better)
		for i, c := range cells {
			if c.Mark != tt.want[i] {
				t.Errorf("%s: cell %d marked %q, want %q", tt.name, i, c.Mark, tt.want[i])
			}
			if c.Mark != "" && c.Class != "num "+c.Mark {
				t.Errorf("%s: cell %d class %q", tt.name, i, c.Class)
			}
		}
	}
}

func TestCompareDemoBusinesses(t *testing.T) {
	var in []CompareInput
	for _, id := range []int32{1001, 1002, 1005} {
		stmts, hist, pays := demoBusiness(t, id)
		in = append(in, CompareInput{ID: id, Hist: hist, Pay: pays, Stmts: stmts})
	}
	in = append(in, CompareInput{ID: 1009, Problem: &Problem{Title: "Not loaded"}})
	cols, rows := NewCompare(in)
	if len(cols) != 4 || cols[3].Problem == nil || cols[0].URL != "/businesses/1001?compare=1001,1002,1005,1009" {
		t.Fatalf("columns %+v", cols)
	}
	byLabel := map[string]CompareRow{}
	for _, r := range rows {
		byLabel[r.Label] = r
	}
	// 1001's Risk fell 7 -> 2 over the year: the worst change; 1005 is
	// private: no Z″.
	if c := byLabel["Risk, 12-month change"].Cells[0]; c.Mark != "worst" {
		t.Errorf("1001 Risk change %+v", c)
	}
	if c := byLabel["Z″-Score"].Cells[2]; c.Text != "missing" {
		t.Errorf("1005 Z″ %+v", c)
	}
	if c := byLabel["Risk score"].Cells[3]; c.Text != "not loaded" {
		t.Errorf("unloaded column %+v", c)
	}
	charts, err := CompareCharts(in)
	if err != nil || len(charts) != 4 {
		t.Fatalf("charts: %v, %d", err, len(charts))
	}
	if got := len(charts[0].Table.Head); got != 4 { // Month + three loaded businesses
		t.Errorf("risk table head %v", charts[0].Table.Head)
	}
}

func TestCompareWith(t *testing.T) {
	tests := []struct{ page, id, want string }{
		{"/?q=North", "1003", "/compare?ids=1003"},
		{"/businesses/1003?compare=1001,1002", "1003", "/compare?ids=1001,1002,1003"},
		{"/businesses/1001?compare=1001,1002", "1001", "/compare?ids=1001,1002"},
		{"/x?compare=1001,junk,1001,-3", "7", "/compare?ids=1001,7"},
	}
	for _, tt := range tests {
		if got := CompareWith(tt.page, tt.id); got != tt.want {
			t.Errorf("CompareWith(%q, %q) = %q, want %q", tt.page, tt.id, got, tt.want)
		}
	}
	h := BusinessHeader{Facts: []string{"Business id 1004"}, ShareURL: "http://x/businesses/1004?compare=1001"}
	if got := h.CompareURL(); got != "/compare?ids=1001,1004" {
		t.Errorf("header link %q", got)
	}
}
