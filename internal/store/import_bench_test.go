package store

import (
	"fmt"
	"testing"
	"time"
)

// ledgerLines are n lines over 520 businesses, every one with a limit and
// terms, balances varying with seed (so a later ledger changes every
// limit, as the audit then logs).
func ledgerLines(n, seed int) []LedgerLine {
	lines := make([]LedgerLine, n)
	for i := range lines {
		bal := float64((i*7919+seed*104729)%2_000_000 + 5000)
		limit, terms := bal*1.2, 30
		lines[i] = LedgerLine{Account: fmt.Sprintf("C%06d", i), Name: fmt.Sprintf("Customer %d Inc", i), BusinessID: int32(1001 + i%520),
			Balance: bal, Current: bal * 0.8, Days1to30: bal * 0.1, Days31to60: bal * 0.05, Days61to90: bal * 0.03, DaysOver90: bal * 0.02,
			ERPLimit: &limit, Terms: &terms}
	}
	return lines
}

// BenchmarkImportLedger50k imports ledgers of MaxAccounts lines on each
// engine: the first into an empty team (every account and limit new),
// each next one a month later (every account kept, every limit changed).
// It reports the seconds per import; nothing is asserted.
func BenchmarkImportLedger50k(b *testing.B) {
	for _, e := range engines {
		b.Run(string(e), func(b *testing.B) {
			s := openTest(b, e, Config{Now: time.Now})
			ctx := b.Context()
			b.ReportAllocs()
			var took time.Duration
			for i := 0; b.Loop(); i++ {
				b.StopTimer()
				spec := ImportSpec{AsOf: time.Date(2026, time.Month(1+i%12), 28, 0, 0, 0, 0, time.UTC), File: "aging.csv",
					Lines: ledgerLines(MaxAccounts, i)}
				b.StartTimer()
				start := time.Now()
				rec, err := s.ImportLedger(ctx, alice, spec)
				took += time.Since(start)
				if err != nil {
					b.Fatal(err)
				}
				if rec.Imported != MaxAccounts {
					b.Fatalf("imported %d", rec.Imported)
				}
			}
			b.ReportMetric(took.Seconds()/float64(b.N), "s/import")
		})
	}
}
