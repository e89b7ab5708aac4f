package store

import (
	"context"
	"database/sql/driver"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"time"

	"github.com/pressly/goose/v3"
)

//go:embed migrations/*.sql
var migrations embed.FS

// migrationLockID names the PostgreSQL advisory lock replicas take while
// migrating. Advisory locks are per database, so only CreditDash processes
// on the same database wait for each other.
const migrationLockID int64 = 0x43445f4d49475254 // "CD_MIGRT"

// migrate brings the schema up to date. On PostgreSQL the replicas starting
// together queue on a session advisory lock: the first one migrates, the
// others find nothing pending. pg_advisory_lock blocks until it is granted
// (or ctx ends) instead of polling, so a replica starts as soon as the
// first is done. SQLite has one writer: another process on the same file
// waits on the file lock (and retries, below).
func (s *Store) migrate(ctx context.Context) (err error) {
	dir, err := fs.Sub(migrations, "migrations")
	if err != nil {
		return fmt.Errorf("store: migrations: %w", err)
	}
	dialect := goose.DialectSQLite3
	if s.engine == Postgres {
		dialect = goose.DialectPostgres
		conn, err := s.w.Conn(ctx)
		if err != nil {
			return fmt.Errorf("store: migration lock: %w", err)
		}
		defer conn.Close()
		if _, err := conn.ExecContext(ctx, "SELECT pg_advisory_lock($1)", migrationLockID); err != nil {
			return fmt.Errorf("store: migration lock: %w", err)
		}
		defer func() {
			// A fresh context: the unlock must run even when ctx has ended,
			// or the lock would stay with the pooled connection.
			_, uerr := conn.ExecContext(context.WithoutCancel(ctx), "SELECT pg_advisory_unlock($1)", migrationLockID)
			if uerr != nil {
				// Closing the connection ends its session and so the lock.
				_ = conn.Raw(func(any) error { return driver.ErrBadConn })
				err = errors.Join(err, fmt.Errorf("store: migration unlock: %w", uerr))
			}
		}()
	}
	p, err := goose.NewProvider(dialect, s.w, dir, goose.WithDisableGlobalRegistry(true))
	if err != nil {
		return fmt.Errorf("store: migrations: %w", err)
	}
	results, err := p.Up(ctx)
	// goose reads the version before its migration transaction takes
	// SQLite's write lock, so a second process opening the same file at
	// the same moment can find the tables made under it. Its transaction
	// rolled back whole; a second look finds nothing pending. A real
	// failure fails again and is returned.
	for try := 1; err != nil && s.engine == SQLite && try < 5; try++ {
		s.log.Warn("store: migration raced another process; retrying", "err", err)
		select {
		case <-ctx.Done():
			return fmt.Errorf("store: migrate: %w", err)
		case <-time.After(time.Duration(try) * 50 * time.Millisecond):
		}
		results, err = p.Up(ctx)
	}
	if err != nil {
		return fmt.Errorf("store: migrate: %w", err)
	}
	for _, r := range results {
		s.log.Debug("store: migrated", "version", r.Source.Version, "file", r.Source.Path, "duration", r.Duration)
	}
	return nil
}
