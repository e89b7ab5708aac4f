package handlers_test

import (
	"context"
	"crypto/sha256"
	"encoding/csv"
	"encoding/hex"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"
	"unicode"

	"creditdash/internal/apptest"
	"creditdash/internal/roles"
	"creditdash/internal/store"
)

// checkAuditCSVInGo is the independent check docs/team.md describes, as
// anyone would write it with Go's encoding/csv: read each row, take the
// apostrophe off a text cell that starts with one, recompute each hash from
// the cells and compare it with the row's hash and the next row's
// prev_hash. It returns how many rows it checked, or the first that fails.
func checkAuditCSVInGo(body string) (int, error) {
	rows, err := csv.NewReader(strings.NewReader(body)).ReadAll()
	if err != nil {
		return 0, err
	}
	prev := strings.Repeat("0", 64)
	for i, row := range rows[1:] {
		var content strings.Builder
		for _, cell := range row[:9] {
			cell = strings.TrimPrefix(cell, "'")
			content.WriteString(strconv.Itoa(len(cell)) + ":" + cell + "\n")
		}
		sum := sha256.Sum256([]byte("creditdash-audit-v1\n" + prev + "\n" + content.String()))
		if row[9] != prev || row[10] != hex.EncodeToString(sum[:]) {
			return i, fmt.Errorf("row %d (seq %s) does not match its hash", i+1, row[0])
		}
		prev = row[10]
	}
	return len(rows) - 1, nil
}

// auditCheckPy is the same check with Python's csv module.
const auditCheckPy = `import csv, hashlib, sys
with open(sys.argv[1], newline='', encoding='utf-8') as f:
    rows = list(csv.reader(f))
prev = '0' * 64
for i, row in enumerate(rows[1:], 1):
    content = ''
    for cell in row[:9]:
        if cell.startswith("'"):
            cell = cell[1:]
        content += '%d:%s\n' % (len(cell.encode('utf-8')), cell)
    h = hashlib.sha256(('creditdash-audit-v1\n' + prev + '\n' + content).encode('utf-8')).hexdigest()
    if row[9] != prev or row[10] != h:
        print('row %d (seq %s) does not match its hash' % (i, row[0]))
        sys.exit(1)
    prev = row[10]
print('intact %d' % (len(rows) - 1))
`

// checkAuditCSVInPython runs auditCheckPy on the download; ok false when
// python3 is not installed.
func checkAuditCSVInPython(t *testing.T, body string) (out string, ok bool) {
	t.Helper()
	py, err := exec.LookPath("python3")
	if err != nil {
		return "", false
	}
	dir := t.TempDir()
	csvFile, script := filepath.Join(dir, "audit.csv"), filepath.Join(dir, "check.py")
	if err := os.WriteFile(csvFile, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(script, []byte(auditCheckPy), 0o600); err != nil {
		t.Fatal(err)
	}
	b, err := exec.Command(py, script, csvFile).CombinedOutput()
	if err != nil {
		t.Errorf("python3's check of /audit.csv: %v: %s", err, b)
	}
	return strings.TrimSpace(string(b)), true
}

// TestAuditCSVCheckedByGoAndPython: entries with line breaks as browsers
// send them (CR LF), lone CRs, tabs, a refused path typed with a line feed
// and a formula, and text that reorders itself are stored cleaned (line
// breaks as LF, no other control character), so the documented check of
// /audit.csv recomputes every hash alike with Go's CSV reader and Python's.
func TestAuditCSVCheckedByGoAndPython(t *testing.T) {
	decisionApps(t, func(t *testing.T, app *apptest.App) {
		dev := signInAccounts(t, app, "developer")
		importLedger(t, dev, "aging.csv", []byte(ledgerCSV), "2026-09-30")
		mustRedirect(t, "request", dev.post("/businesses/1002/limit-requests", "account", "A-2", "amount", "20000",
			"reason", "New contract\r\nsigned in March\rand\tthen some"))
		trade := signInAccounts(t, app, "trade")
		wantRefused(t, "an auditor's note on a typed path", trade.post("/notes%0A=HYPERLINK(%22x%22)", "text", "x"), "Auditors read everything")
		if _, err := app.Store.AppendAudit(context.Background(), apptest.WorkspaceService, store.AuditChange{
			Actor: "mallory", Action: "limit", Account: "ACC\u202e1\r\n", OldValue: "a\x1bb", NewValue: "'quoted\r", Reason: "=1+1\u2028next"}); err != nil {
			t.Fatal(err)
		}
		p := trade.Get("/audit.csv")
		if p.Status != http.StatusOK {
			t.Fatalf("GET /audit.csv: %d", p.Status)
		}
		rows, err := csv.NewReader(strings.NewReader(p.Body)).ReadAll()
		if err != nil {
			t.Fatal(err)
		}
		for _, row := range rows[1:] {
			for i, cell := range row[:9] {
				lines := i >= 6 // old_value, new_value, reason may have lines
				if strings.ContainsFunc(cell, func(r rune) bool {
					return (unicode.IsControl(r) && !(lines && r == '\n')) || r == '\u202e' || r == '\u2028'
				}) {
					t.Errorf("seq %s: cell %s = %q holds a control character", row[0], store.AuditCSVHeader[i], cell)
				}
			}
		}
		if !strings.Contains(p.Body, "New contract\nsigned in March\nand then some") {
			t.Errorf("the request's reason is not kept with its lines as LF:\n%s", p.Body)
		}
		if !strings.Contains(p.Body, "/notes%0A=HYPERLINK") {
			t.Errorf("the refused path is not logged as typed, its line feed escaped:\n%s", p.Body)
		}
		n, err := checkAuditCSVInGo(p.Body)
		if err != nil {
			t.Errorf("Go's check of /audit.csv: %v", err)
		}
		out, ok := checkAuditCSVInPython(t, p.Body)
		if !ok {
			t.Skip("python3 is not installed: only Go's half of the independent check ran")
		}
		if want := fmt.Sprintf("intact %d", n); out != want {
			t.Errorf("python3's check of /audit.csv says %q, Go's %q", out, want)
		}
	})
}

// An auditor who sends 60 forbidden requests in a minute writes
// store.MaxRefusalsLogged entries, each 403 all the same; the rest are
// summed into one entry by the team's next write after that minute.
func TestAuditRefusalFloodBounded(t *testing.T) {
	table, err := roles.Parse("test", "demo=manager:250000,trade=auditor", 0)
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	var ahead atomic.Int64
	app := apptest.Start(t, apptest.Options{Roles: table, Now: func() time.Time { return start.Add(time.Duration(ahead.Load())) }})
	trade := signInAccounts(t, app, "trade")
	for i := range 60 {
		if p := trade.post("/watchlist", "business", strconv.Itoa(1001+i%3)); p.Status != http.StatusForbidden {
			t.Fatalf("refusal %d: status %d, want 403", i+1, p.Status)
		}
	}
	refused := func() [][]string {
		rows, err := csv.NewReader(strings.NewReader(trade.Get("/audit.csv?action=refused").Body)).ReadAll()
		if err != nil {
			t.Fatal(err)
		}
		return rows[1:]
	}
	if got := refused(); len(got) != store.MaxRefusalsLogged {
		t.Fatalf("%d refusals logged in the minute, want %d", len(got), store.MaxRefusalsLogged)
	}
	ahead.Store(int64(time.Minute))
	demo := signInAccounts(t, app, "demo")
	mustRedirect(t, "a change of the team", demo.post("/settings/supplier-category", "category", "5000"))
	got := refused()
	if len(got) != store.MaxRefusalsLogged+1 || got[len(got)-1][2] != "trade" || got[len(got)-1][7] != "and 50 more refusals" {
		t.Errorf("after the minute, the refusals logged end with %q, want trade's sum of 50 more", got[len(got)-1])
	}
}
