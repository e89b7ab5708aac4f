package handlers

import (
	"testing"
	"time"
)

func TestReadMonth(t *testing.T) {
	cases := []struct {
		in   string
		want time.Time
		ok   bool
	}{
		{"", time.Time{}, true},
		{" 2026-10 ", time.Date(2026, 10, 1, 0, 0, 0, 0, time.UTC), true},
		{"2026-1", time.Time{}, false},
		{"2026-13", time.Time{}, false},
		{"1899-12", time.Time{}, false},
		{"2101-01", time.Time{}, false},
		{"Oct 2026", time.Time{}, false},
	}
	for _, c := range cases {
		got, ok := readMonth(c.in)
		if ok != c.ok || !got.Equal(c.want) {
			t.Errorf("readMonth(%q) = %v, %v; want %v, %v", c.in, got, ok, c.want, c.ok)
		}
	}
	if monthParam(time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC)) != "2026-03" || monthParam(time.Time{}) != "" {
		t.Error("monthParam does not write YYYY-MM")
	}
}
