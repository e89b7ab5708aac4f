package store

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
)

// ErrMisconfigured marks a start-up failure no retry can mend: the server
// refused the credentials of DATABASE_URL, or the database it names does
// not exist. The process should stop and say so.
var ErrMisconfigured = errors.New("store: misconfigured")

// ErrCorrupt marks a SQLite file that fails PRAGMA quick_check.
var ErrCorrupt = errors.New("store: the workspace database file is corrupt")

// Retry bounds of a store waiting for its database (Config.Wait).
const (
	firstRetry = time.Second
	lastRetry  = 30 * time.Second
)

// misconfigured tells apart a PostgreSQL error that names a mistake in
// DATABASE_URL (wrong password or user, unknown database) from an outage.
func misconfigured(err error) error {
	var pe *pgconn.PgError
	if !errors.As(err, &pe) {
		return nil
	}
	switch pe.Code {
	case "28P01", "28000": // invalid_password, invalid_authorization_specification
		return fmt.Errorf("%w: PostgreSQL refused the user or password of DATABASE_URL (authentication failed, SQLSTATE %s)", ErrMisconfigured, pe.Code)
	case "3D000": // invalid_catalog_name
		return fmt.Errorf("%w: the database named in DATABASE_URL does not exist (SQLSTATE %s)", ErrMisconfigured, pe.Code)
	}
	return nil
}

// prepare makes an opened store ready: it answers, its SQLite file is
// whole, its schema is up to date.
func (s *Store) prepare(ctx context.Context) error {
	if err := s.w.PingContext(ctx); err != nil {
		if m := misconfigured(err); m != nil {
			return m
		}
		if isCorrupt(err) {
			return fmt.Errorf("%w: %s: %v", ErrCorrupt, s.path, err)
		}
		return fmt.Errorf("store: the %s database does not answer: %w", s.engine, err)
	}
	if err := s.QuickCheck(ctx); err != nil {
		return err
	}
	if err := s.migrate(ctx); err != nil {
		return err
	}
	return s.recordMoves(ctx)
}

// QuickCheck runs SQLite's PRAGMA quick_check on the workspace file and
// names the file when it is corrupt (ErrCorrupt); PostgreSQL checks its
// own pages, so there it only asks that the server answers.
func (s *Store) QuickCheck(ctx context.Context) error {
	ctx, cancel := s.bound(ctx)
	defer cancel()
	if s.engine != SQLite {
		return s.w.PingContext(ctx)
	}
	// On a reader: the check reads the whole file, and the one writer
	// connection must stay free for the analysts' notes meanwhile.
	rows, err := s.r.db.QueryContext(ctx, "PRAGMA quick_check")
	if err != nil {
		if isCorrupt(err) {
			return fmt.Errorf("%w: %s: %v", ErrCorrupt, s.path, err)
		}
		return fmt.Errorf("store: quick_check of %s: %w", s.path, err)
	}
	defer rows.Close()
	var problems []string
	for rows.Next() {
		var line string
		if err := rows.Scan(&line); err != nil {
			return fmt.Errorf("store: quick_check of %s: %w", s.path, err)
		}
		if line != "ok" && len(problems) < 3 {
			problems = append(problems, line)
		}
	}
	if err := rows.Err(); err != nil {
		if isCorrupt(err) {
			return fmt.Errorf("%w: %s: %v", ErrCorrupt, s.path, err)
		}
		return fmt.Errorf("store: quick_check of %s: %w", s.path, err)
	}
	if len(problems) > 0 {
		return fmt.Errorf("%w: %s: %v", ErrCorrupt, s.path, problems)
	}
	return nil
}

// waitForDatabase retries prepare with backoff until it works or the
// store is closed; meanwhile Ping answers the last failure.
func (s *Store) waitForDatabase() {
	delay := firstRetry
	for {
		select {
		case <-s.closed:
			return
		case <-time.After(delay):
		}
		ctx, cancel := context.WithTimeout(context.Background(), s.timeout*2)
		err := s.prepare(ctx)
		cancel()
		if err == nil {
			s.unavailable.Store(nil)
			s.log.Info("store: the workspace database is back and migrated", "engine", string(s.engine))
			return
		}
		s.unavailable.Store(&err)
		delay = min(delay*2, lastRetry)
		s.log.Warn("store: the workspace database is still unavailable", "err", err, "retry_in", delay.String())
	}
}

// Unavailable is why a store opened with Config.Wait is not ready yet
// (nil once it is).
func (s *Store) Unavailable() error {
	if p := s.unavailable.Load(); p != nil {
		return *p
	}
	return nil
}

// sqlitePath is where the SQLite file of a data directory is.
func sqlitePath(dataDir string) string { return filepath.Join(dataDir, FileName) }
