// Package ledger reads a team's accounts-receivable aging report, as a CSV
// or XLSX file an ERP exports, into ledger lines: it recognises the
// columns by their headers, reads numbers as accountants write them, and
// names every row it refuses with its number and reason. It reads only;
// the store keeps what it finds.
package ledger

import (
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"unicode/utf8"

	"golang.org/x/text/encoding/charmap"
)

// Bounds of a file.
const (
	// MaxFileBytes is the largest file read: 10 MB.
	MaxFileBytes = 10 << 20
	// MaxRows is how many data rows a file may have.
	MaxRows = 50000
	// headerSearch is how many rows the header may follow (a title line
	// or two above it, as ERP reports print).
	headerSearch = 20
)

// Errors that refuse a whole file; their text after "ledger: " is for
// the analyst.
var (
	ErrNotSpreadsheet = errors.New("ledger: the file is neither a CSV file nor an XLSX workbook (an older .xls file can be saved as XLSX or CSV)")
	ErrTooManyRows    = fmt.Errorf("ledger: the file has more than 50,000 rows; split it or import the accounts with a balance only")
	ErrEmpty          = errors.New("ledger: the file has no rows")
	ErrNoBalance      = errors.New("ledger: no column header names a balance (such as “balance” or “Total Due”); add one or choose the balance column below")
	ErrTooLarge       = errors.New("ledger: the file is over 10 MB")
)

// Table is a file's rows as text, before the columns are interpreted. A
// CSV's rows are not held: Each reads them again from the file's text, so
// a 50,000-row file costs its bytes, not 550,000 cells kept as strings.
type Table struct {
	// Format is "CSV" or "XLSX"; Encoding and Delimiter describe a CSV.
	Format    string
	Encoding  string
	Delimiter rune
	// Header is the row recognised as the header; HeaderRow its number.
	Header    []string
	HeaderRow int
	// Head is the first HeadRows data rows, as the preview shows them.
	Head []Row
	// Count is how many data rows the file has.
	Count int
	// text is a CSV's text as UTF-8, skip how many of its non-blank
	// records come before the data; rows are an XLSX's data rows.
	text []byte
	skip int
	rows []Row
}

// HeadRows is how many data rows Table.Head keeps.
const HeadRows = 10

// Row is one data row of the file.
type Row struct {
	// Number is the row's number in the file, counting from 1 as a
	// spreadsheet does.
	Number int
	Cells  []string
	// Formula names the column of the row's first formula cell, "" when
	// it has none. Formulas are never evaluated: the row is refused.
	Formula string
}

// Cell is the row's cell of column i, "" past its end.
func (r Row) Cell(i int) string {
	if i < 0 || i >= len(r.Cells) {
		return ""
	}
	return r.Cells[i]
}

// Read reads a CSV or XLSX file by its content (an XLSX is a zip
// archive), whatever its name says.
func Read(data []byte) (*Table, error) {
	if len(data) > MaxFileBytes {
		return nil, ErrTooLarge
	}
	switch {
	case len(data) == 0:
		return nil, ErrEmpty
	case bytes.HasPrefix(data, []byte("PK\x03\x04")):
		return readXLSX(data)
	case bytes.HasPrefix(data, []byte{0xD0, 0xCF, 0x11, 0xE0}) || bytes.IndexByte(data[:min(len(data), 8192)], 0) >= 0:
		// An OLE file (old .xls) or anything with NUL bytes is no CSV.
		return nil, ErrNotSpreadsheet
	}
	return readCSV(data)
}

// readCSV decodes the text (UTF-8 with or without BOM, else
// Windows-1252), guesses the delimiter from the first line and reads the
// records through once: to find the header, keep the first rows, count
// the rest and refuse a file that is not CSV or has too many rows.
func readCSV(data []byte) (*Table, error) {
	t := &Table{Format: "CSV", Encoding: "UTF-8"}
	data = bytes.TrimPrefix(data, []byte("\xEF\xBB\xBF"))
	if !utf8.Valid(data) {
		dec, err := charmap.Windows1252.NewDecoder().Bytes(data)
		if err != nil {
			return nil, ErrNotSpreadsheet
		}
		data, t.Encoding = dec, "Windows-1252"
	}
	t.Delimiter, t.text = delimiter(data), data
	// The header is among the first headerSearch rows and the preview
	// shows HeadRows after it: only those are kept.
	var first []Row
	n := 0
	err := t.records(0, func(r Row) error {
		n++
		if n > MaxRows+headerSearch+1 {
			return ErrTooManyRows
		}
		if len(first) < headerSearch+HeadRows {
			first = append(first, Row{Number: r.Number, Cells: slices.Clone(r.Cells)})
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return t.withHeader(first, n)
}

// records calls fn with each non-blank record of the CSV text after the
// first skip, its cells trimmed. The cells are reused for the next
// record: fn copies what it keeps.
func (t *Table) records(skip int, fn func(Row) error) error {
	r := csv.NewReader(bytes.NewReader(t.text))
	r.Comma = t.Delimiter
	r.FieldsPerRecord = -1
	r.LazyQuotes = true
	r.ReuseRecord = true
	for {
		rec, err := r.Read()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			line, _ := r.FieldPos(0)
			return fmt.Errorf("ledger: row %d cannot be read as CSV: %w", line, errors.Unwrap(err))
		}
		line, _ := r.FieldPos(0)
		if blank(rec) {
			continue
		}
		if skip > 0 {
			skip--
			continue
		}
		for i := range rec {
			rec[i] = strings.TrimSpace(rec[i])
		}
		if err := fn(Row{Number: line, Cells: rec}); err != nil {
			return err
		}
	}
}

// Each calls fn with every data row in file order, stopping at fn's
// first error. A row's Cells are valid only during the call.
func (t *Table) Each(fn func(Row) error) error {
	if t.text == nil {
		for _, r := range t.rows {
			if err := fn(r); err != nil {
				return err
			}
		}
		return nil
	}
	return t.records(t.skip, fn)
}

// delimiter is whichever of ; , and tab the first line holds most of,
// outside quotes; a comma when it holds none.
func delimiter(data []byte) rune {
	first := data
	if i := bytes.IndexByte(data, '\n'); i >= 0 {
		first = data[:i]
	}
	counts := map[rune]int{}
	quoted := false
	for _, b := range string(first) {
		switch {
		case b == '"':
			quoted = !quoted
		case !quoted && (b == ';' || b == ',' || b == '\t'):
			counts[b]++
		}
	}
	best := ','
	for _, d := range []rune{';', '\t'} {
		if counts[d] > counts[best] {
			best = d
		}
	}
	return best
}

// blank reports a row of empty cells (the blank rows exports end with).
func blank(cells []string) bool {
	for _, c := range cells {
		if strings.TrimSpace(c) != "" {
			return false
		}
	}
	return true
}

// withHeader finds the header among the first rows: the first that names
// a balance, else the first row. first are the file's first non-blank
// rows (all of an XLSX's), n how many it has in all.
func (t *Table) withHeader(first []Row, n int) (*Table, error) {
	if n == 0 {
		return nil, ErrEmpty
	}
	h := 0
	for i := range min(len(first), headerSearch) {
		if Recognise(first[i].Cells).Has(Balance) {
			h = i
			break
		}
	}
	t.Header, t.HeaderRow, t.skip, t.Count = first[h].Cells, first[h].Number, h+1, n-h-1
	if t.Count > MaxRows {
		return nil, ErrTooManyRows
	}
	t.Head = first[h+1 : min(len(first), h+1+HeadRows)]
	if t.text == nil {
		t.rows = first[h+1:]
	}
	return t, nil
}
