package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"time"

	"modernc.org/sqlite" // the pure Go driver keeps the static scratch image working
	sqlite3 "modernc.org/sqlite/lib"
)

// FileName is the SQLite database's name inside Config.DataDir.
const FileName = "creditdash.db"

// busyTimeoutMS is how long a connection waits for another process's write
// lock before SQLITE_BUSY; within this process the one writer never waits.
const busyTimeoutMS = 5000

// openSQLite opens DataDir/creditdash.db as one writer connection and a
// read pool. WAL lets the readers run while the writer writes.
func (s *Store) openSQLite(ctx context.Context, cfg Config) error {
	if err := os.MkdirAll(cfg.DataDir, 0o750); err != nil {
		return fmt.Errorf("store: data directory: %w", err)
	}
	path := sqlitePath(cfg.DataDir)
	s.path = path
	pragmas := url.Values{}
	for _, p := range []string{
		fmt.Sprintf("busy_timeout(%d)", busyTimeoutMS),
		"journal_mode(WAL)",
		"foreign_keys(1)",
		// NORMAL is durable across application crashes in WAL mode and
		// only risks the last commits on power loss; FULL costs an fsync
		// per note.
		"synchronous(NORMAL)",
		// Each connection's page cache lives outside Go's heap and its
		// memory limit, so it adds to resident memory beyond CACHE_MB: 1 MiB each
		// instead of SQLite's 2, 9 MiB for the writer and eight readers.
		"cache_size(-1024)",
	} {
		pragmas.Add("_pragma", p)
	}
	w, err := sql.Open("sqlite", sqliteDSN(path, pragmas, "immediate"))
	if err != nil {
		return fmt.Errorf("store: open %s: %w", FileName, err)
	}
	w.SetMaxOpenConns(1)
	w.SetMaxIdleConns(1)
	w.SetConnMaxLifetime(0)
	w.SetConnMaxIdleTime(0)
	// The first write connection creates the file and switches it to WAL
	// before any reader opens it. Switching to WAL needs the file to itself
	// for a moment, and SQLite does not wait on its busy timeout for that, so
	// two processes starting together retry here.
	if err := retryBusy(ctx, func() error { return w.PingContext(ctx) }); err != nil {
		// A corrupt file with Config.Wait is named by prepare's
		// quick_check, and Open waits for a mended file.
		if !isCorrupt(err) || !cfg.Wait {
			w.Close()
			if isCorrupt(err) {
				return fmt.Errorf("%w: %s: %v", ErrCorrupt, path, err)
			}
			return fmt.Errorf("store: open %s: %w", FileName, err)
		}
	}
	pragmas.Add("_pragma", "query_only(1)")
	r, err := sql.Open("sqlite", sqliteDSN(path, pragmas, "deferred"))
	if err != nil {
		w.Close()
		return fmt.Errorf("store: open %s: %w", FileName, err)
	}
	r.SetMaxOpenConns(cfg.MaxConns)
	r.SetMaxIdleConns(cfg.MaxConns)
	s.w, s.r = w, newReads(r, true)
	s.teams, s.releaseBook = sqliteBook(path)
	s.reserve = filepath.Join(filepath.Dir(path), ReserveName)
	if err := keepReserve(s.reserve); err != nil {
		s.log.Warn("store: no room kept for deletes on a full disk", "err", err)
	}
	s.log.Debug("store: sqlite", "path", path)
	return nil
}

// sqliteDSN builds a modernc file URI. BEGIN IMMEDIATE on the writer takes
// the write lock at the start of a transaction, so a transaction that reads
// then writes never fails half-way on a lock upgrade.
func sqliteDSN(path string, pragmas url.Values, txlock string) string {
	q := url.Values{}
	for k, v := range pragmas {
		q[k] = v
	}
	q.Set("_txlock", txlock)
	return "file:" + path + "?" + q.Encode()
}

// retryBusy runs fn until it stops failing with SQLITE_BUSY, a few times.
func retryBusy(ctx context.Context, fn func() error) error {
	err := fn()
	for try := 1; isBusy(err) && try < 10; try++ {
		select {
		case <-ctx.Done():
			return err
		case <-time.After(time.Duration(try) * 20 * time.Millisecond):
		}
		err = fn()
	}
	return err
}

// isBusy reports whether err is SQLite's "database is locked".
// isCorrupt tells whether err is SQLite's "corrupt" or "not a database".
func isCorrupt(err error) bool {
	var e *sqlite.Error
	return errors.As(err, &e) && (e.Code()&0xff == sqlite3.SQLITE_CORRUPT || e.Code()&0xff == sqlite3.SQLITE_NOTADB)
}

func isBusy(err error) bool {
	var e *sqlite.Error
	return errors.As(err, &e) && e.Code()&0xff == sqlite3.SQLITE_BUSY
}
