package handlers_test

import (
	"bytes"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"creditdash/internal/apptest"
	"creditdash/internal/xlsx"
)

// systemFile is one accounting system's export as a test makes it, and
// the total its Total row gives.
type systemFile struct {
	name  string
	data  []byte
	total string
}

// workbook writes rows as an XLSX sheet: text, numbers, dates as Excel
// serials (time.Time), nil for a blank cell.
func workbook(t *testing.T, rows ...[]any) []byte {
	t.Helper()
	var b bytes.Buffer
	w, err := xlsx.NewWriter(&b)
	if err != nil {
		t.Fatal(err)
	}
	epoch := time.Date(1899, 12, 30, 0, 0, 0, 0, time.UTC)
	for _, r := range rows {
		cells := make([]any, len(r))
		for i, c := range r {
			if d, ok := c.(time.Time); ok {
				c = float64(d.Sub(epoch).Hours() / 24)
			}
			cells[i] = c
		}
		if err := w.Row(cells); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// day is a date of November 2026 (or, past 30, of the months after).
func day(d int) time.Time { return time.Date(2026, 11, d, 0, 0, 0, 0, time.UTC) }

// systemFiles are the exports issue 43 names, each in its system's layout:
// title blocks over the header, total, subtotal and footer rows, the
// system's own amounts and dates.
func systemFiles(t *testing.T) []systemFile {
	return []systemFile{
		{"QuickBooks A_R Aging Summary.csv", []byte(qboSummary), "909,626.15"},
		{"QuickBooks A_R Aging Detail.csv", []byte("Tui Landscaping\nA/R Aging Detail\nAs of November 28, 2026\n\n" +
			",Date,Transaction Type,Num,Due Date,Amount,Open Balance\n" +
			"Harbourside Cafe\n" +
			",09/22/2026,Invoice,2041,10/22/2026,\"$2,400.00\",\"$1,400.00\"\n" +
			",11/14/2026,Invoice,2077,12/14/2026,$310.25,$310.25\n" +
			"Total for Harbourside Cafe,,,,,\"$2,710.25\",\"$1,710.25\"\n" +
			"Kauri Motors\n" +
			",11/13/2026,Credit Memo,2060,11/13/2026,-$75.00,-$75.00\n" +
			"Total for Kauri Motors,,,,,-$75.00,-$75.00\n" +
			"TOTAL,,,,,\"$2,635.25\",\"$1,635.25\"\n\n" +
			"\"Saturday, November 28, 2026 09:12:40 AM GMT-08:00\"\n"), "1,635.25"},
		{"Aged_Receivables_Summary.xlsx", workbook(t,
			[]any{"Aged Receivables Summary"}, []any{"Kowhai Joinery Limited"}, []any{"As at 30 November 2026"}, nil,
			[]any{"Contact", "Current", "1 Month", "2 Months", "3 Months", "Older", "Total"},
			[]any{"Bayside Club", 234.0, 0.0, 0.0, 0.0, 0.0, 234.0},
			[]any{"Marine Systems", 0.0, 1250.0, 0.0, 0.0, 396.0, 1646.0},
			[]any{"Ridgeway University", 0.0, 0.0, 500.0, 250.0, 0.0, 750.0},
			[]any{"Total", 234.0, 1250.0, 500.0, 250.0, 396.0, 2630.0}), "2,630.00"},
		{"Aged_Receivables_Detail.xlsx", workbook(t,
			[]any{"Aged Receivables Detail"}, []any{"Kowhai Joinery Limited"}, []any{"As at 30 November 2026"}, nil,
			[]any{"Invoice Date", "Invoice Number", "Due Date", "Current", "1 Month", "2 Months", "3 Months", "Older", "Total"},
			[]any{"Bayside Club"},
			[]any{day(1), "INV-0101", day(30), 300.0, 0.0, 0.0, 0.0, 0.0, 300.0},
			[]any{day(5), "CN-0012", nil, 0.0, -50.0, 0.0, 0.0, 0.0, -50.0},
			[]any{"Total Bayside Club", nil, nil, 300.0, -50.0, 0.0, 0.0, 0.0, 250.0},
			[]any{"Marine Systems"},
			[]any{day(-100), "INV-0077", day(-70), 0.0, 0.0, 0.0, 396.0, 0.0, 396.0},
			[]any{"Total Marine Systems", nil, nil, 0.0, 0.0, 0.0, 396.0, 0.0, 396.0},
			[]any{"Total", nil, nil, 300.0, -50.0, 0.0, 396.0, 0.0, 646.0}), "646.00"},
		{"CustomerAgingSummary.csv", []byte("Pohutukawa Supplies Ltd\nA/R Aging Summary\nAs of Nov 30, 2026\nOptions: Show Zero\n" +
			"Customer,Current,1 - 30,31 - 60,61 - 90,> 90,Total\n" +
			"Tasman Freight,\"$4,200.00\",$800.00,$0.00,$0.00,$0.00,\"$5,000.00\"\n" +
			"Tasman Freight : Nelson,$0.00,$0.00,$0.00,$125.50,$0.00,$125.50\n" +
			"Aoraki Outfitters,($60.00),$0.00,$0.00,$0.00,$0.00,($60.00)\n" +
			"Total,\"$4,140.00\",$800.00,$0.00,$125.50,$0.00,\"$5,065.50\"\n"), "5,065.50"},
		{"Customer Ledger Entries.xlsx", workbook(t,
			[]any{"CRONUS International Ltd."}, []any{"Customer - Open Items"}, []any{"As of 11/28/2026"}, nil,
			[]any{"Posting Date", "Document Type", "Document No.", "Customer No.", "Customer Name", "Due Date", "Original Amount", "Remaining Amount"},
			[]any{day(2), "Invoice", "103101", "C00010", "Adatum Corporation", day(32), 6400.0, 6400.0},
			[]any{day(-40), "Invoice", "103050", "C00010", "Adatum Corporation", day(-10), 2000.0, 1200.0},
			[]any{day(10), "Credit Memo", "104012", "C00020", "Trey Research", day(10), -300.0, -300.0},
			[]any{"Total", nil, nil, nil, nil, nil, 8100.0, 7300.0}), "7,300.00"},
		{"FBL5N.csv", []byte("Customer Line Item Display\nCompany Code 3000\n" +
			";Account;Name 1;DocumentNo;Type;Doc. Date;Net due date;Amount in local currency;LCurr\n" +
			";300100;Bergmann KG;1800000101;DR;01.10.2026;31.10.2026;7.250,00;EUR\n" +
			";300100;Bergmann KG;1400000044;DZ;15.11.2026;15.11.2026;250,00-;EUR\n" +
			";300200;Lindqvist AB;1800000150;DR;10.11.2026;10.12.2026;980,40;EUR\n" +
			"*;300100;;;;;;7.000,00;EUR\n*;300200;;;;;;980,40;EUR\n**;;;;;;;7.980,40;EUR\n"), "7,980.40"},
	}
}

// TestEachSystemsExportImports (issue 43.3 and its "done when"): the files
// of QuickBooks (summary and detail), Xero (summary and detail), NetSuite,
// Business Central and SAP, as each system lays them out, import through
// the router as they are, the preview reconciling the file's own total
// with the total imported, on both engines.
func TestEachSystemsExportImports(t *testing.T) {
	workspaceEngines(t, func(t *testing.T, opts apptest.Options) {
		app := apptest.Start(t, opts)
		u := signInAccounts(t, app, "demo")
		for i, f := range systemFiles(t) {
			p := u.upload(f.name, f.data, fmt.Sprintf("2026-11-%02d", 20+i))
			if p.Status != http.StatusOK {
				t.Fatalf("%s: preview status %d: %.400s", f.name, p.Status, p.Text("main"))
			}
			want := "File total " + f.total + ", imported " + f.total + "."
			if got := p.Text("#reconciliation"); got != want {
				t.Errorf("%s: %q, want %q (refused: %.300s)", f.name, got, want, p.Text("#refused"))
			}
			to := mustRedirect(t, f.name, u.Submit(p, "form.import-confirm"))
			if !strings.HasPrefix(to, "/accounts?import=") {
				t.Errorf("%s: the import went to %q", f.name, to)
			}
		}
		accts := u.Get("/accounts?q=").Text("main")
		for _, name := range []string{"Harbourside Cafe", "Ridgeway University", "Marine Systems", "Tasman Freight : Nelson", "Trey Research", "Lindqvist AB"} {
			if !strings.Contains(accts, name) {
				t.Errorf("/accounts lacks %q", name)
			}
		}
	})
}
