package store

import (
	"fmt"
	"testing"
)

// The reads of a page on SQLite go through statements prepared once, and
// the statements kept stay within their bound whatever is asked.
func TestReadsKeepPreparedStatementsBounded(t *testing.T) {
	s := openTest(t, SQLite, Config{DataDir: t.TempDir()})
	ctx := t.Context()
	must(t, s.Watch(ctx, alice, 1001, "Harbor Freight"))
	for range 3 {
		if ok, err := s.IsWatched(ctx, alice, 1001); err != nil || !ok {
			t.Fatalf("IsWatched = %v, %v; want true", ok, err)
		}
	}
	if n := len(s.r.stmts); n != 1 {
		t.Fatalf("%d statements kept after one query asked three times, want 1", n)
	}
	for i := range maxPrepared + 10 {
		var n int
		if err := s.r.QueryRowContext(ctx, fmt.Sprintf("SELECT %d", i)).Scan(&n); err != nil || n != i {
			t.Fatalf("query %d: %v, %v", i, n, err)
		}
	}
	if n := len(s.r.stmts); n != maxPrepared {
		t.Fatalf("%d statements kept, want the bound %d", n, maxPrepared)
	}
	// A query that does not parse reports its error through the unprepared path.
	if err := s.r.QueryRowContext(ctx, "SELEC 1").Scan(new(int)); err == nil {
		t.Fatal("a broken query gave no error")
	}
	must(t, s.Close())
	if n := len(s.r.stmts); n != 0 {
		t.Fatalf("%d statements left after Close", n)
	}
}

func BenchmarkIsWatchedSQLite(b *testing.B) {
	s := openTest(b, SQLite, Config{DataDir: b.TempDir()})
	must(b, s.Watch(b.Context(), alice, 1001, "Harbor Freight"))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := s.IsWatched(b.Context(), alice, 1001); err != nil {
			b.Fatal(err)
		}
	}
}
