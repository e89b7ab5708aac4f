// Package xlsx writes a one-sheet workbook to a stream, a row at a time:
// nothing of the sheet is kept once written, so a download of the team's
// 50,000 accounts costs the same memory as one of ten.
package xlsx

import (
	"archive/zip"
	"bufio"
	"encoding/xml"
	"errors"
	"io"
	"math"
	"strconv"
)

// Writer writes the rows of the workbook's only sheet, "Sheet1". Strings
// are inline text cells (never formulas), numbers are number cells and a
// nil is an empty cell.
type Writer struct {
	zw    *zip.Writer
	sheet *bufio.Writer
	rows  int
	err   error
}

// The fixed parts of the package, written before the sheet.
var parts = []struct{ name, body string }{
	{"[Content_Types].xml", xml.Header + `<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">` +
		`<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>` +
		`<Default Extension="xml" ContentType="application/xml"/>` +
		`<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>` +
		`<Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>` +
		`<Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/>` +
		`</Types>`},
	{"_rels/.rels", xml.Header + `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">` +
		`<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/>` +
		`</Relationships>`},
	{"xl/workbook.xml", xml.Header + `<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships">` +
		`<sheets><sheet name="Sheet1" sheetId="1" r:id="rId1"/></sheets></workbook>`},
	{"xl/_rels/workbook.xml.rels", xml.Header + `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">` +
		`<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/>` +
		`<Relationship Id="rId2" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles" Target="styles.xml"/>` +
		`</Relationships>`},
	// The smallest style sheet spreadsheet programs accept without a repair.
	{"xl/styles.xml", xml.Header + `<styleSheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">` +
		`<fonts count="1"><font><sz val="11"/><name val="Calibri"/></font></fonts>` +
		`<fills count="2"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill></fills>` +
		`<borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders>` +
		`<cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs>` +
		`<cellXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/></cellXfs>` +
		`<cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles>` +
		`</styleSheet>`},
}

// NewWriter starts a workbook on w: the package's fixed parts, then the
// sheet's opening, so each Row goes out compressed as it is written.
func NewWriter(w io.Writer) (*Writer, error) {
	zw := zip.NewWriter(w)
	for _, p := range parts {
		f, err := zw.Create(p.name)
		if err != nil {
			return nil, err
		}
		if _, err := io.WriteString(f, p.body); err != nil {
			return nil, err
		}
	}
	f, err := zw.Create("xl/worksheets/sheet1.xml")
	if err != nil {
		return nil, err
	}
	x := &Writer{zw: zw, sheet: bufio.NewWriter(f)}
	x.str(xml.Header + `<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>`)
	return x, x.err
}

// MaxRows is the most rows a sheet holds.
const MaxRows = 1 << 20

// errTooManyRows refuses a row past the sheet's last.
var errTooManyRows = errors.New("xlsx: more than 1,048,576 rows")

// Row writes the next row. A cell is a string, a float64, an int, an
// int64 or nil; a number that is not finite is written as text.
func (x *Writer) Row(cells []any) error {
	if x.err != nil {
		return x.err
	}
	if x.rows++; x.rows > MaxRows {
		x.err = errTooManyRows
		return x.err
	}
	row := strconv.Itoa(x.rows)
	x.str(`<row r="` + row + `">`)
	for i, v := range cells {
		ref := Column(i+1) + row
		switch v := v.(type) {
		case nil:
		case float64:
			if math.IsNaN(v) || math.IsInf(v, 0) {
				x.text(ref, strconv.FormatFloat(v, 'g', -1, 64))
				continue
			}
			x.str(`<c r="` + ref + `"><v>` + strconv.FormatFloat(v, 'g', -1, 64) + `</v></c>`)
		case int:
			x.str(`<c r="` + ref + `"><v>` + strconv.Itoa(v) + `</v></c>`)
		case int64:
			x.str(`<c r="` + ref + `"><v>` + strconv.FormatInt(v, 10) + `</v></c>`)
		case string:
			x.text(ref, v)
		default:
			x.err = errors.New("xlsx: a cell of an unknown type")
		}
	}
	x.str(`</row>`)
	return x.err
}

// text writes an inline string cell; XML escaping also replaces the
// control characters XML cannot hold.
func (x *Writer) text(ref, s string) {
	x.str(`<c r="` + ref + `" t="inlineStr"><is><t xml:space="preserve">`)
	if x.err == nil {
		x.err = xml.EscapeText(x.sheet, []byte(s))
	}
	x.str(`</t></is></c>`)
}

// str writes raw XML, keeping the first error.
func (x *Writer) str(s string) {
	if x.err == nil {
		_, x.err = x.sheet.WriteString(s)
	}
}

// Flush sends what the compressor can give of the rows written so far,
// for a download to move on between batches.
func (x *Writer) Flush() error {
	if x.err == nil {
		x.err = x.sheet.Flush()
	}
	if x.err == nil {
		x.err = x.zw.Flush()
	}
	return x.err
}

// Close ends the sheet and the package; the workbook is whole only once
// Close returned nil.
func (x *Writer) Close() error {
	x.str(`</sheetData></worksheet>`)
	if x.err == nil {
		x.err = x.sheet.Flush()
	}
	if x.err == nil {
		x.err = x.zw.Close()
	}
	return x.err
}

// Column is a column's letters: 1 is A, 27 is AA.
func Column(n int) string {
	var b []byte
	for ; n > 0; n = (n - 1) / 26 {
		b = append([]byte{byte('A' + (n-1)%26)}, b...)
	}
	return string(b)
}
