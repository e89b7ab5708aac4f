package policy

import "math"

// Book gathers month-end lines by account number into a History.
type Book struct {
	h     History
	index map[string]int32
}

// NewBook starts a history of consecutive months (YYYYMM), oldest
// first.
func NewBook(months []int) *Book {
	return &Book{h: History{Months: months, Lines: make([][]Line, len(months))}, index: map[string]int32{}}
}

// Blank is a line with nothing known but its account: amounts zero,
// limit, Z″ and scores missing.
func Blank() Line {
	return Line{Limit: math.NaN(), Z: float32(math.NaN()), Risk: Missing, Pay: Missing, DBT: -1}
}

// Add lists account's line l at month index m (l.Account is set here).
func (b *Book) Add(m int, account string, l Line) {
	a, ok := b.index[account]
	if !ok {
		a = int32(len(b.h.Accounts))
		b.index[account] = a
		b.h.Accounts = append(b.h.Accounts, account)
	}
	l.Account = a
	b.h.Lines[m] = append(b.h.Lines[m], l)
}

// History is what was added.
func (b *Book) History() *History { return &b.h }
