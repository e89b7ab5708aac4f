package views

import (
	"strconv"
	"time"
)

// monthIndex counts months from year 0, so month ranges and arithmetic are
// integer ranges and arithmetic.
type monthIndex int

func monthIndexOf(year, month int) monthIndex { return monthIndex(year*12 + month - 1) }

func monthOfTime(t time.Time) monthIndex { return monthIndexOf(t.Year(), int(t.Month())) }

func (m monthIndex) year() int  { return int(m) / 12 }
func (m monthIndex) month() int { return int(m)%12 + 1 }

func (m monthIndex) time() time.Time {
	return time.Date(m.year(), time.Month(m.month()), 1, 0, 0, 0, 0, time.UTC)
}

// String is "Oct 2026".
func (m monthIndex) String() string { return Month(m.year(), m.month()) }

// quarter is "Q4 2026".
func (m monthIndex) quarter() string {
	return "Q" + strconv.Itoa((m.month()-1)/3+1) + " " + strconv.Itoa(m.year())
}

// param is "2026-10", as month parameters are written.
func (m monthIndex) param() string { return m.time().Format("2006-01") }
