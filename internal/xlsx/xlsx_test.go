package xlsx_test

import (
	"bytes"
	"fmt"
	"math"
	"testing"

	"github.com/xuri/excelize/v2"

	"creditdash/internal/xlsx"
)

// TestWorkbookReadsBack: text stays text (a formula typed as a name is
// never run), numbers are numbers, nil is an empty cell, and characters
// XML cannot hold do not break the file.
func TestWorkbookReadsBack(t *testing.T) {
	var buf bytes.Buffer
	x, err := xlsx.NewWriter(&buf)
	if err != nil {
		t.Fatal(err)
	}
	rows := [][]any{
		{"account", "name", "balance", "limit"},
		{"A-1", `=HYPERLINK("http://x")`, 1500.5, nil},
		{"A-2", "Bell \x07 & <Co>", 200, int64(5000)},
		{"A-3", "NaN", math.NaN(), 0.0},
	}
	for _, r := range rows {
		if err := x.Row(r); err != nil {
			t.Fatal(err)
		}
	}
	if err := x.Close(); err != nil {
		t.Fatal(err)
	}
	f, err := excelize.OpenReader(&buf)
	if err != nil {
		t.Fatalf("open: %v", err)
	}
	defer f.Close()
	got, err := f.GetRows("Sheet1")
	if err != nil || len(got) != 4 {
		t.Fatalf("rows: %d, %v", len(got), err)
	}
	if got[1][1] != `=HYPERLINK("http://x")` || got[1][2] != "1500.5" || len(got[1]) != 3 {
		t.Errorf("row 2 = %q", got[1])
	}
	if formula, _ := f.GetCellFormula("Sheet1", "B2"); formula != "" {
		t.Errorf("B2 holds the formula %q", formula)
	}
	if typ, _ := f.GetCellType("Sheet1", "C2"); typ != excelize.CellTypeUnset && typ != excelize.CellTypeNumber {
		t.Errorf("C2 is of type %v, want a number", typ)
	}
	if got[2][1] != "Bell \uFFFD & <Co>" || got[2][3] != "5000" {
		t.Errorf("row 3 = %q", got[2])
	}
	if got[3][2] != "NaN" || got[3][3] != "0" {
		t.Errorf("row 4 = %q", got[3])
	}
}

// chunks records what reaches the response: the largest single write and
// the bytes that arrived before the workbook was closed.
type chunks struct {
	total, largest int
}

func (c *chunks) Write(p []byte) (int, error) {
	c.total += len(p)
	c.largest = max(c.largest, len(p))
	return len(p), nil
}

// TestRowsGoOutAsWritten: a sheet of 20,000 rows of text a compressor
// cannot shrink reaches the writer in small pieces while rows are still
// being written, not as one file at the end.
func TestRowsGoOutAsWritten(t *testing.T) {
	var w chunks
	x, err := xlsx.NewWriter(&w)
	if err != nil {
		t.Fatal(err)
	}
	const n = 20_000
	for i := range n {
		// Text that differs from row to row, so the sheet stays large
		// once compressed.
		if err := x.Row([]any{fmt.Sprintf("C%06d", i), fmt.Sprintf("%x", uint64(i)*0x9E3779B97F4A7C15), float64(i)}); err != nil {
			t.Fatal(err)
		}
	}
	before := w.total
	if err := x.Close(); err != nil {
		t.Fatal(err)
	}
	if w.total < 256<<10 {
		t.Fatalf("the workbook is %d bytes; the test needs more than 256 KiB", w.total)
	}
	if before < w.total*3/4 || w.largest > 64<<10 {
		t.Errorf("%d of %d bytes sent before the last row was done, largest write %d: the sheet was held back", before, w.total, w.largest)
	}
}

// TestColumn names columns as spreadsheets do.
func TestColumn(t *testing.T) {
	for n, want := range map[int]string{1: "A", 26: "Z", 27: "AA", 52: "AZ", 53: "BA", 702: "ZZ", 703: "AAA", 16384: "XFD"} {
		if got := xlsx.Column(n); got != want {
			t.Errorf("Column(%d) = %q, want %q", n, got, want)
		}
	}
}
