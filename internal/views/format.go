package views

import (
	"math"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// Dash stands in for a value the service did not give.
const Dash = "—"

// Int formats a whole number with thousands separators: 1234567 -> "1,234,567".
func Int(n int64) string {
	s := strconv.FormatInt(n, 10)
	neg := strings.HasPrefix(s, "-")
	if neg {
		s = s[1:]
	}
	var b strings.Builder
	b.Grow(len(s) + len(s)/3 + 1)
	if neg {
		b.WriteByte('-')
	}
	lead := len(s) % 3
	if lead == 0 {
		lead = 3
	}
	b.WriteString(s[:lead])
	for i := lead; i < len(s); i += 3 {
		b.WriteByte(',')
		b.WriteString(s[i : i+3])
	}
	return b.String()
}

// Money formats whole dollars with separators: 1234567 -> "$1,234,567".
func Money(n int64) string {
	if n < 0 {
		return "-$" + Int(-n)
	}
	return "$" + Int(n)
}

// CompactMoney formats an amount for headlines: 1234567 -> "$1.2M",
// 45300000000 -> "$45.3B", 820000 -> "$820K", 950 -> "$950".
func CompactMoney(v float64) string {
	sign := ""
	if v < 0 {
		sign, v = "-", -v
	}
	// from is where a unit starts: its size less half of the smallest step
	// the unit below shows, so 999,950 becomes "$1M", not "$1000.0K",
	// while 950 stays "$950".
	units := []struct {
		size, from float64
		suffix     string
	}{{1e12, 1e12 - 5e7, "T"}, {1e9, 1e9 - 5e4, "B"}, {1e6, 1e6 - 50, "M"}, {1e3, 1e3 - 0.5, "K"}}
	for _, u := range units {
		if v >= u.from {
			r := math.Round(v/u.size*10) / 10
			return sign + "$" + trimZero(strconv.FormatFloat(r, 'f', 1, 64)) + u.suffix
		}
	}
	return sign + "$" + strconv.FormatFloat(math.Round(v), 'f', 0, 64)
}

func trimZero(s string) string { return strings.TrimSuffix(s, ".0") }

// Percent formats a percentage that is already in 0–100: 12.345 -> "12.3%".
// One too small for a decimal keeps its sign with two (-0.04 -> "-0.04%"),
// and none reads "-0.0%".
func Percent(p float64) string {
	r := math.Round(p*10) / 10
	if r == 0 && math.Abs(p) >= 0.005 {
		return strconv.FormatFloat(math.Round(p*100)/100, 'f', 2, 64) + "%"
	}
	if r == 0 {
		r = 0 // not -0
	}
	return strconv.FormatFloat(r, 'f', 1, 64) + "%"
}

// Decimal formats a number with the given decimals and separators.
func Decimal(v float64, decimals int) string {
	s := strconv.FormatFloat(math.Abs(v), 'f', decimals, 64)
	whole, frac, _ := strings.Cut(s, ".")
	n, _ := strconv.ParseInt(whole, 10, 64)
	out := Int(n)
	if frac != "" {
		out += "." + frac
	}
	if v < 0 && strings.Trim(s, "0.") != "" {
		out = "-" + out
	}
	return out
}

// Signed formats a change with its sign: +2, -1.35, 0.
func Signed(v float64, decimals int) string {
	s := Decimal(v, decimals)
	if v > 0 && strings.Trim(s, "0.,") != "" {
		return "+" + s
	}
	if strings.Trim(s, "-0.,") == "" {
		return Decimal(0, decimals)
	}
	return s
}

// Month formats a year and month as "Oct 2026".
func Month(year, month int) string {
	if month < 1 || month > 12 {
		return Dash
	}
	if i := (year-firstLabelYear)*12 + month - 1; i >= 0 && i < len(monthNames) {
		return monthNames[i]
	}
	return formatMonth(year, month)
}

func formatMonth(year, month int) string {
	return time.Month(month).String()[:3] + " " + strconv.Itoa(year)
}

// monthNames are the labels of the months of 1950 to 2149, made once: a
// report labels every month of four score charts, their tables and
// tooltips, and making each label anew was 1 % of a page view's CPU.
var monthNames = func() []string {
	out := make([]string, (lastLabelYear-firstLabelYear+1)*12)
	for i := range out {
		out[i] = formatMonth(firstLabelYear+i/12, i%12+1)
	}
	return out
}()

const firstLabelYear, lastLabelYear = 1950, 2149

// MonthOf formats a time's month as "Oct 2026".
func MonthOf(t time.Time) string {
	if t.IsZero() {
		return Dash
	}
	return Month(t.Year(), int(t.Month()))
}

// Date formats a date for people: "Mar 4, 2024"; the zero time is a dash.
func Date(t time.Time) string {
	if t.IsZero() {
		return Dash
	}
	return t.Format("Jan 2, 2006")
}

// DateTime formats a moment for people: "Mar 4, 2024 14:05 UTC".
func DateTime(t time.Time) string {
	if t.IsZero() {
		return Dash
	}
	return t.Format("Jan 2, 2006 15:04 MST")
}

// Clock formats a time of day: "14:05".
func Clock(t time.Time) string { return t.Format("15:04") }

// Relative says how long ago (or ahead) t is from now: "just now",
// "5 minutes ago", "3 hours ago", "yesterday", "4 days ago", "in 23 minutes";
// past a month it gives the date.
func Relative(t, now time.Time) string {
	if t.IsZero() {
		return Dash
	}
	d := now.Sub(t)
	future := d < 0
	if future {
		d = -d
	}
	var s string
	switch {
	case d < time.Minute:
		return "just now"
	case d < time.Hour:
		s = plural(int(d/time.Minute), "minute")
	case d < 24*time.Hour:
		s = plural(int(d/time.Hour), "hour")
	case d < 48*time.Hour && !future:
		return "yesterday"
	case d < 30*24*time.Hour:
		s = plural(int(d/(24*time.Hour)), "day")
	default:
		return Date(t)
	}
	if future {
		return "in " + s
	}
	return s + " ago"
}

// Until says how long until t in minutes or hours: "23 min", "1 h 5 min".
func Until(t, now time.Time) string {
	d := t.Sub(now)
	if d < time.Minute {
		return "less than a minute"
	}
	mins := int(d.Round(time.Minute) / time.Minute)
	if mins < 60 {
		return strconv.Itoa(mins) + " min"
	}
	if mins%60 == 0 {
		return strconv.Itoa(mins/60) + " h"
	}
	return strconv.Itoa(mins/60) + " h " + strconv.Itoa(mins%60) + " min"
}

// Plural counts a unit for people: "1 request", "3 requests".
func Plural(n int, unit string) string { return plural(n, unit) }

func plural(n int, unit string) string {
	if n == 1 {
		return "1 " + unit
	}
	return strconv.Itoa(n) + " " + unit + "s"
}

// Years says how many whole years lie between t and now: "12 years",
// "1 year", "less than a year"; "" for the zero time or a future t.
func Years(t, now time.Time) string {
	if t.IsZero() || t.After(now) {
		return ""
	}
	n := now.Year() - t.Year()
	if now.Month() < t.Month() || (now.Month() == t.Month() && now.Day() < t.Day()) {
		n--
	}
	if n < 1 {
		return "less than a year"
	}
	return plural(n, "year")
}

// Clip shortens what a user typed to n runes for quoting it back in a
// message; text that is not UTF-8 is shown as "?".
func Clip(s string, n int) string {
	if !utf8.ValidString(s) {
		return "?"
	}
	if r := []rune(s); len(r) > n {
		return string(r[:n]) + "…"
	}
	return s
}
