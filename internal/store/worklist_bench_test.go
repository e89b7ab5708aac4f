package store

import (
	"fmt"
	"testing"
	"time"
)

// BenchmarkWorklistQuery50k is the worklist's candidate query on a team of
// MaxAccounts accounts over 520 scored businesses, none reviewed (every
// account is a candidate): the query alone, without the page.
func BenchmarkWorklistQuery50k(b *testing.B) {
	s := openTest(b, SQLite, Config{Now: time.Now})
	ctx := b.Context()
	lines := make([]LedgerLine, MaxAccounts)
	for j := range lines {
		bal := float64(j%2_000_000 + 5000)
		limit := bal * 1.2
		lines[j] = LedgerLine{Account: fmt.Sprintf("C%06d", j), Name: "Customer", BusinessID: int32(1001 + j%520), Balance: bal, Current: bal, Limit: &limit}
	}
	if _, err := s.ImportLedger(ctx, alice, ImportSpec{AsOf: date("2026-09-30"), Lines: lines}); err != nil {
		b.Fatal(err)
	}
	for id := int32(1001); id < 1521; id++ {
		if _, err := s.RecordScores(ctx, alice, Observation{BusinessID: id, Fetched: time.Now(),
			Latest: map[Score]KnownScore{ScoreRisk: {Value: float64(1 + id%10), Month: 202609, Fetched: time.Now()}}}); err != nil {
			b.Fatal(err)
		}
	}
	rows, err := s.r.QueryContext(ctx, "EXPLAIN QUERY PLAN "+worklistSQL, alice.Service, "", "alice", 0.0, int64(0), 2.5, 0.1)
	if err != nil {
		b.Fatal(err)
	}
	for rows.Next() {
		var id, parent, notused int
		var detail string
		_ = rows.Scan(&id, &parent, &notused, &detail)
		b.Logf("%d %d %s", id, parent, detail)
	}
	rows.Close()
	q := WorklistQuery{ReviewedBefore: time.Now().AddDate(0, 0, -23), HoldBelow: 2.5, OverdueShare: 0.1}
	for b.Loop() {
		start := time.Now()
		ws, err := s.Worklist(ctx, alice, q)
		if err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(float64(time.Since(start).Milliseconds()), "ms")
		b.ReportMetric(float64(len(ws)), "candidates")
	}
}
