package views

import (
	"strconv"

	"creditdash/internal/ledger"
)

// AccountsImportPage is the ledger import: the upload form and, once a
// file is read, its preview.
type AccountsImportPage struct {
	Base
	// AsOf is the date typed (YYYY-MM-DD); AsOfError says why it is
	// refused.
	AsOf      string
	AsOfError string
	// FileError says why the file is refused whole.
	FileError string
	// Samples are the shipped sample ledgers offered in demo mode.
	Samples []SampleLedger
	// History is the demo ledger history's button label, in demo mode.
	History string
	Preview *ImportPreview
}

// SampleLedger is one sample ledger the import page offers.
type SampleLedger struct {
	Name  string
	Label string
	AsOf  string
}

// ImportPreview is what an import would do, before it does it.
type ImportPreview struct {
	Token    string
	File     string
	Format   string
	Encoding string
	// HeaderRow is the row the headers were read from.
	HeaderRow int
	Columns   []ImportColumn
	Fields    []ImportField
	// Head is the file's first data rows as read.
	Head []ImportRow
	// Rows is how many data rows the file has; Valid how many would be
	// imported.
	Rows, Valid int
	Bad         []ledger.Problem
	// BadMore is how many refused rows are not listed.
	BadMore      int
	NoAging      bool
	MappingError string
	// CanImport is false when nothing could be imported.
	CanImport bool
}

// ImportColumn is one column of the file and the field it is read as.
type ImportColumn struct {
	Index  int
	Header string
	Field  string
}

// Name is the column's form field.
func (c ImportColumn) Name() string { return "map_" + strconv.Itoa(c.Index) }

// ID is the column's select's id.
func (c ImportColumn) ID() string { return "map-" + strconv.Itoa(c.Index) }

// ImportField is one choice of a column's field.
type ImportField struct {
	Value, Label string
}

// ImportRow is one data row as the file holds it.
type ImportRow struct {
	Number int
	Cells  []string
	// Problem is why the row would be refused, "" when it would not.
	Problem string
}

// maxBadListed bounds the refused rows the preview lists.
const maxBadListed = 1000

// previewHead is how many data rows the preview shows (at most the
// ledger.HeadRows a table keeps).
const previewHead = ledger.HeadRows

// NewImportPreview describes what importing t through m would do.
// mapErr is why the mapping cannot be used, in the analyst's words.
func NewImportPreview(token, file string, t *ledger.Table, m ledger.Mapping, mapErr string) *ImportPreview {
	p := &ImportPreview{Token: token, File: Clip(file, 120), Format: t.Format, Encoding: t.Encoding, HeaderRow: t.HeaderRow, Rows: t.Count}
	if t.Format == "CSV" {
		p.Format += ", " + map[rune]string{',': "comma", ';': "semicolon", '\t': "tab"}[t.Delimiter] + " separated"
	}
	p.Fields = append(p.Fields, ImportField{Value: "", Label: ledger.Ignore.Label()})
	for _, f := range ledger.Fields {
		p.Fields = append(p.Fields, ImportField{Value: string(f), Label: f.Label()})
	}
	for i, hdr := range t.Header {
		f := ledger.Ignore
		if i < len(m) {
			f = m[i]
		}
		p.Columns = append(p.Columns, ImportColumn{Index: i, Header: Clip(hdr, 60), Field: string(f)})
	}
	head := t.Head[:min(len(t.Head), previewHead)]
	// Only the shown rows' reasons are looked up.
	bad, lastShown := map[int]string{}, 0
	if len(head) > 0 {
		lastShown = head[len(head)-1].Number
	}
	if mapErr != "" {
		p.MappingError = mapErr
	} else {
		res := ledger.Validate(t, m)
		p.Valid, p.NoAging, p.CanImport = res.Valid, res.NoAging, res.Valid > 0
		for i, b := range res.Bad {
			if b.Row <= lastShown {
				bad[b.Row] = b.Reason
			}
			if i < maxBadListed {
				p.Bad = append(p.Bad, b)
			}
		}
		p.BadMore = max(len(res.Bad)-maxBadListed, 0)
	}
	for _, r := range head {
		row := ImportRow{Number: r.Number, Problem: bad[r.Number]}
		for i := range t.Header {
			row.Cells = append(row.Cells, Clip(r.Cell(i), 60))
		}
		p.Head = append(p.Head, row)
	}
	return p
}
