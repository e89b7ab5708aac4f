package handlers_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/xuri/excelize/v2"

	"creditdash/internal/apptest"
)

// xlsxLedger is a workbook of an aging report: two good rows and one whose
// balance is a formula.
func xlsxLedger(t *testing.T) []byte {
	t.Helper()
	f := excelize.NewFile()
	defer f.Close()
	rows := [][]any{
		{"Customer No.", "Name", "Business Id", "Total Due", "Current", "Credit Limit"},
		{"X-1", "Westbridge", 1001, 1500.0, 1500.0, 3000.0},
		{"X-2", "Northgate", 1002, 800.0, 800.0, 500.0},
		{"X-3", "Formula Ltd", 1003, nil, 100.0, 1000.0},
	}
	for i, r := range rows {
		cell, _ := excelize.CoordinatesToCellName(1, i+1)
		if err := f.SetSheetRow("Sheet1", cell, &r); err != nil {
			t.Fatal(err)
		}
	}
	if err := f.SetCellFormula("Sheet1", "D4", "=E4*1"); err != nil {
		t.Fatal(err)
	}
	b, err := f.WriteToBuffer()
	if err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// TestImportXLSX: an XLSX ledger previews with its formula row refused and
// named, writes nothing until confirmed, then imports its good rows; a
// broken workbook is refused with a message.
func TestImportXLSX(t *testing.T) {
	workspaceEngines(t, func(t *testing.T, opts apptest.Options) {
		app := apptest.Start(t, opts)
		u := signInAccounts(t, app, "demo")
		p := u.upload("aging.xlsx", xlsxLedger(t), "2026-09-30")
		if p.Status != http.StatusOK {
			t.Fatalf("preview: status = %d; %.500s", p.Status, p.Text("main"))
		}
		if bad := p.Text("table.import-bad tbody"); !strings.Contains(bad, "4") || !strings.Contains(bad, "formula") {
			t.Errorf("refused rows = %q, want row 4 and its formula", bad)
		}
		if dates, err := app.Store.LedgerDates(t.Context(), team); err != nil || len(dates) != 0 {
			t.Fatalf("after the preview the team has ledgers %v (%v)", dates, err)
		}
		page := u.Get(mustRedirect(t, "import", u.Submit(p, "form.import-confirm")))
		if flash := page.Text(".flash"); !strings.Contains(flash, "2 accounts imported, 1 row skipped") {
			t.Errorf("flash = %q", flash)
		}
		if got := page.Text("table.accounts tbody"); !strings.Contains(got, "X-1") || !strings.Contains(got, "X-2") || strings.Contains(got, "X-3") {
			t.Errorf("accounts = %q, want X-1 and X-2 only", got)
		}
		broken := u.upload("broken.xlsx", append([]byte("PK\x03\x04"), make([]byte, 64)...), "2026-09-30")
		if broken.Status != http.StatusUnprocessableEntity || broken.Text("#file-error") == "" {
			t.Errorf("a broken workbook: status = %d, message %q; want 422 with a message", broken.Status, broken.Text("#file-error"))
		}
	})
}
