package main

import (
	"archive/zip"
	"bytes"
	"io"
	"strings"
	"testing"
)

// part is a workbook's part, unzipped.
func part(t *testing.T, data []byte, name string) (string, uint64) {
	t.Helper()
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range zr.File {
		if f.Name == name {
			rc, err := f.Open()
			if err != nil {
				t.Fatal(err)
			}
			defer rc.Close()
			head, _ := io.ReadAll(io.LimitReader(rc, 4<<20))
			return string(head), f.UncompressedSize64
		}
	}
	t.Fatalf("no part %s", name)
	return "", 0
}

// The bench measures the files the hostile run sent, so each is checked
// to be that file: under the upload's 10 MB, with the shape it claims.
func TestShapesAreTheHostileFiles(t *testing.T) {
	made := map[string][]byte{}
	for _, s := range shapes {
		var b bytes.Buffer
		if err := s.make(&b); err != nil {
			t.Fatalf("%s: %v", s.name, err)
		}
		if b.Len() > 10<<20 {
			t.Errorf("%s: %d bytes, over the upload's 10 MB", s.name, b.Len())
		}
		made[s.file] = b.Bytes()
	}
	if sheet, _ := part(t, made["padded-1k.xlsx"], "xl/worksheets/sheet1.xml"); strings.Count(sheet, `<c r="XFD`) != 1000 {
		t.Errorf("padded-1k: %d cells at XFD, want 1,000", strings.Count(sheet, `<c r="XFD`))
	}
	if _, n := part(t, made["strings-bomb.xlsx"], "xl/sharedStrings.xml"); n < 100<<20 {
		t.Errorf("strings-bomb: shared strings unzip to %d bytes, want over 100 MB", n)
	}
	header, _, _ := strings.Cut(string(made["wide.csv"]), "\n")
	if n := strings.Count(header, ",") + 1; n != 1000000 {
		t.Errorf("wide.csv: %d columns, want 1,000,000", n)
	}
	if sheet, _ := part(t, made["nested.xlsx"], "xl/worksheets/sheet1.xml"); strings.Count(sheet, "<r>") < 1000000 {
		t.Errorf("nested: the first 4 MB hold %d nested elements", strings.Count(sheet, "<r>"))
	}
	if sheet, _ := part(t, made["formulas.xlsx"], "xl/worksheets/sheet1.xml"); strings.Count(sheet, "<f>") < 50000 || strings.Contains(sheet, "</f><v>") {
		t.Errorf("formulas: %d formulas, some with cached values", strings.Count(sheet, "<f>"))
	}
	if n := strings.Count(string(made["aging-50k.csv"]), "\n"); n != 50001 {
		t.Errorf("aging-50k.csv: %d lines, want 50,001", n)
	}
}
