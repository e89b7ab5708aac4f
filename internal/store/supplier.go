package store

import (
	"context"
	"database/sql"
	"errors"
)

// The analyst's own supplier category: the SIC code of what the team
// sells, set once in settings, which divergence rules without a category
// of their own follow. It is kept per analyst: the team's settings live in
// the team store (issue 26), which this branch does not have.

// SupplierCategory is the analyst's own supplier SIC code, "" when not set.
func (s *Store) SupplierCategory(ctx context.Context, a Analyst) (string, error) {
	ctx, cancel := s.bound(ctx)
	defer cancel()
	a, err := a.key()
	if err != nil {
		return "", err
	}
	var code string
	err = s.r.QueryRowContext(ctx, "SELECT code FROM supplier_categories WHERE analyst_id = "+analystID, a.Service, a.User).Scan(&code)
	if errors.Is(err, sql.ErrNoRows) {
		return "", nil
	}
	return code, wrap("supplier category", err)
}

// SetSupplierCategory sets the analyst's own supplier SIC code; "" clears
// it. A code that is not 2 to 4 digits is a *ValidationError on "category".
func (s *Store) SetSupplierCategory(ctx context.Context, a Analyst, code string) error {
	ctx, cancel := s.bound(ctx)
	defer cancel()
	if code != "" && !IsSICCode(code) {
		return invalid("category", "a supplier category is a SIC code of 2 to 4 digits, such as 36")
	}
	return s.write(ctx, a, "set supplier category", func(tx *sql.Tx, id int64) error {
		if code == "" {
			_, err := tx.ExecContext(ctx, "DELETE FROM supplier_categories WHERE analyst_id = $1", id)
			return err
		}
		_, err := tx.ExecContext(ctx, `INSERT INTO supplier_categories (analyst_id, code, updated_at) VALUES ($1, $2, $3)
			ON CONFLICT (analyst_id) DO UPDATE SET code = excluded.code, updated_at = excluded.updated_at`, id, code, s.stamp())
		return err
	})
}
