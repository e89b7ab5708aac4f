package ledger

import (
	"archive/zip"
	"bufio"
	"bytes"
	"encoding/xml"
	"errors"
	"io"
	"strconv"
	"strings"
)

// A workbook is read by streaming its first sheet's XML, never as a
// grid: a cell is placed by its reference, so a row whose last cell sits
// at column XFD costs that one cell, not 16,384 (issue 47). excelize's
// row iterator pads every row to its last cell and keeps the whole shared
// string table without a bound, so the sheet is read here with
// encoding/xml.

// Bounds of a workbook's parts.
const (
	// maxSharedText is how much text the shared strings may hold in all.
	maxSharedText = 16 << 20
	// maxSharedStrings is how many shared strings a workbook may have.
	maxSharedStrings = 1 << 20
	// maxSheetXML is how much XML the sheet may unpack to.
	maxSheetXML = 512 << 20
	// maxDepth is how deeply the XML may nest; a sheet needs 7 levels.
	maxDepth = 32
	// maxToken is the longest piece of XML read at once (a cell's text
	// and its markup).
	maxToken = MaxCellBytes + 16<<10
)

// workbook is an XLSX file's parts the reader needs.
type workbook struct {
	sheet  *zip.File
	shared sharedStrings
}

// sharedStrings is the table of text cells refer to by index: one buffer
// and the offsets into it.
type sharedStrings struct {
	text []byte
	ends []uint32
}

// at is the i-th shared string; ok is false past the table.
func (s *sharedStrings) at(i int) (string, bool) {
	if i < 0 || i >= len(s.ends) {
		return "", false
	}
	start := uint32(0)
	if i > 0 {
		start = s.ends[i-1]
	}
	return string(s.text[start:s.ends[i]]), true
}

// openWorkbook finds the first sheet and reads the shared strings,
// refusing what passes a bound.
func openWorkbook(data []byte) (*workbook, error) {
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		return nil, ErrNotSpreadsheet
	}
	name, err := firstSheetPath(zr)
	if err != nil {
		return nil, ErrNotSpreadsheet
	}
	wb := &workbook{}
	for _, f := range zr.File {
		switch f.Name {
		case name:
			wb.sheet = f
		case "xl/sharedStrings.xml":
			if err := wb.shared.read(f); err != nil {
				return nil, err
			}
		}
	}
	if wb.sheet == nil {
		return nil, ErrNotSpreadsheet
	}
	return wb, nil
}

// read reads the shared strings as a stream: the text of each <si>'s <t>
// elements (runs included, phonetic hints left out).
func (s *sharedStrings) read(f *zip.File) error {
	rc, err := f.Open()
	if err != nil {
		return ErrNotSpreadsheet
	}
	defer rc.Close()
	// Grown by append, the text would be copied a dozen times on its way
	// to its bound; the part's size (which the archive may misstate) is
	// a better first guess.
	s.text = make([]byte, 0, min(f.UncompressedSize64, maxSharedText))
	dec, br := newDecoder(rc, maxSheetXML)
	var inSI, inT bool
	skip, depth := 0, 0
	start := len(s.text)
	for {
		tok, err := dec.RawToken()
		br.mark = dec.InputOffset()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return xmlError(err)
		}
		switch t := tok.(type) {
		case xml.StartElement:
			if depth++; depth > maxDepth {
				return ErrNesting
			}
			switch {
			case t.Name.Local == "si":
				inSI, start = true, len(s.text)
			case t.Name.Local == "rPh" || t.Name.Local == "phoneticPr":
				skip++
			case t.Name.Local == "t" && inSI && skip == 0:
				inT = true
			}
		case xml.EndElement:
			depth--
			switch t.Name.Local {
			case "si":
				if len(s.ends) >= maxSharedStrings {
					return ErrSharedStrings
				}
				if len(s.text)-start > MaxCellBytes {
					return ErrCellTooLarge
				}
				inSI = false
				s.ends = append(s.ends, uint32(len(s.text)))
			case "rPh", "phoneticPr":
				skip--
			case "t":
				inT = false
			}
		case xml.CharData:
			if inT {
				if len(s.text)+len(t) > maxSharedText {
					return ErrSharedStrings
				}
				s.text = append(s.text, t...)
			}
		}
	}
}

// boundedReader stops a decoder that reads too much in all, or too much
// since the end of its last token (a cell's text a megabyte long).
type boundedReader struct {
	r          io.Reader
	n, mark    int64
	limit, tok int64
}

// errTokenTooLarge and errXMLTooLarge are the reader's refusals.
var (
	errTokenTooLarge = errors.New("ledger: token too large")
	errXMLTooLarge   = errors.New("ledger: xml too large")
)

func (b *boundedReader) Read(p []byte) (int, error) {
	switch {
	case b.n-b.mark > b.tok:
		return 0, errTokenTooLarge
	case b.n > b.limit:
		return 0, errXMLTooLarge
	}
	n, err := b.r.Read(p)
	b.n += int64(n)
	return n, err
}

// newDecoder reads r through a boundedReader; the caller sets the
// reader's mark to the decoder's offset after each token.
func newDecoder(r io.Reader, limit int64) (*xml.Decoder, *boundedReader) {
	br := &boundedReader{r: r, limit: limit, tok: maxToken}
	dec := xml.NewDecoder(bufio.NewReaderSize(br, 4096))
	dec.Strict = true
	return dec, br
}

// xmlError turns a reader's refusal into the file's.
func xmlError(err error) error {
	switch {
	case errors.Is(err, errTokenTooLarge):
		return ErrCellTooLarge
	case errors.Is(err, errXMLTooLarge):
		return ErrSheetTooLarge
	}
	return ErrNotSpreadsheet
}

// cellKind is what a cell holds.
type cellKind uint8

const (
	kindText cellKind = iota
	kindNumber
	kindFormula // a formula without a value stored
)

// rows streams the sheet's non-blank rows to fn, cells placed by their
// references in a reused slice of at most MaxColumns; a non-empty cell
// past that is refused. A row's Cells and Numeric are valid only during
// the call. stop is checked every few hundred rows.
func (wb *workbook) rows(stop func() error, fn func(Row) error) error {
	rc, err := wb.sheet.Open()
	if err != nil {
		return ErrNotSpreadsheet
	}
	defer rc.Close()
	dec, br := newDecoder(rc, maxSheetXML)
	var (
		cells   = make([]string, 0, 32)
		numeric = make([]bool, 0, 32)
		text    []byte
		row     Row
		rowNum  int
		col     int
		typ     string
		inV     bool
		inT     bool
		hasF    bool
		hasV    bool
		depth   int
		read    int
	)
	for {
		tok, err := dec.RawToken()
		br.mark = dec.InputOffset()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return xmlError(err)
		}
		switch t := tok.(type) {
		case xml.StartElement:
			if depth++; depth > maxDepth {
				return ErrNesting
			}
			switch t.Name.Local {
			case "row":
				rowNum++
				if r, ok := atoi(attr(t, "r")); ok {
					rowNum = r
				}
				cells, numeric, col = cells[:0], numeric[:0], 0
				row = Row{Number: rowNum}
			case "c":
				col++
				if ref := attr(t, "r"); ref != "" {
					c, ok := refColumn(ref)
					if !ok {
						return ErrNotSpreadsheet
					}
					col = c
				}
				typ, text, hasF, hasV = attr(t, "t"), text[:0], false, false
			case "v":
				inV, hasV = true, true
			case "t":
				inT = true
			case "f":
				hasF = true
			}
		case xml.CharData:
			if inV || inT {
				text = append(text, t...)
			}
		case xml.EndElement:
			depth--
			switch t.Name.Local {
			case "v":
				inV = false
			case "t":
				inT = false
			case "c":
				v, kind, err := wb.cellValue(typ, text, hasF, hasV)
				if err != nil {
					return err
				}
				if v == "" && kind != kindFormula {
					continue
				}
				if col > MaxColumns {
					return &ColumnsError{Row: rowNum, Column: columnName(col)}
				}
				for len(cells) < col {
					cells, numeric = append(cells, ""), append(numeric, false)
				}
				cells[col-1], numeric[col-1] = strings.TrimSpace(v), kind == kindNumber
				if kind == kindFormula || hasF {
					if row.Formula == "" {
						row.Formula = columnName(col)
					}
				}
			case "row":
				if len(cells) == 0 && row.Formula == "" {
					continue
				}
				if read++; read%512 == 0 {
					if err := stop(); err != nil {
						return err
					}
				}
				row.Cells, row.Numeric = cells, numeric
				if err := fn(row); err != nil {
					return err
				}
			}
		}
	}
}

// cellValue is a cell's text as stored: a shared string looked up, a
// number as written, a boolean as TRUE or FALSE. A formula's cached value
// is kept (the row is refused for it anyway); a formula without one is
// kindFormula.
func (wb *workbook) cellValue(typ string, text []byte, hasF, hasV bool) (string, cellKind, error) {
	if hasF && !hasV {
		return "", kindFormula, nil
	}
	switch typ {
	case "s":
		i, ok := atoi(strings.TrimSpace(string(text)))
		s, found := wb.shared.at(i)
		if !ok || !found {
			return "", kindText, ErrNotSpreadsheet
		}
		return s, kindText, nil
	case "b":
		if string(text) == "1" {
			return "TRUE", kindText, nil
		}
		return "FALSE", kindText, nil
	case "", "n":
		return string(text), kindNumber, nil
	}
	return string(text), kindText, nil
}

// refColumn is a cell reference's column number ("AB12" is 28), refusing
// past XFD.
func refColumn(ref string) (int, bool) {
	col := 0
	for i := 0; i < len(ref); i++ {
		c := ref[i] | 0x20
		if c < 'a' || c > 'z' {
			if i == 0 {
				return 0, false
			}
			break
		}
		col = col*26 + int(c-'a'+1)
		if col > 16384 {
			return 0, false
		}
	}
	return col, col > 0
}

// ColumnsError refuses a file with a value past MaxColumns.
type ColumnsError struct {
	Row    int
	Column string
}

func (e *ColumnsError) Error() string {
	return "ledger: row " + strconv.Itoa(e.Row) + " has a value in column " + e.Column +
		"; at most " + strconv.Itoa(MaxColumns) + " columns are read (delete the columns the import does not need)"
}
