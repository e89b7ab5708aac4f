package store

import (
	"testing"
	"time"

	"creditdash/internal/store/storetest"
)

// twoStores opens two stores on one new database of engine e, as two
// replicas (or, on SQLite, two stores of one process) would.
func twoStores(t *testing.T, e Engine) (a, b *Store) {
	t.Helper()
	cfg := Config{}
	if e == SQLite {
		cfg.DataDir = t.TempDir()
	} else {
		cfg.DatabaseURL = storetest.Database(t)
	}
	return openTest(t, e, cfg), openTest(t, e, cfg)
}

// believed is the version b's book holds for alice's team without asking
// the database, and whether it holds one.
func believed(s *Store) (int64, bool) {
	v, _, ok := s.teams.get(alice.Service)
	return v, ok
}

// waitFor polls cond for up to 10 s: notifications arrive on their own
// connection, a moment after the commit.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); !cond(); {
		if time.Now().After(deadline) {
			t.Fatalf("waited 10 s for %s", what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// TestTeamVersionBook: a version read or written is then answered from the
// process's book; a write through one store reaches the other's book (at
// once on SQLite, by notification on PostgreSQL), so a warm page on either
// follows every write without asking the database.
func TestTeamVersionBook(t *testing.T) {
	for _, e := range engines {
		t.Run(string(e), func(t *testing.T) {
			t.Parallel()
			ctx := t.Context()
			a, b := twoStores(t, e)
			waitFor(t, "both books believed", func() bool { return a.teams.isLive() && b.teams.isLive() })
			if v, err := b.TeamVersion(ctx, alice); err != nil || v != 0 {
				t.Fatalf("version before any write = %d (%v), want 0", v, err)
			}
			if v, ok := believed(b); !ok || v != 0 {
				t.Fatalf("after a read b's book holds %d, %v; want 0, true", v, ok)
			}
			_, err := a.ImportLedger(ctx, alice, ImportSpec{AsOf: date("2026-10-31"), Lines: []LedgerLine{line("A-1", 1001, 1000)}})
			must(t, err)
			written, ok := believed(a)
			if !ok || written == 0 {
				t.Fatalf("after a write a's book holds %d, %v; want the new version", written, ok)
			}
			waitFor(t, "b to hear the write", func() bool { v, ok := believed(b); return ok && v == written })
			if v, err := b.TeamVersion(ctx, alice); err != nil || v != written {
				t.Errorf("b's version after a's write = %d (%v), want %d", v, err, written)
			}
			if v, _ := believed(a); v != written {
				t.Errorf("a's book went from %d to %d with no write", written, v)
			}
		})
	}
}

// TestTeamVersionListenerLost: when the listening connection dies the book
// is not believed (every read asks the database) until it listens again,
// and it then starts empty, so a write made meanwhile is never missed.
func TestTeamVersionListenerLost(t *testing.T) {
	ctx := t.Context()
	a, b := twoStores(t, Postgres)
	waitFor(t, "both books believed", func() bool { return a.teams.isLive() && b.teams.isLive() })
	_, err := b.TeamVersion(ctx, alice)
	must(t, err)
	if _, ok := believed(b); !ok {
		t.Fatal("b's book holds nothing after a read")
	}
	before := b.teams.currentEra()
	// Every listener of the database goes, a's and b's.
	_, err = a.w.ExecContext(ctx, "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1 AND datname = current_database()", ListenerName)
	must(t, err)
	waitFor(t, "b to notice", func() bool { return b.teams.currentEra() != before })
	_, err = a.ImportLedger(ctx, alice, ImportSpec{AsOf: date("2026-10-31"), Lines: []LedgerLine{line("A-1", 1001, 1000)}})
	must(t, err)
	var want int64
	must(t, a.r.QueryRowContext(ctx, "SELECT version FROM team_versions WHERE service = $1", alice.Service).Scan(&want))
	if v, err := b.TeamVersion(ctx, alice); err != nil || v != want {
		t.Fatalf("b's version after a write while it was not listening = %d (%v), want %d", v, err, want)
	}
	waitFor(t, "b to listen again", b.teams.isLive)
	if v, err := b.TeamVersion(ctx, alice); err != nil || v != want {
		t.Errorf("b's version once listening again = %d (%v), want %d", v, err, want)
	}
}

// TestTeamBookLearnsNothingStale: a read begun before the book started
// again is not kept, and an older version never replaces a newer one.
func TestTeamBookLearnsNothingStale(t *testing.T) {
	b := newTeamBook(true, 0)
	_, era, _ := b.get("s")
	b.setLive(true)
	b.learn("s", 5, era)
	if _, _, ok := b.get("s"); ok {
		t.Error("a read from before the book started again was kept")
	}
	_, era, _ = b.get("s")
	b.learn("s", 5, era)
	b.moved("s", 7)
	b.learn("s", 6, era)
	if v, _, _ := b.get("s"); v != 7 {
		t.Errorf("book = %d, want 7 (versions only move forward)", v)
	}
	b.setLive(false)
	b.moved("s", 9)
	if _, _, ok := b.get("s"); ok {
		t.Error("a book not believed answered")
	}
}

// isLive reports whether the book is believed.
func (b *teamBook) isLive() bool {
	b.mu.RLock()
	defer b.mu.RUnlock()
	return b.live
}

// currentEra is the book's era.
func (b *teamBook) currentEra() uint64 {
	b.mu.RLock()
	defer b.mu.RUnlock()
	return b.era
}

// TestSQLiteBookBelievesAMoment: a SQLite book believes a version it read
// for sqliteBelief only, so a write by another process on the same file
// shows within it.
func TestSQLiteBookBelievesAMoment(t *testing.T) {
	b := newTeamBook(true, 20*time.Millisecond)
	_, era, _ := b.get("s")
	b.learn("s", 5, era)
	if v, _, ok := b.get("s"); !ok || v != 5 {
		t.Fatalf("book = %d, %v; want 5 at once", v, ok)
	}
	time.Sleep(30 * time.Millisecond)
	if _, _, ok := b.get("s"); ok {
		t.Error("a version read was believed past the book's belief")
	}
}
