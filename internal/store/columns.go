package store

import (
	"context"
	"database/sql"
	"errors"
	"strings"
)

// Bounds of a column choice: the page has fewer columns than this, and a
// column's name is a short word.
const (
	MaxColumns   = 32
	maxColumnLen = 32
)

// AccountColumns are the columns a chose to see on /accounts, in their
// order; nil when they never chose, so the page shows its defaults.
// The store keeps names only: which names mean a column is the page's.
func (s *Store) AccountColumns(ctx context.Context, a Analyst) ([]string, error) {
	ctx, cancel := s.bound(ctx)
	defer cancel()
	a, err := a.key()
	if err != nil {
		return nil, err
	}
	var cols string
	err = s.r.QueryRowContext(ctx, "SELECT account_columns FROM analysts WHERE service = $1 AND user_name = $2", a.Service, a.User).Scan(&cols)
	switch {
	case errors.Is(err, sql.ErrNoRows) || err == nil && cols == "":
		return nil, nil
	case err != nil:
		return nil, wrap("account columns", err)
	}
	return strings.Split(cols, ","), nil
}

// SetAccountColumns keeps the columns a chose, in order; nil or none
// goes back to the page's defaults. A name that is not a short word of
// lower-case letters, digits and underscores, or more than MaxColumns of
// them, is a *ValidationError on "columns".
func (s *Store) SetAccountColumns(ctx context.Context, a Analyst, cols []string) error {
	ctx, cancel := s.bound(ctx)
	defer cancel()
	if len(cols) > MaxColumns {
		return invalid("columns", "at most %d columns", MaxColumns)
	}
	for _, c := range cols {
		if !columnName(c) {
			return invalid("columns", "%q is not a column", clip(c))
		}
	}
	return s.write(ctx, a, "set account columns", func(tx *sql.Tx, id int64) error {
		_, err := tx.ExecContext(ctx, "UPDATE analysts SET account_columns = $2 WHERE id = $1", id, strings.Join(cols, ","))
		return err
	})
}

// columnName reports whether c can be a column's name; a comma in one
// would split it in two when read back.
func columnName(c string) bool {
	if c == "" || len(c) > maxColumnLen {
		return false
	}
	for _, r := range c {
		if (r < 'a' || r > 'z') && (r < '0' || r > '9') && r != '_' {
			return false
		}
	}
	return true
}
