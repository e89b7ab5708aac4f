package ledger

import (
	"archive/zip"
	"context"
	"encoding/xml"
	"errors"
	"io"
	"path"
	"strings"
)

// readXLSX reads the workbook's first sheet as a stream (sheet.go): the
// title block, the header and the first rows are kept; the rest are
// counted and read again when the table is parsed. Cells are read as
// stored, not as formatted; a formula's cached value is never trusted:
// the row is refused.
func readXLSX(ctx context.Context, data []byte) (*Table, error) {
	wb, err := openWorkbook(data)
	if err != nil {
		return nil, err
	}
	t := &Table{Format: "XLSX", wb: wb, ctx: ctx}
	sc := newScan()
	err = wb.rows(t.stop, func(r Row) error {
		if sc.n > MaxRows+headerSearch+1 {
			return ErrTooManyRows
		}
		sc.add(r)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return sc.finish(t)
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
	var b []byte
	for ; col > 0; col = (col - 1) / 26 {
		b = append([]byte{byte('A' + (col-1)%26)}, b...)
	}
	return string(b)
}
