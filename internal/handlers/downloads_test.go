package handlers_test

import (
	"bytes"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/xuri/excelize/v2"

	"creditdash/internal/apptest"
	"creditdash/internal/store"
)

// pieces is a response that keeps what it is sent and the largest single
// write: a download built in memory and sent at once arrives as one
// write of its whole size.
type pieces struct {
	header  http.Header
	status  int
	body    bytes.Buffer
	largest int
}

func (p *pieces) Header() http.Header { return p.header }

func (p *pieces) WriteHeader(status int) {
	if p.status == 0 {
		p.status = status
	}
}

func (p *pieces) Write(b []byte) (int, error) {
	p.WriteHeader(http.StatusOK)
	p.largest = max(p.largest, len(b))
	return p.body.Write(b)
}

// download serves path inside the server to the signed-in user.
func download(t *testing.T, app *apptest.App, u *apptest.User, path string) *pieces {
	t.Helper()
	req := httptest.NewRequest(http.MethodGet, path, nil)
	for _, c := range u.Cookies() {
		req.AddCookie(c)
	}
	p := &pieces{header: http.Header{}}
	app.Handler.ServeHTTP(p, req)
	if p.status != http.StatusOK {
		t.Fatalf("GET %s: status %d, %.300s", path, p.status, p.body.String())
	}
	return p
}

// wantStreamed fails unless the download reached the response in pieces
// of at most 64 KiB, each a small share of a body big enough to tell.
func wantStreamed(t *testing.T, path string, p *pieces, atLeast int) {
	t.Helper()
	if n := p.body.Len(); n < atLeast || p.largest > 64<<10 || p.largest > n/4 {
		t.Errorf("GET %s: %d bytes (want at least %d), the largest write %d: built whole, not streamed", path, n, atLeast, p.largest)
	}
}

// TestTeamDownloadsStream: accounts.csv and accounts.xlsx of 3,000
// accounts reach the response row by row (never one write of the whole
// file), hold every account, and the workbook opens.
func TestTeamDownloadsStream(t *testing.T) {
	app := apptest.Start(t, apptest.Options{})
	const n = 3000
	lines := make([]store.LedgerLine, n)
	for i := range lines {
		bal := float64(i*7919%2_000_000 + 5000)
		limit := bal * 1.2
		lines[i] = store.LedgerLine{Account: fmt.Sprintf("C%06d", i), Name: fmt.Sprintf("Customer %x", uint64(i)*0x9E3779B97F4A7C15),
			BusinessID: int32(1001 + i%520), Balance: bal, Current: bal, ERPLimit: &limit}
	}
	asOf, _ := time.Parse(store.DateLayout, "2026-09-30")
	if _, err := app.Store.ImportLedger(t.Context(), team, store.ImportSpec{AsOf: asOf, Lines: lines}); err != nil {
		t.Fatal(err)
	}
	u := app.SignIn(t, "demo")
	csvFile := download(t, app, u, "/accounts.csv")
	wantStreamed(t, "/accounts.csv", csvFile, 128<<10)
	if got := strings.Count(csvFile.body.String(), "\n"); got != n+1 {
		t.Errorf("accounts.csv has %d lines, want %d", got, n+1)
	}
	book := download(t, app, u, "/accounts.xlsx")
	wantStreamed(t, "/accounts.xlsx", book, 128<<10)
	f, err := excelize.OpenReader(&book.body)
	if err != nil {
		t.Fatalf("accounts.xlsx: %v", err)
	}
	defer f.Close()
	rows, err := f.GetRows("Sheet1")
	if err != nil || len(rows) != n+1 || rows[0][0] != "account" {
		t.Errorf("accounts.xlsx: %d rows (want %d), %v", len(rows), n+1, err)
	}
}
