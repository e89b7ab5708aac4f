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

// Table is a file's rows as text, before the columns are interpreted.
type Table struct {
	// Format is "CSV" or "XLSX"; Encoding and Delimiter describe a CSV.
	Format    string
	Encoding  string
	Delimiter rune
	// Header is the row recognised as the header; HeaderRow its number.
	Header    []string
	HeaderRow int
	Rows      []Row
}

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
// records.
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
	t.Delimiter = delimiter(data)
	r := csv.NewReader(bytes.NewReader(data))
	r.Comma = t.Delimiter
	r.FieldsPerRecord = -1
	r.LazyQuotes = true
	var rows []Row
	for {
		rec, err := r.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			line, _ := r.FieldPos(0)
			return nil, fmt.Errorf("ledger: row %d cannot be read as CSV: %w", line, errors.Unwrap(err))
		}
		line, _ := r.FieldPos(0)
		if blank(rec) {
			continue
		}
		if len(rows) > MaxRows+headerSearch {
			return nil, ErrTooManyRows
		}
		for i := range rec {
			rec[i] = strings.TrimSpace(rec[i])
		}
		rows = append(rows, Row{Number: line, Cells: rec})
	}
	return t.withHeader(rows)
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
// a balance, else the first row.
func (t *Table) withHeader(rows []Row) (*Table, error) {
	if len(rows) == 0 {
		return nil, ErrEmpty
	}
	h := 0
	for i := range min(len(rows), headerSearch) {
		if Recognise(rows[i].Cells).Has(Balance) {
			h = i
			break
		}
	}
	t.Header, t.HeaderRow, t.Rows = rows[h].Cells, rows[h].Number, rows[h+1:]
	if len(t.Rows) > MaxRows {
		return nil, ErrTooManyRows
	}
	return t, nil
}
