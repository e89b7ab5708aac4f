package ledger

import (
	"slices"

	"creditdash/internal/amount"
)

// scan gathers, on Read's one pass, the title block and first rows (to
// find the header), the count of data rows, and the file's own evidence
// of its conventions: which separator its amounts use, and whether its
// slashed dates put the day first.
type scan struct {
	first   []Row
	header  int // index in first, -1 until decided
	amounts []int
	dates   []int
	n       int
	// point and comma count amounts that show each convention,
	// ambiguous those that show none but could be read two ways.
	point, comma, ambiguous int
	// dayFirst and monthFirst count slashed dates that show each order,
	// twoWays those that read as two different days.
	dayFirst, monthFirst, twoWays int
}

func newScan() *scan { return &scan{header: -1} }

// add takes the next non-blank row; r's cells are valid only during the
// call.
func (s *scan) add(r Row) {
	s.n++
	if s.header < 0 {
		s.first = append(s.first, Row{Number: r.Number, Cells: slices.Clone(r.Cells), Numeric: slices.Clone(r.Numeric), Formula: r.Formula})
		if len(s.first) == headerSearch {
			s.decide()
		}
		return
	}
	if len(s.first) < s.header+1+HeadRows {
		s.first = append(s.first, Row{Number: r.Number, Cells: slices.Clone(r.Cells), Numeric: slices.Clone(r.Numeric), Formula: r.Formula})
	}
	s.look(r)
}

// decide picks the header and looks at the rows kept after it.
func (s *scan) decide() {
	s.header = headerIndex(s.first)
	m := Recognise(s.first[s.header].Cells)
	for i, f := range m {
		switch {
		case f == Balance || f == Limit || f.bucket():
			s.amounts = append(s.amounts, i)
		case f == DueDate || f == DocDate:
			s.dates = append(s.dates, i)
		}
	}
	for _, r := range s.first[s.header+1:] {
		s.look(r)
	}
}

// look counts one data row's evidence.
func (s *scan) look(r Row) {
	for _, i := range s.amounts {
		if i >= len(r.Cells) || r.Cells[i] == "" || (i < len(r.Numeric) && r.Numeric[i]) {
			continue
		}
		switch amount.Evidence(r.Cells[i]) {
		case amount.Point:
			s.point++
		case amount.Comma:
			s.comma++
		default:
			if _, _, err := amount.InFile(r.Cells[i], amount.Unknown); err != nil && isAmbiguous(err) {
				s.ambiguous++
			}
		}
	}
	for _, i := range s.dates {
		if i < len(r.Cells) {
			switch slashOrder(r.Cells[i]) {
			case 1:
				s.dayFirst++
			case 2:
				s.monthFirst++
			default:
				if ambiguousSlash(r.Cells[i]) {
					s.twoWays++
				}
			}
		}
	}
}

// finish sets the table's header, head, count and conventions.
func (s *scan) finish(t *Table) (*Table, error) {
	if s.n == 0 {
		return nil, ErrEmpty
	}
	if s.header < 0 {
		s.decide()
	}
	h := s.header
	t.Header, t.HeaderRow, t.skip, t.Count = s.first[h].Cells, s.first[h].Number, h+1, s.n-h-1
	if t.Count > MaxRows {
		return nil, ErrTooManyRows
	}
	t.Head = s.first[h+1 : min(len(s.first), h+1+HeadRows)]
	switch {
	case s.point > s.comma:
		t.Decimal = amount.Point
	case s.comma > s.point:
		t.Decimal = amount.Comma
	case s.point > 0: // as many of each: the file does not say
		t.Ambiguous = s.point + s.comma
	}
	if t.Decimal == amount.Unknown {
		t.Ambiguous += s.ambiguous
	}
	// The file's own dates decide when they say; when they say nothing,
	// or as much for each order, the preview asks.
	switch {
	case s.dayFirst > s.monthFirst:
		t.Dates = DayFirst
	case s.monthFirst > s.dayFirst:
		t.Dates = MonthFirst
	default:
		t.AmbiguousDates = s.twoWays + s.dayFirst + s.monthFirst
	}
	return t, nil
}
