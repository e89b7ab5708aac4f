package store

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

// BenchmarkVerifyAudit measures verifying a 100,000-entry log (the target
// is a second at most) on each engine. It asserts nothing about time;
// `make bench` prints the figures.
func BenchmarkVerifyAudit(b *testing.B) {
	const n = 100_000
	for _, e := range engines {
		b.Run(string(e), func(b *testing.B) {
			s := openTest(b, e, Config{Now: time.Now})
			fillAudit(b, s, auditTeam, n)
			for b.Loop() {
				v, err := s.VerifyAudit(b.Context(), auditTeam)
				if err != nil || !v.Intact || v.Entries != n {
					b.Fatalf("verdict %+v, %v", v, err)
				}
			}
			b.ReportMetric(float64(n), "entries")
		})
	}
}

// fillAudit writes n chained entries for team quickly: hashed here and
// inserted many rows per statement, then the head set, as appends would
// leave them.
func fillAudit(tb testing.TB, s *Store, auditTeam string, n int) {
	tb.Helper()
	const rows = 400 // 12 parameters each, within both engines' limits
	ctx := tb.Context()
	start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	prev := GenesisHash
	var e AuditEntry
	for first := 1; first <= n; first += rows {
		var q strings.Builder
		q.WriteString("INSERT INTO audit_entries (team, " + auditColumns + ") VALUES ")
		var args []any
		for seq := first; seq < first+rows && seq <= n; seq++ {
			e = AuditEntry{Seq: int64(seq), At: start.Add(time.Duration(seq) * time.Second), PrevHash: prev,
				AuditChange: AuditChange{Actor: fmt.Sprintf("analyst%d", seq%20), Action: "limit", Account: fmt.Sprintf("ACC-%05d", seq%5000),
					BusinessID: int32(1001 + seq%100), OldValue: "25000", NewValue: "50000", Reason: "Paid on time for two years; statements strong."}}
			e.Hash = AuditHash(prev, e)
			prev = e.Hash
			if seq > first {
				q.WriteString(", ")
			}
			p := len(args)
			fmt.Fprintf(&q, "($%d, $%d, $%d, $%d, $%d, $%d, $%d, $%d, $%d, $%d, $%d, $%d)",
				p+1, p+2, p+3, p+4, p+5, p+6, p+7, p+8, p+9, p+10, p+11, p+12)
			args = append(args, auditTeam, e.Seq, e.At.UnixMicro(), e.Actor, e.Action, e.Account, int64(e.BusinessID),
				e.OldValue, e.NewValue, e.Reason, e.PrevHash, e.Hash)
		}
		if _, err := s.w.ExecContext(ctx, q.String(), args...); err != nil {
			tb.Fatal(err)
		}
	}
	_, err := s.w.ExecContext(ctx, "INSERT INTO audit_heads (team, seq, at, hash) VALUES ($1, $2, $3, $4)",
		auditTeam, e.Seq, e.At.UnixMicro(), e.Hash)
	if err != nil {
		tb.Fatal(err)
	}
}
