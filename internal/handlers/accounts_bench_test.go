package handlers_test

import (
	"bytes"
	"fmt"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"creditdash/internal/apptest"
	"creditdash/internal/store"
	"creditdash/internal/store/storetest"
)

// benchAccounts is the team size the figures are for: the bound.
const benchAccounts = store.MaxAccounts

// ledgerOf writes a ledger of n accounts over the demo's businesses as an
// ERP exports it, balances varying with seed.
func ledgerOf(n, seed int) []byte {
	var b bytes.Buffer
	b.WriteString("Customer No.,Name,Business Id,Total Due,Current,1-30,31-60,61-90,Over 90,Credit Limit,Terms\n")
	for i := range n {
		bal := float64((i*7919+seed*104729)%2_000_000 + 5000)
		cur := bal * 0.8
		fmt.Fprintf(&b, "C%06d,Customer %d Inc,%d,\"%.2f\",\"%.2f\",%.2f,%.2f,%.2f,%.2f,\"%.2f\",Net 30\n",
			i, i, 1001+i%520, bal, cur, bal*0.1, bal*0.05, bal*0.03, bal-cur-bal*0.18, bal*1.2)
	}
	return b.Bytes()
}

// peakHeap samples the heap in use every millisecond until stop, and
// returns its highest value.
func peakHeap() (stop func() uint64) {
	var peak atomic.Uint64
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		var m runtime.MemStats
		for {
			runtime.ReadMemStats(&m)
			if m.HeapInuse > peak.Load() {
				peak.Store(m.HeapInuse)
			}
			select {
			case <-done:
				return
			case <-time.After(time.Millisecond):
			}
		}
	})
	return func() uint64 { close(done); wg.Wait(); return peak.Load() }
}

// BenchmarkAccountsImport50k imports a 50,000-row CSV through the router,
// preview and import, and reports the seconds and the heap's peak growth
// over the idle dashboard (make bench prints it; nothing is asserted).
func BenchmarkAccountsImport50k(b *testing.B) { benchImport(b, apptest.Options{}) }

// BenchmarkAccountsImport50kPostgres is the same import with the
// workspace on PostgreSQL (under scripts/test-postgres.sh; skipped
// without it).
func BenchmarkAccountsImport50kPostgres(b *testing.B) {
	benchImport(b, apptest.Options{DatabaseURL: storetest.Database(b)})
}

// benchImport previews and imports a 50,000-row CSV on the app opts
// starts, and reports the seconds and the heap's peak growth.
func benchImport(b *testing.B, opts apptest.Options) {
	app := apptest.Start(b, opts)
	u := app.SignIn(b, "demo")
	tok := u.Token("/accounts/import")
	data := ledgerOf(benchAccounts, 1)
	for b.Loop() {
		runtime.GC()
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		base := m.HeapInuse
		stop := peakHeap()
		start := time.Now()
		var body bytes.Buffer
		w := multipart.NewWriter(&body)
		_ = w.WriteField("_csrf", tok)
		_ = w.WriteField("as_of", "2026-09-30")
		fw, _ := w.CreateFormFile("file", "aging.csv")
		_, _ = fw.Write(data)
		_ = w.Close()
		req, _ := http.NewRequest(http.MethodPost, app.URL+"/accounts/import", &body)
		req.Header.Set("Content-Type", w.FormDataContentType())
		p := u.Do(req)
		if p.Status != http.StatusOK {
			b.Fatalf("preview: %d %.300s", p.Status, p.Text("main"))
		}
		if r := u.Submit(p, "form.import-confirm"); r.Status != http.StatusSeeOther {
			b.Fatalf("import: %d %.300s", r.Status, r.Text("main"))
		}
		secs := time.Since(start).Seconds()
		peak := stop()
		b.ReportMetric(secs, "s/import")
		b.ReportMetric(float64(peak-min(peak, base))/(1<<20), "MB-peak-growth")
	}
}

// seedTeam stores two ledgers of benchAccounts accounts and known scores
// for every business, straight through the store.
func seedTeam(b *testing.B, app *apptest.App) {
	b.Helper()
	ctx := b.Context()
	a := store.Analyst{Service: apptest.WorkspaceService, User: "demo"}
	for i, d := range []string{"2026-06-30", "2026-09-30"} {
		lines := make([]store.LedgerLine, benchAccounts)
		for j := range lines {
			bal := float64((j*7919+i*104729)%2_000_000 + 5000)
			limit := bal * 1.2
			lines[j] = store.LedgerLine{Account: fmt.Sprintf("C%06d", j), Name: fmt.Sprintf("Customer %d Inc", j), BusinessID: int32(1001 + j%520),
				Balance: bal, Current: bal, ERPLimit: &limit}
		}
		asOf, _ := time.Parse(store.DateLayout, d)
		if _, err := app.Store.ImportLedger(ctx, a, store.ImportSpec{AsOf: asOf, Lines: lines}); err != nil {
			b.Fatal(err)
		}
	}
	for id := int32(1001); id < 1521; id++ {
		risk := []store.ScoreMonth{{Month: 202606, Value: float64(1 + id%10)}, {Month: 202609, Value: float64(1 + (id+1)%10)}}
		o := store.Observation{BusinessID: id, Risk: risk, Fetched: time.Now(), NAICS: "445110", NAICSTitle: "Supermarkets",
			Latest: map[store.Score]store.KnownScore{store.ScoreRisk: {Value: risk[1].Value, Month: 202609, Fetched: time.Now()},
				store.ScoreZ: {Value: float64(id%7) - 1, Month: 202609, Fetched: time.Now()}}}
		if _, err := app.Store.RecordScores(ctx, a, o); err != nil {
			b.Fatal(err)
		}
	}
}

// p50 serves path n times inside the server and reports the median.
func p50(b *testing.B, app *apptest.App, cookies []*http.Cookie, path string, n int) {
	b.Helper()
	var times []time.Duration
	for range n {
		req := httptest.NewRequest(http.MethodGet, path, nil)
		req.Header.Set("Accept-Encoding", "gzip")
		for _, c := range cookies {
			req.AddCookie(c)
		}
		rec := httptest.NewRecorder()
		start := time.Now()
		app.Handler.ServeHTTP(rec, req)
		times = append(times, time.Since(start))
		if rec.Code != http.StatusOK {
			b.Fatalf("GET %s: status %d", path, rec.Code)
		}
	}
	// The first is the page right after a team write (the seeding): the
	// figures are worked out then, and kept for the rest.
	b.ReportMetric(float64(times[0].Microseconds())/1000, "ms-first")
	slices.Sort(times)
	b.ReportMetric(float64(times[len(times)/2].Microseconds())/1000, "ms-p50")
}

// BenchmarkAccountsPage50k is /accounts's first page with 50,000 accounts
// (two ledgers, every business scored): the median of 20, and the first of
// them, which works out the figures the others find kept.
func BenchmarkAccountsPage50k(b *testing.B) {
	app := apptest.Start(b, apptest.Options{})
	seedTeam(b, app)
	u := app.SignIn(b, "demo")
	for b.Loop() {
		p50(b, app, u.Cookies(), "/accounts", 20)
	}
}

// BenchmarkExposure50k is /portfolio/exposure on the same team, bridge
// included: the median of 20.
func BenchmarkExposure50k(b *testing.B) {
	app := apptest.Start(b, apptest.Options{})
	seedTeam(b, app)
	u := app.SignIn(b, "demo")
	for b.Loop() {
		p50(b, app, u.Cookies(), "/portfolio/exposure", 20)
	}
}

// discard is a response that keeps nothing of the body, so a download's
// cost is the server's alone.
type discard struct {
	header http.Header
	status int
	n      int
}

func (d *discard) Header() http.Header { return d.header }
func (d *discard) WriteHeader(s int) {
	if d.status == 0 {
		d.status = s
	}
}
func (d *discard) Write(p []byte) (int, error) {
	d.WriteHeader(http.StatusOK)
	d.n += len(p)
	return len(p), nil
}

// BenchmarkAccountsXLSX50k downloads accounts.xlsx of 50,000 accounts (the
// figures already kept, as after the page) and reports the heap's peak
// growth over the idle dashboard and the file's size (nothing asserted;
// TestTeamDownloadsStream holds the streaming).
func BenchmarkAccountsXLSX50k(b *testing.B) {
	app := apptest.Start(b, apptest.Options{})
	seedTeam(b, app)
	u := app.SignIn(b, "demo")
	p50(b, app, u.Cookies(), "/accounts", 1)
	for b.Loop() {
		runtime.GC()
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		base := m.HeapInuse
		stop := peakHeap()
		req := httptest.NewRequest(http.MethodGet, "/accounts.xlsx", nil)
		for _, c := range u.Cookies() {
			req.AddCookie(c)
		}
		d := &discard{header: http.Header{}}
		app.Handler.ServeHTTP(d, req)
		peak := stop()
		if d.status != http.StatusOK {
			b.Fatalf("accounts.xlsx: status %d", d.status)
		}
		b.ReportMetric(float64(peak-min(peak, base))/(1<<20), "MB-peak-growth")
		b.ReportMetric(float64(d.n)/(1<<20), "MB-file")
	}
}

// BenchmarkAfterOneWrite50k is the first /accounts and the first
// /portfolio/exposure after one write at 50,000 accounts: a calculator's
// inputs saved for one account, after which the kept figures are brought
// forward (that account worked out again), against the same pages after a
// write that touches every account (the team's loss given default set to
// what it was), after which they are worked out whole. Both in one run,
// alternating, so a busy machine weighs on both alike; the medians of the
// rounds (the one-account write's own included) and the ratio are
// reported (nothing is asserted).
func BenchmarkAfterOneWrite50k(b *testing.B) {
	app := apptest.Start(b, apptest.Options{})
	seedTeam(b, app)
	u := app.SignIn(b, "demo")
	a := store.Analyst{Service: apptest.WorkspaceService, User: "demo"}
	first := func(path string) time.Duration {
		req := httptest.NewRequest(http.MethodGet, path, nil)
		req.Header.Set("Accept-Encoding", "gzip")
		for _, c := range u.Cookies() {
			req.AddCookie(c)
		}
		rec := httptest.NewRecorder()
		start := time.Now()
		app.Handler.ServeHTTP(rec, req)
		if rec.Code != http.StatusOK {
			b.Fatalf("GET %s: status %d", path, rec.Code)
		}
		return time.Since(start)
	}
	first("/portfolio/exposure") // the figures kept once
	const rounds = 5
	var accUpd, expUpd, accWhole, expWhole, writes []time.Duration
	for b.Loop() {
		for i := range rounds {
			updated := app.Stats().TeamFiguresUpdated
			in := store.LimitInputs{MonthlySales: float64(40_000 + i), MonthsAllowed: 2, LossBudget: 5000}
			start := time.Now()
			if err := app.Store.SaveLimitInputs(b.Context(), a, fmt.Sprintf("C%06d", 7*i), in); err != nil {
				b.Fatal(err)
			}
			writes = append(writes, time.Since(start))
			accUpd, expUpd = append(accUpd, first("/accounts")), append(expUpd, first("/portfolio/exposure"))
			if app.Stats().TeamFiguresUpdated != updated+1 {
				b.Fatal("the figures were not brought forward after one account's write")
			}
			worked := app.Stats().TeamFiguresWorkedOut
			if err := app.Store.SetLGD(b.Context(), a, store.DefaultLGD); err != nil {
				b.Fatal(err)
			}
			accWhole, expWhole = append(accWhole, first("/accounts")), append(expWhole, first("/portfolio/exposure"))
			if app.Stats().TeamFiguresWorkedOut != worked+1 {
				b.Fatal("the figures were not worked out whole after a write to every account")
			}
		}
	}
	median := func(ds []time.Duration) float64 {
		slices.Sort(ds)
		return float64(ds[len(ds)/2].Microseconds()) / 1000
	}
	mau, meu, maw, mew := median(accUpd), median(expUpd), median(accWhole), median(expWhole)
	b.ReportMetric(median(writes), "ms-write")
	b.ReportMetric(mau, "ms-accounts-updated")
	b.ReportMetric(maw, "ms-accounts-whole")
	b.ReportMetric(meu, "ms-exposure-updated")
	b.ReportMetric(mew, "ms-exposure-whole")
	b.ReportMetric(mew/meu, "x-exposure-whole/updated")
}

// BenchmarkReviewsPage50k is a page of /reviews on the same team, the
// schedule already kept (as in figure 7's flood): one page an op, so
// -benchmem gives what each page allocates (nothing asserted).
func BenchmarkReviewsPage50k(b *testing.B) {
	app := apptest.Start(b, apptest.Options{})
	seedTeam(b, app)
	u := app.SignIn(b, "demo")
	p50(b, app, u.Cookies(), "/reviews", 1)
	i := 0
	for b.Loop() {
		i++
		req := httptest.NewRequest(http.MethodGet, fmt.Sprintf("/reviews?overdue=%d", 1+i%20), nil)
		req.Header.Set("Accept-Encoding", "gzip")
		for _, c := range u.Cookies() {
			req.AddCookie(c)
		}
		rec := httptest.NewRecorder()
		app.Handler.ServeHTTP(rec, req)
		if rec.Code != http.StatusOK {
			b.Fatalf("GET /reviews: status %d", rec.Code)
		}
	}
}
