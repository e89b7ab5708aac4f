// Package ledger reads a team's accounts-receivable aging report, as a CSV
// or XLSX file an ERP exports, into ledger lines: it recognises the
// columns by their headers, reads numbers as accountants write them, and
// names every row it refuses with its number and reason. It reads only;
// the store keeps what it finds.
package ledger

import (
	"bytes"
	"context"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"golang.org/x/text/encoding/charmap"

	"creditdash/internal/amount"
)

// Bounds of a file: an import costs what the file holds, not its size.
const (
	// MaxFileBytes is the largest file read: 10 MB.
	MaxFileBytes = 10 << 20
	// MaxRows is how many data rows (accounts, or open items summed per
	// account) a file may have.
	MaxRows = 250000
	// MaxAccounts is how many accounts a file may hold.
	MaxAccounts = 50000
	// MaxColumns is how many columns are read; a value past them refuses
	// the file.
	MaxColumns = 200
	// MaxCellBytes is the longest cell.
	MaxCellBytes = 32 << 10
	// maxFields is how many fields a CSV record may have, empty ones
	// included (an Excel sheet's width).
	maxFields = 16384
	// headerSearch is how many rows the header may follow (the title
	// block of an ERP report).
	headerSearch = 30
)

// Errors that refuse a whole file; their text after "ledger: " is for
// the analyst.
var (
	ErrNotSpreadsheet = errors.New("ledger: the file is neither a CSV file nor an XLSX workbook (an older .xls file can be saved as XLSX or CSV)")
	ErrTooManyRows    = fmt.Errorf("ledger: the file has more than 250,000 rows; split it by customer")
	ErrEmpty          = errors.New("ledger: the file has no rows")
	ErrNoBalance      = errors.New("ledger: no column header names a balance (such as “balance”, “Total Due” or “Remaining Amount”); add one or choose the balance column below")
	ErrTooLarge       = errors.New("ledger: the file is over 10 MB")
	ErrCellTooLarge   = errors.New("ledger: a cell holds more than 32 KB; a ledger's cells are names, numbers and dates")
	ErrSharedStrings  = errors.New("ledger: the workbook's text unpacks to more than 16 MB (or a million strings); save the sheet as CSV, or leave out the columns the import does not read")
	ErrSheetTooLarge  = errors.New("ledger: the sheet unpacks to more than 512 MB of XML; save it as CSV, or leave out the columns the import does not read")
	ErrNesting        = errors.New("ledger: the workbook's XML nests more than 32 levels deep, which no sheet needs")
	ErrDeadline       = errors.New("ledger: the file took too long to read; split it, or save it as CSV")
)

// Table is a file's rows as text, before the columns are interpreted. Its
// rows are not held: Each reads them again from the file (a CSV's text,
// an XLSX's sheet), so a file costs its bytes, not its cells kept as
// strings.
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
	// Decimal is the decimal separator the file's amounts show (Unknown
	// when none shows one); Ambiguous counts the amounts that could be
	// read two ways while it is Unknown: the preview asks.
	Decimal   amount.Convention
	Ambiguous int
	// Dates is the order the file's slashed dates show (15/10/2026 says
	// day first, 10/15/2026 month first), OrderUnknown when none shows
	// one; AmbiguousDates counts the dates that could be read two ways
	// while it is unknown: the preview asks, as for the decimal separator.
	Dates          DateOrder
	AmbiguousDates int
	// text is a CSV's text as UTF-8, wb an XLSX's workbook; skip is how
	// many of their non-blank rows come before the data.
	text []byte
	wb   *workbook
	skip int
	// ctx bounds every read of the file: a preview past its deadline
	// stops.
	ctx context.Context
}

// HeadRows is how many data rows Table.Head keeps.
const HeadRows = 10

// Row is one data row of the file.
type Row struct {
	// Number is the row's number in the file, counting from 1 as a
	// spreadsheet does.
	Number int
	Cells  []string
	// Numeric marks the cells an XLSX stores as numbers (nil for a CSV):
	// they are read as written, whatever the file's decimal separator.
	Numeric []bool
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
// archive), whatever its name says. ctx bounds this read and every later
// one of the table (Each, Parse, Validate).
func Read(ctx context.Context, data []byte) (*Table, error) {
	if len(data) > MaxFileBytes {
		return nil, ErrTooLarge
	}
	switch {
	case len(data) == 0:
		return nil, ErrEmpty
	case bytes.HasPrefix(data, []byte("PK\x03\x04")):
		return readXLSX(ctx, data)
	case bytes.HasPrefix(data, []byte{0xD0, 0xCF, 0x11, 0xE0}) || bytes.IndexByte(data[:min(len(data), 8192)], 0) >= 0:
		// An OLE file (old .xls) or anything with NUL bytes is no CSV.
		return nil, ErrNotSpreadsheet
	}
	return readCSV(ctx, data)
}

// stop is the error that ends a read past its deadline.
func (t *Table) stop() error {
	if t.ctx != nil && t.ctx.Err() != nil {
		return ErrDeadline
	}
	return nil
}

// readCSV decodes the text (UTF-8 with or without BOM, else
// Windows-1252), guesses the delimiter from the first line and reads the
// records through once: to find the header, keep the first rows, count
// the rest and refuse a file that is not CSV or has too many rows.
func readCSV(ctx context.Context, data []byte) (*Table, error) {
	t := &Table{Format: "CSV", Encoding: "UTF-8", ctx: ctx}
	data = bytes.TrimPrefix(data, []byte("\xEF\xBB\xBF"))
	if !utf8.Valid(data) {
		dec, err := charmap.Windows1252.NewDecoder().Bytes(data)
		if err != nil {
			return nil, ErrNotSpreadsheet
		}
		data, t.Encoding = dec, "Windows-1252"
	}
	t.Delimiter, t.text = delimiter(data), data
	if err := checkShape(data, byte(t.Delimiter)); err != nil {
		return nil, err
	}
	sc := newScan()
	err := t.records(0, func(r Row) error {
		if sc.n > MaxRows+headerSearch+1 {
			return ErrTooManyRows
		}
		sc.add(r)
		if sc.n%1024 == 0 {
			return t.stop()
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return sc.finish(t)
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
		// checkShape refused a value past MaxColumns: what is past
		// them is empty.
		if len(rec) > MaxColumns {
			rec = rec[:MaxColumns]
		}
		if err := fn(Row{Number: line, Cells: rec}); err != nil {
			return err
		}
	}
}

// Each calls fn with every data row in file order, stopping at fn's
// first error. A row's Cells are valid only during the call.
func (t *Table) Each(fn func(Row) error) error {
	if t.wb != nil {
		skip, n := t.skip, 0
		return t.wb.rows(t.stop, func(r Row) error {
			if skip > 0 {
				skip--
				return nil
			}
			if n++; n%1024 == 0 {
				if err := t.stop(); err != nil {
					return err
				}
			}
			return fn(r)
		})
	}
	n := 0
	return t.records(t.skip, func(r Row) error {
		if n++; n%1024 == 0 {
			if err := t.stop(); err != nil {
				return err
			}
		}
		return fn(r)
	})
}

// delimiter is whichever of ; , and tab the first lines hold most of on
// one line, outside quotes (the header's line, under a title block that
// holds none); a comma when they hold none.
func delimiter(data []byte) rune {
	most := map[rune]int{}
	counts := map[rune]int{}
	quoted, lines := false, 0
scan:
	for _, b := range string(data[:min(len(data), 64<<10)]) {
		switch {
		case b == '"':
			quoted = !quoted
		case !quoted && (b == ';' || b == ',' || b == '\t'):
			counts[b]++
		case !quoted && b == '\n':
			for d, n := range counts {
				most[d] = max(most[d], n)
			}
			clear(counts)
			if lines++; lines == headerSearch {
				break scan
			}
		}
	}
	for d, n := range counts {
		most[d] = max(most[d], n)
	}
	best := ','
	for _, d := range []rune{';', '\t'} {
		if most[d] > most[best] {
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
