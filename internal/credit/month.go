package credit

// MonthIndex counts months from year 0, so that month ranges and
// arithmetic are integer ranges and arithmetic.
type MonthIndex int

// MonthOf is the index of a month (1-12) of a year.
func MonthOf(year, month int) MonthIndex { return MonthIndex(year*12 + month - 1) }

// Year is the month's year.
func (m MonthIndex) Year() int { return int(m) / 12 }

// Month is the month of its year, 1-12.
func (m MonthIndex) Month() int { return int(m)%12 + 1 }
