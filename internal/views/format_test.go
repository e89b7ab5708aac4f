package views

import (
	"math"
	"testing"
	"time"
)

func TestInt(t *testing.T) {
	cases := []struct {
		in   int64
		want string
	}{
		{0, "0"}, {7, "7"}, {999, "999"}, {1000, "1,000"}, {12345, "12,345"},
		{1234567, "1,234,567"}, {-1234, "-1,234"}, {-999, "-999"},
		{math.MaxInt64, "9,223,372,036,854,775,807"}, {math.MinInt64, "-9,223,372,036,854,775,808"},
	}
	for _, c := range cases {
		if got := Int(c.in); got != c.want {
			t.Errorf("Int(%d) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestMoney(t *testing.T) {
	cases := []struct {
		in   int64
		want string
	}{
		{0, "$0"}, {950, "$950"}, {1234567, "$1,234,567"}, {-2500, "-$2,500"},
	}
	for _, c := range cases {
		if got := Money(c.in); got != c.want {
			t.Errorf("Money(%d) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestCompactMoney(t *testing.T) {
	cases := []struct {
		in   float64
		want string
	}{
		{0, "$0"}, {950, "$950"}, {999.6, "$1K"}, {820000, "$820K"}, {1234567, "$1.2M"},
		{999950, "$1M"}, {999949, "$999.9K"}, {999.4, "$999"}, {1e15, "$1000T"}, {45.3e9, "$45.3B"}, {2e12, "$2T"}, {-1.5e6, "-$1.5M"}, {1500, "$1.5K"},
	}
	for _, c := range cases {
		if got := CompactMoney(c.in); got != c.want {
			t.Errorf("CompactMoney(%v) = %q, want %q", c.in, got, c.want)
		}
	}
}

func TestPercentDecimalSigned(t *testing.T) {
	percents := []struct {
		in   float64
		want string
	}{{0, "0.0%"}, {12.345, "12.3%"}, {99.96, "100.0%"}, {41.14, "41.1%"}, {-2.25, "-2.3%"},
		{-0.04, "-0.04%"}, {0.04, "0.04%"}, {-0.001, "0.0%"}, {-0.05, "-0.1%"}}
	for _, c := range percents {
		if got := Percent(c.in); got != c.want {
			t.Errorf("Percent(%v) = %q, want %q", c.in, got, c.want)
		}
	}
	decimals := []struct {
		in   float64
		n    int
		want string
	}{
		{1234.5678, 2, "1,234.57"}, {-1234.6, 0, "-1,235"}, {1234.5, 0, "1,234"}, {0.004, 2, "0.00"}, {-0.004, 2, "0.00"},
		{2.6, 2, "2.60"}, {-4.1, 1, "-4.1"}, {1e6, 0, "1,000,000"},
	}
	for _, c := range decimals {
		if got := Decimal(c.in, c.n); got != c.want {
			t.Errorf("Decimal(%v, %d) = %q, want %q", c.in, c.n, got, c.want)
		}
	}
	signed := []struct {
		in   float64
		n    int
		want string
	}{{2, 0, "+2"}, {-1.35, 2, "-1.35"}, {0, 0, "0"}, {0.001, 2, "0.00"}, {-0.001, 2, "0.00"}, {1234, 0, "+1,234"}}
	for _, c := range signed {
		if got := Signed(c.in, c.n); got != c.want {
			t.Errorf("Signed(%v, %d) = %q, want %q", c.in, c.n, got, c.want)
		}
	}
}

func TestMonthsAndDates(t *testing.T) {
	if got := Month(2026, 10); got != "Oct 2026" {
		t.Errorf("Month(2026, 10) = %q", got)
	}
	for _, m := range []int{0, 13, -1} {
		if got := Month(2026, m); got != Dash {
			t.Errorf("Month(2026, %d) = %q, want a dash", m, got)
		}
	}
	// Inside and outside the years whose labels are made once.
	for _, c := range []struct {
		y, m int
		want string
	}{{1949, 12, "Dec 1949"}, {1950, 1, "Jan 1950"}, {2149, 12, "Dec 2149"}, {2150, 1, "Jan 2150"}, {-5, 3, "Mar -5"}} {
		if got := Month(c.y, c.m); got != c.want {
			t.Errorf("Month(%d, %d) = %q, want %q", c.y, c.m, got, c.want)
		}
	}
	d := time.Date(2024, time.March, 4, 14, 5, 0, 0, time.UTC)
	cases := []struct {
		name, got, want string
	}{
		{"MonthOf", MonthOf(d), "Mar 2024"},
		{"MonthOf zero", MonthOf(time.Time{}), Dash},
		{"Date", Date(d), "Mar 4, 2024"},
		{"Date zero", Date(time.Time{}), Dash},
		{"DateTime", DateTime(d), "Mar 4, 2024 14:05 UTC"},
		{"DateTime zero", DateTime(time.Time{}), Dash},
		{"Clock", Clock(d), "14:05"},
	}
	for _, c := range cases {
		if c.got != c.want {
			t.Errorf("%s = %q, want %q", c.name, c.got, c.want)
		}
	}
}

func TestRelativeAndUntil(t *testing.T) {
	now := time.Date(2026, time.October, 15, 12, 0, 0, 0, time.UTC)
	rel := []struct {
		t    time.Time
		want string
	}{
		{time.Time{}, Dash},
		{now.Add(-20 * time.Second), "just now"},
		{now.Add(-5 * time.Minute), "5 minutes ago"},
		{now.Add(-1 * time.Minute), "1 minute ago"},
		{now.Add(-3 * time.Hour), "3 hours ago"},
		{now.Add(-30 * time.Hour), "yesterday"},
		{now.Add(-4 * 24 * time.Hour), "4 days ago"},
		{now.Add(23 * time.Minute), "in 23 minutes"},
		{now.Add(-40 * 24 * time.Hour), "Sep 5, 2026"},
	}
	for _, c := range rel {
		if got := Relative(c.t, now); got != c.want {
			t.Errorf("Relative(%v) = %q, want %q", c.t, got, c.want)
		}
	}
	until := []struct {
		d    time.Duration
		want string
	}{
		{30 * time.Second, "less than a minute"}, {-time.Minute, "less than a minute"},
		{23 * time.Minute, "23 min"}, {60 * time.Minute, "1 h"}, {65 * time.Minute, "1 h 5 min"},
	}
	for _, c := range until {
		if got := Until(now.Add(c.d), now); got != c.want {
			t.Errorf("Until(+%v) = %q, want %q", c.d, got, c.want)
		}
	}
}

func TestYears(t *testing.T) {
	now := time.Date(2026, time.October, 15, 0, 0, 0, 0, time.UTC)
	cases := []struct {
		t    time.Time
		want string
	}{
		{time.Time{}, ""},
		{now.AddDate(0, 0, 1), ""},
		{now.AddDate(0, -3, 0), "less than a year"},
		{time.Date(2025, time.October, 15, 0, 0, 0, 0, time.UTC), "1 year"},
		{time.Date(2025, time.October, 16, 0, 0, 0, 0, time.UTC), "less than a year"},
		{time.Date(2014, time.November, 1, 0, 0, 0, 0, time.UTC), "11 years"},
		{time.Date(2014, time.September, 1, 0, 0, 0, 0, time.UTC), "12 years"},
	}
	for _, c := range cases {
		if got := Years(c.t, now); got != c.want {
			t.Errorf("Years(%v) = %q, want %q", c.t.Format("2006-01-02"), got, c.want)
		}
	}
}

func TestClip(t *testing.T) {
	for in, want := range map[string]string{
		"short":      "short",
		"αβγδεζηθικ": "αβγδε…",
		"\xff\xfe":   "?",
	} {
		if got := Clip(in, 5); got != want {
			t.Errorf("Clip(%q, 5) = %q, want %q", in, got, want)
		}
	}
}
