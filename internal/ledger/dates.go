package ledger

import (
	"errors"
	"strconv"
	"strings"
	"time"
)

// excelEpoch is the day Excel's serials count from, for every serial
// after 1 March 1900 (its serial 60 is a 29 February 1900 that never was).
var excelEpoch = time.Date(1899, 12, 30, 0, 0, 0, 0, time.UTC)

// errDate is a date that cannot be read.
var errDate = errors.New("is not a date (such as 2026-10-31, 31.10.2026, 10/31/2026 or an Excel date)")

// parseDate reads a document's date: an Excel serial (a number, as a
// workbook stores a date cell, or digits in a CSV), ISO 2026-10-31,
// SAP's 31.10.2026, or a slashed date, the day first when dayFirst. ok is
// false for an empty cell.
func parseDate(s string, dayFirst bool) (time.Time, bool, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return time.Time{}, false, nil
	}
	if f, err := strconv.ParseFloat(s, 64); err == nil {
		// Serials from 1 January 1990 to 31 December 2199.
		if f < 32874 || f > 109574 {
			return time.Time{}, false, errDate
		}
		return excelEpoch.AddDate(0, 0, int(f)), true, nil
	}
	if d, err := time.Parse("2006-01-02", s); err == nil {
		return d, true, nil
	}
	if len(s) > 10 {
		// "2026-10-31T00:00:00" or "10/31/2026 12:00:00 AM"
		if d, err := time.Parse("2006-01-02T15:04:05", s); err == nil {
			return d, true, nil
		}
		s, _, _ = strings.Cut(s, " ")
	}
	sep := ""
	switch {
	case strings.Count(s, ".") == 2:
		sep, dayFirst = ".", true
	case strings.Count(s, "/") == 2:
		sep = "/"
	case strings.Count(s, "-") == 2:
		sep, dayFirst = "-", true
	default:
		return time.Time{}, false, errDate
	}
	p := strings.Split(s, sep)
	a, err1 := strconv.Atoi(p[0])
	b, err2 := strconv.Atoi(p[1])
	y, err3 := strconv.Atoi(p[2])
	if err1 != nil || err2 != nil || err3 != nil {
		return time.Time{}, false, errDate
	}
	if y < 100 {
		y += 2000
	}
	day, month := b, a
	if dayFirst {
		day, month = a, b
	}
	d := time.Date(y, time.Month(month), day, 0, 0, 0, 0, time.UTC)
	if month < 1 || month > 12 || d.Day() != day || y < 1990 || y > 2199 {
		return time.Time{}, false, errDate
	}
	return d, true, nil
}

// DateOrder is the order of a slashed date's day and month: what a file's
// dates show, or what the analyst chose when they show neither.
type DateOrder int

// The orders of a slashed date.
const (
	// OrderUnknown: nothing says; a date that reads two ways is refused.
	OrderUnknown DateOrder = iota
	// DayFirst is 31/10/2026.
	DayFirst
	// MonthFirst is 10/31/2026.
	MonthFirst
)

// errAmbiguousDate is a slashed date that reads as two days (03/04/2026)
// in a file whose dates do not say which comes first.
var errAmbiguousDate = errors.New("could be read day first or month first, and no date of the file says which: choose the order above")

// ambiguousSlash says s is a slashed date that reads as two different
// days: both its first parts are months, and not the same one.
func ambiguousSlash(s string) bool {
	s = strings.TrimSpace(s)
	if len(s) > 10 {
		s, _, _ = strings.Cut(s, " ")
	}
	p := strings.Split(s, "/")
	if len(p) != 3 {
		return false
	}
	a, err1 := strconv.Atoi(p[0])
	b, err2 := strconv.Atoi(p[1])
	return err1 == nil && err2 == nil && a >= 1 && a <= 12 && b >= 1 && b <= 12 && a != b
}

// readDate is parseDate in a file whose slashed dates are in order: with
// OrderUnknown, a date that reads two ways is refused, never guessed, and
// one that reads one way only (the same day and month) is read.
func readDate(s string, order DateOrder) (time.Time, bool, error) {
	if order == OrderUnknown {
		if ambiguousSlash(s) {
			return time.Time{}, false, errAmbiguousDate
		}
		// A date that reads one way only says its own order.
		return parseDate(s, slashOrder(s) == 1)
	}
	return parseDate(s, order == DayFirst)
}

// slashOrder is what a slashed date shows: 1 the day first (31/10/2026),
// 2 the month first (10/31/2026), 0 neither.
func slashOrder(s string) int {
	s = strings.TrimSpace(s)
	if len(s) > 10 {
		s, _, _ = strings.Cut(s, " ")
	}
	p := strings.Split(s, "/")
	if len(p) != 3 {
		return 0
	}
	a, err1 := strconv.Atoi(p[0])
	b, err2 := strconv.Atoi(p[1])
	switch {
	case err1 != nil || err2 != nil:
		return 0
	case a > 12 && b <= 12:
		return 1
	case b > 12 && a <= 12:
		return 2
	}
	return 0
}
