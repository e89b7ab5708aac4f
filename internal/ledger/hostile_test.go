package ledger

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"runtime"
	"strings"
	"testing"
)

// allocated is how many bytes fn allocates (its peak lies below).
func allocated(fn func()) uint64 {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	fn()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// TestXFDPaddedRows (issue 47.1): rows whose last cell sits at column XFD
// cost that cell, not 16,384: 1,000 such rows read and parse in well
// under a megabyte a hundred rows; a value at XFD refuses the file,
// naming the column and the bound.
func TestXFDPaddedRows(t *testing.T) {
	rows := [][]xc{textRow("Customer No.", "Name", "Business Id", "Balance")}
	for i := range 1000 {
		rows = append(rows, []xc{tx(fmt.Sprintf("C%04d", i)), tx("Harbor"), nm(1001), nm(float64(i)), at(fmt.Sprintf("XFD%d", i+2), tx(""))})
	}
	data := writeWorkbook(t, rows, nil)
	var res Result
	n := allocated(func() {
		tab, err := Read(t.Context(), data)
		if err != nil {
			t.Fatal(err)
		}
		res = Parse(tab, tab.Mapping(), Options{})
		if len(tab.Header) != 4 || len(tab.Head[0].Cells) != 4 {
			t.Errorf("header %q, first row %q: padded", tab.Header, tab.Head[0].Cells)
		}
	})
	if res.Valid != 1000 || len(res.Bad) != 0 {
		t.Errorf("%d valid, bad %+v", res.Valid, res.Bad)
	}
	if n > 16<<20 {
		t.Errorf("1,000 padded rows allocated %d MB", n>>20)
	}
	rows[5][4] = at("XFD6", tx("x"))
	_, err := Read(t.Context(), writeWorkbook(t, rows, nil))
	var ce *ColumnsError
	if !errors.As(err, &ce) || ce.Column != "XFD" || !strings.Contains(err.Error(), "at most 200 columns") {
		t.Errorf("a value at XFD: %v", err)
	}
}

// TestSharedStringsBomb (issue 47.1): shared strings that unzip to over
// 100 MB are refused at their bound, without reading them all.
func TestSharedStringsBomb(t *testing.T) {
	chunk := "<si><t>" + strings.Repeat("A", 1000) + "</t></si>"
	data := writeWorkbook(t, [][]xc{textRow("account", "balance")}, map[string]func(io.Writer){
		"xl/sharedStrings.xml": func(w io.Writer) {
			io.WriteString(w, `<sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">`)
			for range 105 << 10 { // 105,000 strings of 1 KB
				io.WriteString(w, chunk)
			}
			io.WriteString(w, `</sst>`)
		},
	})
	if len(data) > MaxFileBytes {
		t.Fatalf("the bomb is %d bytes, over the upload bound", len(data))
	}
	var err error
	n := allocated(func() { _, err = Read(t.Context(), data) })
	if !errors.Is(err, ErrSharedStrings) {
		t.Errorf("err = %v, want ErrSharedStrings", err)
	}
	if n > 64<<20 {
		t.Errorf("refusing allocated %d MB", n>>20)
	}
}

// TestDeepNesting (issue 47.1): two million nested elements in one cell
// are refused at the depth no sheet needs.
func TestDeepNesting(t *testing.T) {
	data := writeWorkbook(t, nil, map[string]func(io.Writer){
		"xl/worksheets/sheet1.xml": func(w io.Writer) {
			io.WriteString(w, `<worksheet><sheetData><row r="1"><c r="A1" t="inlineStr"><is>`)
			open := bytes.Repeat([]byte("<r>"), 2000000)
			w.Write(open)
			io.WriteString(w, `x</is></c></row></sheetData></worksheet>`)
		},
	})
	if _, err := Read(t.Context(), data); !errors.Is(err, ErrNesting) {
		t.Errorf("err = %v, want ErrNesting", err)
	}
}

// TestLongCells: a CSV cell or an XML text past 32 KB refuses the file.
func TestLongCells(t *testing.T) {
	csv := "account,balance\nA-1," + strings.Repeat("9", MaxCellBytes+1) + "\n"
	if _, err := Read(t.Context(), []byte(csv)); !errors.Is(err, ErrCellTooLarge) {
		t.Errorf("CSV: err = %v", err)
	}
	data := writeWorkbook(t, [][]xc{textRow("account", "balance"), textRow("A-1", strings.Repeat("9", 200<<10))}, nil)
	if _, err := Read(t.Context(), data); !errors.Is(err, ErrCellTooLarge) {
		t.Errorf("XLSX: err = %v", err)
	}
}

// TestFormulaOnlyRows (issue 47.6): rows of formulas without cached values
// are refused and counted, not taken as blank rows.
func TestFormulaOnlyRows(t *testing.T) {
	rows := [][]xc{textRow("account", "business_id", "balance"), {tx("A-1"), nm(1001), nm(10)}}
	for i := range 3 {
		rows = append(rows, []xc{fx(fmt.Sprintf("A%d", i+1), nil), fx("B2", nil), fx("C2*2", nil)})
	}
	tab, err := Read(t.Context(), writeWorkbook(t, rows, nil))
	if err != nil {
		t.Fatal(err)
	}
	res := Parse(tab, tab.Mapping(), Options{})
	if tab.Count != 4 || res.Valid != 1 || res.ByKind()["formula"] != 3 {
		t.Errorf("count %d, valid %d, refused %v", tab.Count, res.Valid, res.ByKind())
	}
}

// TestDeadlineStops: a read past its context's deadline stops.
func TestDeadlineStops(t *testing.T) {
	var b bytes.Buffer
	b.WriteString("account,balance\n")
	for i := range 5000 {
		fmt.Fprintf(&b, "A-%d,1\n", i)
	}
	tab, err := Read(t.Context(), b.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := contextDone(t)
	defer cancel()
	tab.ctx = ctx
	if err := tab.Each(func(Row) error { return nil }); !errors.Is(err, ErrDeadline) {
		t.Errorf("err = %v, want ErrDeadline", err)
	}
}

// contextDone is a context already past its deadline.
func contextDone(t *testing.T) (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	return ctx, cancel
}
