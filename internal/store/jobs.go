package store

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
)

// JobsDB is the connection pool the job queue (internal/digest) shares on
// SQLite: the store's one writer, since SQLite takes one writer at a time
// and a second writer pool would only meet SQLITE_BUSY. On PostgreSQL the
// job queue opens its own pgx pool and this is the store's pool.
func (s *Store) JobsDB() *sql.DB { return s.w }

// Migrating runs fn under the lock replicas take to migrate (a PostgreSQL
// advisory lock; SQLite's single writer serialises on its own), so the job
// queue's own migrations run beside the store's without a race.
func (s *Store) Migrating(ctx context.Context, fn func(ctx context.Context) error) (err error) {
	if err := s.Unavailable(); err != nil {
		return err
	}
	if s.engine != Postgres {
		return fn(ctx)
	}
	conn, err := s.w.Conn(ctx)
	if err != nil {
		return fmt.Errorf("store: migration lock: %w", err)
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, "SELECT pg_advisory_lock($1)", migrationLockID); err != nil {
		return fmt.Errorf("store: migration lock: %w", err)
	}
	defer func() {
		if _, uerr := conn.ExecContext(context.WithoutCancel(ctx), "SELECT pg_advisory_unlock($1)", migrationLockID); uerr != nil {
			// Closing the connection ends its session and so the lock.
			_ = conn.Raw(func(any) error { return driver.ErrBadConn })
			err = errors.Join(err, fmt.Errorf("store: migration unlock: %w", uerr))
		}
	}()
	return fn(ctx)
}
