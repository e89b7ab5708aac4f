package browsertest

import (
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"creditdash/internal/apptest"
)

// TestImportAccountsExposure is the credit team's morning in the browser:
// upload an aging report through the file input and see the preview name
// the bad row; import it and land on the accounts with what was done;
// then import the demo's sample ledgers from the import page and open the
// exposure page, whose chart draws and whose bridge adds up.
func TestImportAccountsExposure(t *testing.T) {
	app := apptest.Start(t, apptest.Options{})
	b := Start(t)
	openSignedIn(t, app, b, "/accounts/import")

	file := filepath.Join(t.TempDir(), "aging.csv")
	csv := "Customer No.,Name,Business Id,Total Due,Current,1-30,Credit Limit,Terms\n" +
		"A-1,Westbridge,1001,\"1,500.00\",\"1,000.00\",500.00,\"1,000.00\",Net 30\n" +
		"A-2,Bad total,1002,900,100,0,1000,30\n"
	if err := os.WriteFile(file, []byte(csv), 0o600); err != nil {
		t.Fatal(err)
	}
	b.step("choose the file", chromedp.SetUploadFiles(chromedp.CSS(`#ledger-file`), []string{file}))
	b.Fill("#as-of", "09302026")
	if status := b.ClickNavigate(".import-form button[type=submit]"); status != http.StatusOK {
		t.Fatalf("preview: status %d", status)
	}
	if got := b.Text("table.import-bad tbody"); !strings.Contains(got, "3") || !strings.Contains(got, "add up") {
		t.Errorf("refused rows = %q, want row 3", got)
	}
	if status := b.ClickNavigate(".import-confirm button[type=submit]"); status != http.StatusOK {
		t.Fatalf("import: status %d", status)
	}
	if !strings.HasPrefix(b.URL(), app.URL+"/accounts?import=") || !strings.Contains(b.Text(".flash"), "1 account imported, 1 row skipped") {
		t.Fatalf("after import: at %q, flash %q", b.URL(), b.Text(".flash"))
	}
	// The file's limit is the ERP's: shown beside the limit in force and
	// flagged, never adopted, so the account is not over a limit.
	if got := b.Text("table.accounts tbody"); !strings.Contains(got, "Westbridge") || !strings.Contains(got, "differs") || strings.Contains(got, "over limit") {
		t.Errorf("accounts = %q", got)
	}

	for _, sample := range []string{"demo-ledger-3-months-earlier.csv", "demo-ledger-current.csv"} {
		b.Navigate(app.URL + "/accounts/import")
		if status := b.ClickNavigate(`button[name="sample"][value="` + sample + `"]`); status != http.StatusOK {
			t.Fatalf("sample %s preview: status %d", sample, status)
		}
		if status := b.ClickNavigate(".import-confirm button[type=submit]"); status != http.StatusOK {
			t.Fatalf("sample %s import: status %d", sample, status)
		}
	}
	if status := b.ClickNavigate(`form[action="/accounts/scores"] button`); status != http.StatusOK {
		t.Fatalf("fetch scores: status %d", status)
	}
	b.Navigate(app.URL + "/portfolio/exposure")
	checkChartsDrawn(t, b, 1)
	if got := b.Text("table.bridge"); !strings.Contains(got, "the four parts") {
		t.Errorf("bridge = %q", got)
	}
	b.NoConsoleErrors(t)
	b.NoCSPViolations(t)
}
