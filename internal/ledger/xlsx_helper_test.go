package ledger

import (
	"archive/zip"
	"bytes"
	"fmt"
	"html"
	"io"
	"strconv"
	"strings"
	"testing"
)

// xc is one cell of a workbook the tests write: text (a shared string),
// a number, or a formula with or without its cached value.
type xc struct {
	text    string
	num     *float64
	formula string
	cached  *float64
	ref     string // its reference, when not the next column's
}

func tx(s string) xc             { return xc{text: s} }
func nm(v float64) xc            { return xc{num: &v} }
func fx(f string, v *float64) xc { return xc{formula: f, cached: v} }
func at(ref string, c xc) xc     { c.ref = ref; return c }
func fp(v float64) *float64      { return &v }
func blankRow() []xc             { return nil }
func textRow(cells ...string) []xc {
	out := make([]xc, len(cells))
	for i, c := range cells {
		out[i] = tx(c)
	}
	return out
}

// writeWorkbook writes a one-sheet XLSX as Excel lays it out: a workbook,
// its relationships, shared strings and the sheet, each cell with its
// reference. extra parts are added as they are (hostile ones).
func writeWorkbook(t testing.TB, rows [][]xc, extra map[string]func(io.Writer)) []byte {
	t.Helper()
	var b bytes.Buffer
	zw := zip.NewWriter(&b)
	put := func(name, body string) {
		w, err := zw.Create(name)
		if err != nil {
			t.Fatal(err)
		}
		io.WriteString(w, body)
	}
	put("[Content_Types].xml", `<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"></Types>`)
	put("xl/workbook.xml", `<?xml version="1.0" encoding="UTF-8"?><workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="Sheet1" sheetId="1" r:id="rId1"/></sheets></workbook>`)
	put("xl/_rels/workbook.xml.rels", `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/></Relationships>`)
	var sst []string
	index := map[string]int{}
	var sh strings.Builder
	sh.WriteString(`<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>`)
	for r, row := range rows {
		if row == nil {
			continue
		}
		fmt.Fprintf(&sh, `<row r="%d">`, r+1)
		for c, cell := range row {
			ref := cell.ref
			if ref == "" {
				ref = columnName(c+1) + strconv.Itoa(r+1)
			}
			switch {
			case cell.formula != "" && cell.cached != nil:
				fmt.Fprintf(&sh, `<c r="%s"><f>%s</f><v>%s</v></c>`, ref, html.EscapeString(cell.formula), strconv.FormatFloat(*cell.cached, 'f', -1, 64))
			case cell.formula != "":
				fmt.Fprintf(&sh, `<c r="%s"><f>%s</f></c>`, ref, html.EscapeString(cell.formula))
			case cell.num != nil:
				fmt.Fprintf(&sh, `<c r="%s"><v>%s</v></c>`, ref, strconv.FormatFloat(*cell.num, 'f', -1, 64))
			case cell.text == "":
				fmt.Fprintf(&sh, `<c r="%s"/>`, ref)
			default:
				i, ok := index[cell.text]
				if !ok {
					i = len(sst)
					index[cell.text] = i
					sst = append(sst, cell.text)
				}
				fmt.Fprintf(&sh, `<c r="%s" t="s"><v>%d</v></c>`, ref, i)
			}
		}
		sh.WriteString(`</row>`)
	}
	sh.WriteString(`</sheetData></worksheet>`)
	put("xl/worksheets/sheet1.xml", sh.String())
	if extra["xl/sharedStrings.xml"] == nil {
		var ss strings.Builder
		fmt.Fprintf(&ss, `<?xml version="1.0" encoding="UTF-8"?><sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" count="%d">`, len(sst))
		for _, s := range sst {
			fmt.Fprintf(&ss, `<si><t xml:space="preserve">%s</t></si>`, html.EscapeString(s))
		}
		ss.WriteString(`</sst>`)
		put("xl/sharedStrings.xml", ss.String())
	}
	for name, fill := range extra {
		w, err := zw.Create(name)
		if err != nil {
			t.Fatal(err)
		}
		fill(w)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}
