package handlers_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/xuri/excelize/v2"
)

// wantXLSXColumn reads a downloaded workbook and checks that every row
// below the header has ok(value) in the named column.
func wantXLSXColumn(t *testing.T, body, column string, ok func(string) bool) {
	t.Helper()
	f, err := excelize.OpenReader(strings.NewReader(body))
	if err != nil {
		t.Fatalf("workbook: %v", err)
	}
	defer f.Close()
	rows, err := f.GetRows("Sheet1")
	if err != nil || len(rows) < 2 {
		t.Fatalf("workbook rows: %d, %v", len(rows), err)
	}
	col := slices.Index(rows[0], column)
	if col < 0 {
		t.Fatalf("workbook header %q has no %s", rows[0], column)
	}
	for _, r := range rows[1:] {
		if col >= len(r) || !ok(r[col]) {
			t.Errorf("workbook row %q: %s not as wanted", r, column)
		}
	}
}
