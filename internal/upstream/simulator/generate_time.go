package simulator

import "time"

// Layouts of the dates the dataset carries (CONTRACT-CHOICES "Formats").
const (
	// LayoutDateTime is ISO 8601 without a zone, as in "2019-04-01T00:00:00".
	LayoutDateTime = "2006-01-02T15:04:05"
	// LayoutMonth is a reported month, as in "2019-04".
	LayoutMonth = "2006-01"
	// LayoutPubDate is RFC 1123 with the literal zone GMT, as RSS feeds write
	// it; time.RFC1123 would print "UTC" for a UTC time.
	LayoutPubDate = "Mon, 02 Jan 2006 15:04:05 GMT"
)

// genMonth counts months since year 0 (January = 0), so that month
// arithmetic is plain integer arithmetic.
type genMonth int

func genMonthOf(t time.Time) genMonth { return genMonth(t.Year()*12 + int(t.Month()) - 1) }

func (m genMonth) year() int  { return int(m) / 12 }
func (m genMonth) month() int { return int(m)%12 + 1 }

// quarter is a calendar-quarter key (year*4 + quarter-1) shared by the three
// months of the quarter.
func (m genMonth) quarter() int { return int(m) / 3 }

// first is the first instant of the month in UTC.
func (m genMonth) first() time.Time {
	return time.Date(m.year(), time.Month(m.month()), 1, 0, 0, 0, 0, time.UTC)
}

// days is the number of days in the month.
func (m genMonth) days() int { return (m + 1).first().AddDate(0, 0, -1).Day() }

// String is the month as YYYY-MM.
func (m genMonth) String() string { return m.first().Format(LayoutMonth) }

// genAsOfMonth normalises GenerateOptions.AsOf: only year and month count,
// and the zero time means the month before the current one (UTC). This is
// the only place generation reads the clock.
func genAsOfMonth(t time.Time) genMonth {
	if t.IsZero() {
		return genMonthOf(time.Now().UTC()) - 1
	}
	return genMonthOf(t)
}

// genDate is a date-time inside the month: day d (clamped to the month's
// length) at the given seconds after midnight.
func genDate(m genMonth, day, secs int) time.Time {
	day = max(1, min(day, m.days()))
	return m.first().AddDate(0, 0, day-1).Add(time.Duration(secs) * time.Second)
}

// randomDate is a uniformly drawn day between two months (inclusive) at
// midnight, formatted as LayoutDateTime.
func (r *genRand) randomDate(from, to genMonth) time.Time {
	if to < from {
		to = from
	}
	m := from + genMonth(r.intn(int(to-from)+1))
	return genDate(m, 1+r.intn(m.days()), 0)
}

// genParseMonth reads a YYYY-MM month.
func genParseMonth(s string) (genMonth, error) {
	t, err := time.Parse(LayoutMonth, s)
	if err != nil {
		return 0, err
	}
	return genMonthOf(t), nil
}
