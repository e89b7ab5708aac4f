package ledger

import (
	"bytes"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/xuri/excelize/v2"
	"golang.org/x/text/encoding/charmap"
)

// read reads data and parses it with the recognised mapping.
func read(t *testing.T, data []byte) (*Table, Result) {
	t.Helper()
	tab, err := Read(t.Context(), data)
	if err != nil {
		t.Fatalf("Read: %v", err)
	}
	m := Recognise(tab.Header)
	if err := m.Check(tab.Header); err != nil {
		t.Fatalf("Check: %v", err)
	}
	return tab, Parse(tab, m, Options{})
}

// erp is a small ERP-style export with one good row of each kind of
// number and the mistakes real exports carry.
const erp = "Aged receivables as of 31 Oct 2026\n" +
	"Customer No.,Name,Business Id,Total Due,Current,1-30,31-60,61-90,Over 90,Credit Limit,Terms\n" +
	"A-1,Harbor Freight,1001,\"1,234.56\",\"1,000.00\",234.56,0,0,0,\"5,000\",Net 30\n" +
	"A-2,Credit balance,1002,(250.00),(250.00),0,0,0,0,0,30\n" +
	"A-3,Wrong total,1003,1000,500,100,0,0,0,2000,30\n" +
	"A-4,Stray letter,1004,12a4,0,0,0,0,0,100,30\n" +
	"A-1,Again,1005,10,10,0,0,0,0,100,30\n" +
	"A-6,No business,,10,10,0,0,0,0,100,30\n" +
	"A-7,Negative limit,1007,10,10,0,0,0,0,-5,30\n" +
	"A-8,Big,1008,2e13,0,0,0,0,0,0,30\n" +
	",,,,,,,,,,\n\n"

// TestCSVOfAnERP: the header is found under a title line, ERP spellings
// are recognised, numbers are read as written, and each bad row is named
// with its number and reason.
func TestCSVOfAnERP(t *testing.T) {
	tab, res := read(t, []byte(erp))
	if tab.HeaderRow != 2 || tab.Delimiter != ',' {
		t.Errorf("header row %d, delimiter %q", tab.HeaderRow, tab.Delimiter)
	}
	if len(res.Lines) != 3 || res.Lines[0].Balance != 1234.56 || *res.Lines[0].ERPLimit != 5000 || *res.Lines[0].Terms != 30 ||
		res.Lines[1].Balance != -250 || res.Lines[2].Account != "A-6" || res.Unlinked != 1 {
		t.Fatalf("lines = %+v", res.Lines)
	}
	want := map[int]string{5: "add up", 6: "not an amount", 7: "listed twice (first on row 3)",
		9: "below zero", 10: "not an amount"}
	if len(res.Bad) != len(want) {
		t.Fatalf("bad rows = %+v", res.Bad)
	}
	for _, p := range res.Bad {
		if !strings.Contains(p.Reason, want[p.Row]) {
			t.Errorf("row %d: reason %q, want it to say %q", p.Row, p.Reason, want[p.Row])
		}
	}
}

// TestCSVEncodingsAndDelimiters: a BOM, Windows-1252 text, semicolons
// with decimal commas and tabs all read the same.
func TestCSVEncodingsAndDelimiters(t *testing.T) {
	semi := "\xEF\xBB\xBFaccount;name;business_id;balance\r\nA-1;Café Müller;1001;1.234,50\r\n"
	win, _ := charmap.Windows1252.NewEncoder().String("account,name,business_id,balance\nA-1,Café Müller,1001,1234.50\n")
	tab := "account\tname\tbusiness_id\tbalance\nA-1\tCafé Müller\t1001\t1234.5\n"
	for name, data := range map[string]string{"semicolon": semi, "windows-1252": win, "tab": tab} {
		_, res := read(t, []byte(data))
		if len(res.Lines) != 1 || res.Lines[0].Name != "Café Müller" || res.Lines[0].Balance != 1234.5 || res.Lines[0].Current != 1234.5 {
			t.Errorf("%s: lines = %+v, bad = %+v", name, res.Lines, res.Bad)
		}
	}
}

// TestRefusedFiles: a file with no balance header, binary data, an old
// .xls and too many rows are refused whole.
func TestRefusedFiles(t *testing.T) {
	tab, err := Read(t.Context(), []byte("account,name\nA-1,x\n"))
	if err != nil {
		t.Fatal(err)
	}
	if err := Recognise(tab.Header).Check(tab.Header); !errors.Is(err, ErrNoBalance) {
		t.Errorf("no balance header: %v", err)
	}
	for name, data := range map[string][]byte{
		"binary": []byte("\x00\x01\x02garbage"), "xls": {0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1}, "broken zip": []byte("PK\x03\x04nonsense"),
	} {
		if _, err := Read(t.Context(), data); !errors.Is(err, ErrNotSpreadsheet) {
			t.Errorf("%s: err = %v, want ErrNotSpreadsheet", name, err)
		}
	}
	var b bytes.Buffer
	b.WriteString("account,business_id,balance\n")
	for range MaxRows + 1 {
		b.WriteString("A,1,1\n")
	}
	if _, err := Read(t.Context(), b.Bytes()); !errors.Is(err, ErrTooManyRows) {
		t.Errorf("50,001 rows: err = %v", err)
	}
	if _, err := Read(t.Context(), make([]byte, MaxFileBytes+1)); !errors.Is(err, ErrTooLarge) {
		t.Errorf("11 MB: err = %v", err)
	}
	m := Mapping{Balance, Balance}
	if err := m.Check([]string{"a", "b"}); err == nil || !strings.Contains(err.Error(), "two columns") {
		t.Errorf("a field in two columns: %v", err)
	}
}

// TestXLSX: a workbook reads like the CSV; a formula cell refuses its
// row, naming the column.
func TestXLSX(t *testing.T) {
	f := excelize.NewFile()
	rows := [][]any{
		{"Customer No.", "Name", "Supplier Id", "Total Due", "Current", "1-30", "Credit Limit"},
		{"A-1", "Harbor", "S-1001", 1500.25, 1000.25, 500, 10000},
		{"A-2", "Formula", "S-1002", 100, 100, 0, 0},
	}
	for i, r := range rows {
		cell, _ := excelize.CoordinatesToCellName(1, i+1)
		if err := f.SetSheetRow("Sheet1", cell, &r); err != nil {
			t.Fatal(err)
		}
	}
	if err := f.SetCellFormula("Sheet1", "D3", "=E3+F3"); err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := f.Write(&b); err != nil {
		t.Fatal(err)
	}
	tab, res := read(t, b.Bytes())
	if tab.Format != "XLSX" || len(res.Lines) != 1 || res.Lines[0].Balance != 1500.25 || res.Lines[0].SupplierID != "S-1001" {
		t.Fatalf("lines = %+v", res.Lines)
	}
	if len(res.Bad) != 1 || res.Bad[0].Row != 3 || !strings.Contains(res.Bad[0].Reason, "column D holds a formula") {
		t.Errorf("bad = %+v, want row 3's formula in column D", res.Bad)
	}
	if v := Validate(tab, Recognise(tab.Header), Options{}); v.Valid != 1 || !reflect.DeepEqual(v.Bad, res.Bad) || tab.Count != 2 || len(tab.Head) != 2 {
		t.Errorf("validate = %+v, count %d, head %+v", v, tab.Count, tab.Head)
	}
}

// TestAliasesAreUnambiguous: no folded spelling names two fields.
func TestAliasesAreUnambiguous(t *testing.T) {
	for _, f := range Fields {
		if got := aliases[fold(string(f))]; got != f {
			t.Errorf("canonical %s recognised as %q", f, got)
		}
	}
	m := Recognise([]string{"CUSTOMER NO.", "Over 90", "91+", "terms"})
	if m[0] != Account || m[1] != DaysOver90 || m[2] != Ignore || m[3] != Terms {
		t.Errorf("Recognise = %v", m)
	}
}
