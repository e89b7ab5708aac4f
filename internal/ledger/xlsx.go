package ledger

import (
	"archive/zip"
	"bytes"
	"encoding/xml"
	"errors"
	"io"
	"path"
	"strings"

	"github.com/xuri/excelize/v2"
)

// unzipLimit bounds what a workbook may unpack to, so a small file that
// unpacks to gigabytes (a zip bomb) is refused, not read.
const unzipLimit = 128 << 20

// readXLSX reads the workbook's first sheet with excelize's streaming row
// iterator. Cells are read as stored (RawCellValue), not as formatted; a
// formula cell's cached value is never trusted: the row is refused.
func readXLSX(data []byte) (*Table, error) {
	formulas, err := formulaCells(data)
	if err != nil {
		return nil, ErrNotSpreadsheet
	}
	f, err := excelize.OpenReader(bytes.NewReader(data), excelize.Options{RawCellValue: true,
		UnzipSizeLimit: unzipLimit, UnzipXMLSizeLimit: unzipLimit})
	if err != nil {
		return nil, ErrNotSpreadsheet
	}
	defer f.Close()
	sheets := f.GetSheetList()
	if len(sheets) == 0 {
		return nil, ErrEmpty
	}
	it, err := f.Rows(sheets[0])
	if err != nil {
		return nil, ErrNotSpreadsheet
	}
	defer it.Close()
	t := &Table{Format: "XLSX"}
	var rows []Row
	n := 0
	for it.Next() {
		n++
		cells, err := it.Columns(excelize.Options{RawCellValue: true})
		if err != nil {
			if errors.Is(err, excelize.ErrMaxRows) {
				return nil, ErrTooManyRows
			}
			return nil, ErrNotSpreadsheet
		}
		if blank(cells) {
			continue
		}
		if len(rows) > MaxRows+headerSearch {
			return nil, ErrTooManyRows
		}
		row := Row{Number: n, Cells: cells}
		for i := range cells {
			cells[i] = strings.TrimSpace(cells[i])
			if row.Formula == "" && formulas[cellRef{row: n, col: i + 1}] {
				row.Formula = columnName(i + 1)
			}
		}
		rows = append(rows, row)
	}
	if it.Error() != nil {
		return nil, ErrNotSpreadsheet
	}
	return t.withHeader(rows, len(rows))
}

// cellRef is a cell's row and column, from 1.
type cellRef struct{ row, col int }

// formulaCells finds the first sheet's cells that hold a formula, reading
// its XML as a stream. excelize's row iterator gives only values.
func formulaCells(data []byte) (map[cellRef]bool, error) {
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		return nil, err
	}
	sheet, err := firstSheetPath(zr)
	if err != nil {
		return nil, err
	}
	rc, err := zr.Open(sheet)
	if err != nil {
		return nil, err
	}
	defer rc.Close()
	dec := xml.NewDecoder(io.LimitReader(rc, unzipLimit))
	out := map[cellRef]bool{}
	var cur string
	row, col := 0, 0
	for {
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			return out, nil
		}
		if err != nil {
			return nil, err
		}
		se, ok := tok.(xml.StartElement)
		if !ok {
			continue
		}
		switch se.Name.Local {
		case "row":
			row++
			col = 0
			if r := attr(se, "r"); r != "" {
				if n, ok := atoi(r); ok {
					row = n
				}
			}
		case "c":
			col++
			cur = attr(se, "r")
			if cur != "" {
				if c, r, err := excelize.CellNameToCoordinates(cur); err == nil {
					col, row = c, r
				}
			}
		case "f":
			if len(out) <= MaxRows*4 {
				out[cellRef{row: row, col: col}] = true
			}
		}
	}
}

// firstSheetPath follows the workbook's first sheet to its part name.
func firstSheetPath(zr *zip.Reader) (string, error) {
	var wb struct {
		Sheets []struct {
			ID string `xml:"http://schemas.openxmlformats.org/officeDocument/2006/relationships id,attr"`
		} `xml:"sheets>sheet"`
	}
	if err := readXML(zr, "xl/workbook.xml", &wb); err != nil || len(wb.Sheets) == 0 {
		return "", errors.New("ledger: no sheet")
	}
	var rels struct {
		Rels []struct {
			ID     string `xml:"Id,attr"`
			Target string `xml:"Target,attr"`
		} `xml:"Relationship"`
	}
	if err := readXML(zr, "xl/_rels/workbook.xml.rels", &rels); err != nil {
		return "", err
	}
	for _, r := range rels.Rels {
		if r.ID == wb.Sheets[0].ID {
			if strings.HasPrefix(r.Target, "/") {
				return strings.TrimPrefix(r.Target, "/"), nil
			}
			return path.Join("xl", r.Target), nil
		}
	}
	return "", errors.New("ledger: no sheet")
}

// readXML decodes one small part of the archive.
func readXML(zr *zip.Reader, name string, v any) error {
	rc, err := zr.Open(name)
	if err != nil {
		return err
	}
	defer rc.Close()
	return xml.NewDecoder(io.LimitReader(rc, 8<<20)).Decode(v)
}

func attr(se xml.StartElement, name string) string {
	for _, a := range se.Attr {
		if a.Name.Local == name {
			return a.Value
		}
	}
	return ""
}

func atoi(s string) (int, bool) {
	n := 0
	for _, c := range s {
		if c < '0' || c > '9' || n > 1<<24 {
			return 0, false
		}
		n = n*10 + int(c-'0')
	}
	return n, s != ""
}

// columnName is a column's letters: 1 is A, 27 is AA.
func columnName(col int) string {
	name, _ := excelize.ColumnNumberToName(col)
	return name
}
