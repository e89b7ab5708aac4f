package store

import (
	"context"
	"database/sql"
	"errors"
	"sync"
)

// maxPrepared bounds the statements reads keeps. Every read query is a
// constant of this package, far fewer than this; a query past the bound
// is run unprepared rather than kept.
const maxPrepared = 64

// reads runs the store's read queries. On SQLite it keeps each query
// prepared: parsing the SQL was most of the cost of a page's workspace
// reads (is it watched, unread alerts, notes, rules), and database/sql
// then prepares each statement once per connection. PostgreSQL's driver
// keeps prepared statements of its own, so there it passes queries on.
type reads struct {
	db      *sql.DB
	prepare bool

	mu    sync.RWMutex
	stmts map[string]*sql.Stmt
}

func newReads(db *sql.DB, prepare bool) *reads {
	return &reads{db: db, prepare: prepare, stmts: map[string]*sql.Stmt{}}
}

// stmt is query's prepared statement, or nil when it is not kept (not
// SQLite, past the bound, or preparing failed: the unprepared query then
// reports the error itself).
func (r *reads) stmt(ctx context.Context, query string) *sql.Stmt {
	if !r.prepare {
		return nil
	}
	r.mu.RLock()
	st, ok := r.stmts[query]
	r.mu.RUnlock()
	if ok {
		return st
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if st, ok := r.stmts[query]; ok {
		return st
	}
	if len(r.stmts) >= maxPrepared {
		return nil
	}
	// WithoutCancel: the statement outlives this request.
	st, err := r.db.PrepareContext(context.WithoutCancel(ctx), query)
	if err != nil {
		return nil
	}
	r.stmts[query] = st
	return st
}

// QueryContext is sql.DB's, through the query's prepared statement.
func (r *reads) QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	if st := r.stmt(ctx, query); st != nil {
		return st.QueryContext(ctx, args...)
	}
	return r.db.QueryContext(ctx, query, args...)
}

// QueryRowContext is sql.DB's, through the query's prepared statement.
func (r *reads) QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row {
	if st := r.stmt(ctx, query); st != nil {
		return st.QueryRowContext(ctx, args...)
	}
	return r.db.QueryRowContext(ctx, query, args...)
}

// PingContext checks the connection pool.
func (r *reads) PingContext(ctx context.Context) error { return r.db.PingContext(ctx) }

// Close closes the statements, then the pool.
func (r *reads) Close() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	var err error
	for q, st := range r.stmts {
		err = errors.Join(err, st.Close())
		delete(r.stmts, q)
	}
	return errors.Join(err, r.db.Close())
}
