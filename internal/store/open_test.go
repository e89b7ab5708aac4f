package store

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"creditdash/internal/store/storetest"
)

// TestOpenSQLite: the file lands in a data directory Open creates, with
// WAL, foreign keys and a busy timeout on every connection.
func TestOpenSQLite(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "nested", "data")
	s := openTest(t, SQLite, Config{DataDir: dir})
	if s.Engine() != SQLite {
		t.Errorf("Engine() = %q, want sqlite", s.Engine())
	}
	if _, err := os.Stat(filepath.Join(dir, "creditdash.db")); err != nil {
		t.Fatalf("database file: %v", err)
	}
	for _, db := range []struct {
		name string
		q    querier
	}{{"writer", s.w}, {"reader", s.r.db}} {
		for pragma, want := range map[string]string{"journal_mode": "wal", "foreign_keys": "1", "busy_timeout": "5000"} {
			var got string
			must(t, db.q.QueryRowContext(t.Context(), "PRAGMA "+pragma).Scan(&got))
			if got != want {
				t.Errorf("%s: PRAGMA %s = %s, want %s", db.name, pragma, got, want)
			}
		}
	}
	if s.w.Stats().MaxOpenConnections != 1 {
		t.Errorf("writer pool allows %d connections, want 1", s.w.Stats().MaxOpenConnections)
	}
	// The read pool is read-only, so a write that bypassed s.w would fail
	// loudly in tests instead of contending for the lock in production.
	if _, err := s.r.db.ExecContext(t.Context(), "DELETE FROM notes"); err == nil {
		t.Error("a write through the read pool succeeded")
	}
	must(t, s.Ping(t.Context()))
}

// TestOpenConfig: the engine follows the config, and a bad config says
// what is wrong without quoting a password.
func TestOpenConfig(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		name string
		cfg  Config
		want string
	}{
		{"nothing", Config{}, "neither"},
		{"other scheme", Config{DatabaseURL: "mysql://u:secret@127.0.0.1/db"}, "postgres://"},
		{"bad url", Config{DatabaseURL: "postgres://u:secret@127.0.0.1:notaport/db"}, "not a valid"},
	} {
		s, err := Open(ctx, tc.cfg)
		if err == nil {
			s.Close()
			t.Errorf("%s: Open succeeded", tc.name)
			continue
		}
		if !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), "secret") {
			t.Errorf("%s: Open error = %q, want it to contain %q and no password", tc.name, err, tc.want)
		}
		wantWorded(t, tc.name, err)
	}
}

// TestRestart: a store opened again on the same database (a restarted
// process) finds everything, and the migrations do not run twice.
func TestRestart(t *testing.T) {
	for _, e := range engines {
		t.Run(string(e), func(t *testing.T) {
			t.Parallel()
			var cfg Config
			if e == SQLite {
				cfg.DataDir = t.TempDir()
			} else {
				cfg.DatabaseURL = storetest.Database(t)
			}
			first := openTest(t, e, cfg)
			ctx := t.Context()
			must(t, first.Watch(ctx, alice, 1001, "Harbor Freight Logistics Inc"))
			note, err := first.AddNote(ctx, alice, 1001, "call the CFO")
			must(t, err)
			must(t, first.Close())

			again := openTest(t, e, cfg)
			watched, err := again.IsWatched(ctx, alice, 1001)
			must(t, err)
			got, err := again.Note(ctx, alice, note.ID)
			must(t, err)
			if !watched || got.Text != "call the CFO" {
				t.Errorf("after restart: watched %v, note %q; want true and the note", watched, got.Text)
			}
			var versions int
			must(t, again.r.QueryRowContext(ctx, "SELECT COUNT(*) FROM goose_db_version WHERE version_id > 0").Scan(&versions))
			files, err := fs.Glob(migrations, "migrations/*.sql")
			must(t, err)
			if versions != len(files) {
				t.Errorf("goose_db_version has %d applied migrations, want %d (one per file)", versions, len(files))
			}
		})
	}
}

// TestMigrateTogether: replicas starting at once on one empty database
// all come up, and the schema is migrated once.
func TestMigrateTogether(t *testing.T) {
	for _, e := range engines {
		t.Run(string(e), func(t *testing.T) {
			t.Parallel()
			var cfg Config
			if e == SQLite {
				cfg.DataDir = t.TempDir()
			} else {
				cfg.DatabaseURL = storetest.Database(t)
			}
			const replicas = 4
			stores := make([]*Store, replicas)
			errs := make([]error, replicas)
			var wg sync.WaitGroup
			for i := range replicas {
				wg.Go(func() { stores[i], errs[i] = Open(t.Context(), cfg) })
			}
			wg.Wait()
			for i, err := range errs {
				if err != nil {
					t.Fatalf("replica %d: %v", i, err)
				}
				defer stores[i].Close()
			}
			var versions int
			must(t, stores[0].r.QueryRowContext(t.Context(), "SELECT COUNT(*) FROM goose_db_version WHERE version_id > 0").Scan(&versions))
			files, err := fs.Glob(migrations, "migrations/*.sql")
			must(t, err)
			if versions != len(files) {
				t.Errorf("goose_db_version has %d applied migrations, want %d (one per file)", versions, len(files))
			}
			for i, s := range stores {
				must(t, s.Watch(t.Context(), alice, int32(1001+i), ""))
			}
			if n := rowsOf(t, stores[0], alice, "watches"); n != replicas {
				t.Errorf("%d watches, want %d", n, replicas)
			}
		})
	}
}
