package views

import (
	"strconv"
	"testing"
)

func pageURL(p int) string { return "?page=" + strconv.Itoa(p) }

func TestPager(t *testing.T) {
	cases := []struct {
		name                      string
		page, size, total         int
		last, firstRow, lastRow   int
		first, prev, next, lastTo string
		summary                   string
		past                      bool
	}{
		{"first of several", 1, 25, 96, 4, 1, 25, "", "", "?page=2", "?page=4", "rows 1–25 of 96", false},
		{"middle", 2, 25, 96, 4, 26, 50, "?page=1", "?page=1", "?page=3", "?page=4", "rows 26–50 of 96", false},
		{"last, partly full", 4, 25, 96, 4, 76, 96, "?page=1", "?page=3", "", "", "rows 76–96 of 96", false},
		{"exactly full", 2, 50, 100, 2, 51, 100, "?page=1", "?page=1", "", "", "rows 51–100 of 100", false},
		{"only page", 1, 100, 7, 1, 1, 7, "", "", "", "", "rows 1–7 of 7", false},
		{"empty", 1, 25, 0, 1, 0, 0, "", "", "", "", "no rows of 0", false},
		{"past the end", 9, 25, 96, 4, 0, 0, "?page=1", "?page=4", "", "?page=4", "no rows of 96", true},
		{"just past the end", 5, 25, 100, 4, 0, 0, "?page=1", "?page=4", "", "?page=4", "no rows of 100", true},
		{"thousands", 2, 100, 200000, 2000, 101, 200, "?page=1", "?page=1", "?page=3", "?page=2000", "rows 101–200 of 200,000", false},
	}
	for _, c := range cases {
		p := NewPager(c.page, c.size, c.total, pageURL)
		if p.Last != c.last || p.FirstRow != c.firstRow || p.LastRow != c.lastRow {
			t.Errorf("%s: last %d rows %d-%d, want %d rows %d-%d", c.name, p.Last, p.FirstRow, p.LastRow, c.last, c.firstRow, c.lastRow)
		}
		if p.FirstURL != c.first || p.PrevURL != c.prev || p.NextURL != c.next || p.LastURL != c.lastTo {
			t.Errorf("%s: links first %q prev %q next %q last %q, want %q %q %q %q", c.name,
				p.FirstURL, p.PrevURL, p.NextURL, p.LastURL, c.first, c.prev, c.next, c.lastTo)
		}
		if p.Summary() != c.summary || p.PastEnd() != c.past {
			t.Errorf("%s: summary %q past %v, want %q %v", c.name, p.Summary(), p.PastEnd(), c.summary, c.past)
		}
		if p.StartRow() != (c.page-1)*c.size+1 || p.EndRow() != c.page*c.size {
			t.Errorf("%s: service rows %d-%d", c.name, p.StartRow(), p.EndRow())
		}
	}
}

func TestHeatSize(t *testing.T) {
	for rows, want := range map[int]string{0: "heat-25", 25: "heat-25", 26: "heat-50", 50: "heat-50", 51: "heat-100", 100: "heat-100"} {
		if got := HeatSize(rows); got != want {
			t.Errorf("HeatSize(%d) = %q, want %q", rows, got, want)
		}
	}
}
