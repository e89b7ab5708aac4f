package main

import (
	"archive/zip"
	"bufio"
	"bytes"
	"fmt"
	"io"
	"strings"
)

// shape is one file the bench posts to the import preview: how it is made
// and what the hostile run found it cost before the importer was bounded.
type shape struct {
	name   string
	file   string // the upload's file name
	before string // the hostile run's figure, for the table's notes
	make   func(w io.Writer) error
}

// shapes are the hostile run's files (issue 47) and two valid ledgers of
// the largest size the importer takes, made here byte for byte.
var shapes = []shape{
	{"XLSX, 1,000 rows padded to column XFD", "padded-1k.xlsx", "378 MB, 7 s", func(w io.Writer) error { return paddedXLSX(w, 1000) }},
	{"XLSX, 50,000 rows padded to column XFD", "padded-50k.xlsx", "about 15 GB (extrapolated)", func(w io.Writer) error { return paddedXLSX(w, 50000) }},
	{"XLSX, shared strings unzipping to 113 MB", "strings-bomb.xlsx", "1.63 GB, 81 s", stringsBomb},
	{"CSV, a header of 1,000,000 columns", "wide.csv", "1.73 GB, 50 s", wideCSV},
	{"XLSX, 2,000,000 nested elements in one cell", "nested.xlsx", "16.5 s of CPU", nestedXLSX},
	{"XLSX, 50,000 formula-only rows beside 10 valid", "formulas.xlsx", "counted as blank rows", formulaXLSX},
	{"CSV, 50,000 valid rows (comparison)", "aging-50k.csv", "", validCSV},
	{"XLSX, 50,000 valid rows (comparison)", "aging-50k.xlsx", "", validXLSX},
}

// The parts every workbook has besides its sheet and shared strings.
const (
	contentTypes = `<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/><Override PartName="/xl/sharedStrings.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"/></Types>`
	workbookXML  = `<?xml version="1.0" encoding="UTF-8"?><workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="Aging" sheetId="1" r:id="rId1"/></sheets></workbook>`
	workbookRels = `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/><Relationship Id="rId2" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/sharedStrings" Target="sharedStrings.xml"/></Relationships>`
	sheetOpen    = `<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>`
	sheetClose   = `</sheetData></worksheet>`
	sstOpen      = `<?xml version="1.0" encoding="UTF-8"?><sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">`
)

// header is the aging header every made ledger starts with, as shared
// strings 0 to 3.
var header = []string{"Customer No.", "Name", "Business Id", "Balance"}

// workbook writes a one-sheet XLSX: rows writes the sheet's rows, strings
// the shared strings after the header's (each <si> whole).
func workbook(w io.Writer, rows, strs func(w *bufio.Writer)) error {
	zw := zip.NewWriter(w)
	part := func(name string, fill func(w *bufio.Writer)) error {
		pw, err := zw.Create(name)
		if err != nil {
			return err
		}
		bw := bufio.NewWriterSize(pw, 64<<10)
		fill(bw)
		return bw.Flush()
	}
	fixed := func(body string) func(*bufio.Writer) { return func(w *bufio.Writer) { w.WriteString(body) } }
	for _, p := range []struct {
		name string
		fill func(*bufio.Writer)
	}{
		{"[Content_Types].xml", fixed(contentTypes)},
		{"xl/workbook.xml", fixed(workbookXML)},
		{"xl/_rels/workbook.xml.rels", fixed(workbookRels)},
		{"xl/worksheets/sheet1.xml", func(w *bufio.Writer) {
			w.WriteString(sheetOpen)
			w.WriteString(`<row r="1">`)
			for i := range header {
				fmt.Fprintf(w, `<c r="%c1" t="s"><v>%d</v></c>`, 'A'+i, i)
			}
			w.WriteString(`</row>`)
			if rows != nil {
				rows(w)
			}
			w.WriteString(sheetClose)
		}},
		{"xl/sharedStrings.xml", func(w *bufio.Writer) {
			w.WriteString(sstOpen)
			for _, h := range header {
				fmt.Fprintf(w, `<si><t>%s</t></si>`, h)
			}
			if strs != nil {
				strs(w)
			}
			w.WriteString(`</sst>`)
		}},
	} {
		if err := part(p.name, p.fill); err != nil {
			return err
		}
	}
	return zw.Close()
}

// account writes row r's four cells of account i (inline strings, as
// many exports write them).
func account(w *bufio.Writer, r, i int) {
	fmt.Fprintf(w, `<c r="A%d" t="inlineStr"><is><t>C%06d</t></is></c><c r="B%d" t="inlineStr"><is><t>Customer %d Ltd</t></is></c><c r="C%d"><v>%d</v></c><c r="D%d"><v>%d.50</v></c>`,
		r, i, r, i, r, 1001+i%520, r, 1000+i%997)
}

// paddedXLSX: each row's last cell is an empty, formatted cell at column
// XFD, the sheet's last, as some exports leave them.
func paddedXLSX(w io.Writer, n int) error {
	return workbook(w, func(w *bufio.Writer) {
		for i := range n {
			r := i + 2
			fmt.Fprintf(w, `<row r="%d">`, r)
			account(w, r, i)
			fmt.Fprintf(w, `<c r="XFD%d" s="1"/></row>`, r)
		}
	}, nil)
}

// stringsBomb: 113,000 shared strings of 1,000 letters, 113 MB unzipped,
// under the upload's 10 MB zipped.
func stringsBomb(w io.Writer) error {
	si := "<si><t>" + strings.Repeat("A", 1000) + "</t></si>"
	return workbook(w, nil, func(w *bufio.Writer) {
		for range 113000 {
			w.WriteString(si)
		}
	})
}

// wideCSV: a header of a million columns (about 7.9 MB) and one row.
func wideCSV(w io.Writer) error {
	bw := bufio.NewWriterSize(w, 64<<10)
	for i := range 1000000 {
		if i > 0 {
			bw.WriteByte(',')
		}
		fmt.Fprintf(bw, "c%d", i)
	}
	bw.WriteString("\nC000001,Harbor,1001,10.50\n")
	return bw.Flush()
}

// nestedXLSX: one inline-string cell holding two million nested elements.
func nestedXLSX(w io.Writer) error {
	open := bytes.Repeat([]byte("<r>"), 2000000)
	return workbook(w, func(w *bufio.Writer) {
		w.WriteString(`<row r="2"><c r="A2" t="inlineStr"><is>`)
		w.Write(open)
		w.WriteString(`x</is></c></row>`)
	}, nil)
}

// formulaXLSX: ten accounts, then 50,000 rows of formulas without cached
// values (a workbook saved by a program that never calculated it).
func formulaXLSX(w io.Writer) error {
	return workbook(w, func(w *bufio.Writer) {
		for i := range 10 {
			fmt.Fprintf(w, `<row r="%d">`, i+2)
			account(w, i+2, i)
			w.WriteString(`</row>`)
		}
		for i := range 50000 {
			r := i + 12
			fmt.Fprintf(w, `<row r="%d"><c r="A%d"><f>A%d</f></c><c r="B%d"><f>B%d</f></c><c r="C%d"><f>C%d</f></c><c r="D%d"><f>D%d*2</f></c></row>`,
				r, r, r-10, r, r-10, r, r-10, r, r-10)
		}
	}, nil)
}

// validCSV: 50,000 accounts, the most one import takes.
func validCSV(w io.Writer) error {
	bw := bufio.NewWriterSize(w, 64<<10)
	bw.WriteString(strings.Join(header, ",") + "\n")
	for i := range 50000 {
		fmt.Fprintf(bw, "C%06d,Customer %d Ltd,%d,%d.50\n", i, i, 1001+i%520, 1000+i%997)
	}
	return bw.Flush()
}

// validXLSX: the same 50,000 accounts in a workbook.
func validXLSX(w io.Writer) error {
	return workbook(w, func(w *bufio.Writer) {
		for i := range 50000 {
			fmt.Fprintf(w, `<row r="%d">`, i+2)
			account(w, i+2, i)
			w.WriteString(`</row>`)
		}
	}, nil)
}
