package store

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/binary"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"
)

// Analyst owns every row: the service's base URL plus the user name signed
// in to it, so the stand-in's demo users never mix with a real service's.
type Analyst struct {
	Service string
	User    string
}

// Bounds of the analyst key; a longer one is not a real URL or user name.
const (
	maxServiceLen = 2048
	maxUserLen    = 256
)

// key checks the analyst and returns it with the service's trailing
// slashes cut, so "https://x/" and "https://x" are one analyst.
func (a Analyst) key() (Analyst, error) {
	a.Service = strings.TrimRight(a.Service, "/")
	switch {
	case a.Service == "" || a.User == "":
		return a, invalid("analyst", "no signed-in analyst")
	case len(a.Service) > maxServiceLen || len(a.User) > maxUserLen:
		return a, invalid("analyst", "the service URL or user name is too long")
	case !cleanText(a.Service) || !cleanText(a.User):
		return a, invalid("analyst", "the service URL or user name is not valid text")
	}
	return a, nil
}

// analystID is the subquery that scopes a read to one analyst; its two
// parameters are always $1 (service) and $2 (user).
const analystID = "(SELECT id FROM analysts WHERE service = $1 AND user_name = $2)"

// querier is what both *sql.DB and *sql.Tx offer.
type querier interface {
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

// write runs fn in a transaction on the writer, with the analyst's row
// created if needed and locked: on PostgreSQL the upsert holds the row
// until commit, so two replicas adding the 1,000th watch at once are
// serialised and the count checks inside fn stay true. SQLite's single
// writer serialises everything anyway. Any error rolls everything back.
func (s *Store) write(ctx context.Context, a Analyst, op string, fn func(tx *sql.Tx, id int64) error) error {
	if strings.HasPrefix(op, "delete") || op == "unwatch" {
		// A delete may take back the room kept for it (see reserve.go).
		return s.freeing(op, func() error { return s.writeOnce(ctx, a, op, fn) })
	}
	return s.writeOnce(ctx, a, op, fn)
}

// writeOnce is write, one try.
func (s *Store) writeOnce(ctx context.Context, a Analyst, op string, fn func(tx *sql.Tx, id int64) error) error {
	a, err := a.key()
	if err != nil {
		return err
	}
	tx, err := s.w.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("store: %s: %w", op, err)
	}
	defer tx.Rollback()
	// written_at is the workspace's version as pages key it: every write
	// moves it forward, even when the clock did not (a replica whose clock
	// lags another's, or a test's clock that stands still).
	now := s.stamp()
	var id int64
	err = tx.QueryRowContext(ctx, `INSERT INTO analysts (id, service, user_name, created_at, written_at)
		VALUES ($1, $2, $3, $4, $4)
		ON CONFLICT (service, user_name) DO UPDATE SET written_at =
			CASE WHEN excluded.written_at > analysts.written_at THEN excluded.written_at ELSE analysts.written_at + 1 END
		RETURNING id`, newID(), a.Service, a.User, now).Scan(&id)
	if err != nil {
		return fmt.Errorf("store: %s: %w", op, err)
	}
	if err := fn(tx, id); err != nil {
		if isStoreError(err) {
			return err
		}
		return fmt.Errorf("store: %s: %w", op, err)
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("store: %s: %w", op, err)
	}
	return nil
}

// isStoreError tells the store's own errors, already worded, from the
// driver's, which need the operation named.
func isStoreError(err error) bool {
	var v *ValidationError
	if errors.As(err, &v) {
		return true
	}
	for _, e := range []error{ErrNotFound, ErrWatchListFull, ErrNotesFull, ErrRulesFull, ErrSnapshotsFull, ErrTokensFull, ErrWebhooksFull, ErrMemberFourEyes, ErrNotAdmin} {
		if errors.Is(err, e) {
			return true
		}
	}
	return false
}

// count is how many rows of table belong to the analyst; table is always
// one of the store's own constants.
func count(ctx context.Context, q querier, table string, analyst int64) (int, error) {
	var n int
	err := q.QueryRowContext(ctx, "SELECT COUNT(*) FROM "+table+" WHERE analyst_id = $1", analyst).Scan(&n)
	return n, err
}

// newID draws a random positive 63-bit id. Random rather than sequential
// ids keep one schema for both engines (their auto-increment syntax
// differs) and tell an analyst nothing about how many rows others have;
// a collision is a 1 in 2^63 event per pair and would fail the insert.
func newID() int64 {
	var b [8]byte
	_, _ = rand.Read(b[:]) // crypto/rand.Read never fails
	id := int64(binary.BigEndian.Uint64(b[:]) >> 1)
	if id == 0 {
		return 1
	}
	return id
}

// cleanText rejects what PostgreSQL's TEXT refuses (NUL, broken UTF-8) so
// both engines take the same input.
func cleanText(s string) bool {
	return utf8.ValidString(s) && !strings.ContainsRune(s, 0)
}
