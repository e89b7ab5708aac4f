package api_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"testing"
	"time"

	"creditdash/internal/api"
	"creditdash/internal/apptest"
	"creditdash/internal/store"
	"creditdash/internal/store/storetest"
)

// benchAccounts is the team of the target: 50,000 accounts.
const benchAccounts = 50000

// BenchmarkAPIAccounts50k is GET /api/v1/accounts, 100 a page, walked by
// cursor through a team of 50,000 accounts (two ledgers, aged balances,
// half of them with a limit in force), as an ERP's nightly sync reads
// them: the 500 pages' p50, p95 and the whole walk (issue 46.6: p50 at
// most 30 ms). Inside the server, without a network.
func BenchmarkAPIAccounts50k(b *testing.B) { benchWalk(b, apptest.Options{}) }

// BenchmarkAPIAccounts50kPostgres is the same walk on PostgreSQL (under
// scripts/test-postgres.sh; skipped without it).
func BenchmarkAPIAccounts50kPostgres(b *testing.B) {
	benchWalk(b, apptest.Options{DatabaseURL: storetest.Database(b)})
}

func benchWalk(b *testing.B, opts apptest.Options) {
	app := apptest.Start(b, opts)
	ctx := b.Context()
	a := store.Analyst{Service: apptest.WorkspaceService, User: "demo"}
	for i, d := range []string{"2026-06-30", "2026-09-30"} {
		lines := make([]store.LedgerLine, benchAccounts)
		for j := range lines {
			bal := float64((j*7919+i*104729)%2_000_000 + 5000)
			erp, terms := bal*1.2, 30
			lines[j] = store.LedgerLine{Account: fmt.Sprintf("C%06d", j), Name: fmt.Sprintf("Customer %d Inc", j), BusinessID: int32(1001 + j%520),
				Owner: fmt.Sprintf("analyst%d", j%7), Balance: bal, Current: bal * 0.8, Days1to30: bal * 0.1, Days31to60: bal * 0.05,
				Days61to90: bal * 0.05, ERPLimit: &erp, Terms: &terms}
		}
		asOf, _ := time.Parse(store.DateLayout, d)
		if _, err := app.Store.ImportLedger(ctx, a, store.ImportSpec{AsOf: asOf, Lines: lines}); err != nil {
			b.Fatal(err)
		}
	}
	// Limits in force come only from decisions: the team's first 200
	// (a realistic share would take minutes of single requests to seed).
	for j := range 200 {
		if _, err := app.Store.RequestLimit(ctx, a, store.RequestSpec{Account: fmt.Sprintf("C%06d", j*250), Amount: 50000,
			Reason: "opening limit", Authority: 1e9}); err != nil {
			b.Fatal(err)
		}
	}
	// Two tokens, so that the walk's 500 requests stay within each one's
	// rate (300 a minute).
	var secrets []string
	for i := range 2 {
		secret, hash, prefix := api.NewSecret()
		if _, err := app.Store.CreateToken(ctx, a, store.TokenSpec{Name: fmt.Sprint("bench ", i), Scope: store.ScopeRead,
			Expires: time.Now().Add(time.Hour), Hash: hash, Prefix: prefix}); err != nil {
			b.Fatal(err)
		}
		secrets = append(secrets, secret)
	}
	for b.Loop() {
		var times []time.Duration
		start := time.Now()
		next, n := api.Prefix+"/accounts?limit=100", 0
		for next != "" {
			req := httptest.NewRequest(http.MethodGet, next, nil)
			req.Header.Set("Authorization", "Bearer "+secrets[len(times)%2])
			rec := httptest.NewRecorder()
			t0 := time.Now()
			app.Handler.ServeHTTP(rec, req)
			times = append(times, time.Since(t0))
			if rec.Code != http.StatusOK {
				b.Fatalf("GET %s: %d %s", next, rec.Code, rec.Body)
			}
			var page api.AccountPage
			if err := json.Unmarshal(rec.Body.Bytes(), &page); err != nil {
				b.Fatal(err)
			}
			n += len(page.Accounts)
			next = ""
			if page.Next != nil {
				next = *page.Next
			}
		}
		walk := time.Since(start)
		if n != benchAccounts {
			b.Fatalf("the walk read %d accounts", n)
		}
		slices.Sort(times)
		b.ReportMetric(float64(len(times)), "pages")
		b.ReportMetric(float64(times[len(times)/2].Microseconds())/1000, "ms-p50")
		b.ReportMetric(float64(times[len(times)*95/100].Microseconds())/1000, "ms-p95")
		b.ReportMetric(walk.Seconds(), "s-walk")
	}
}
