package store

import (
	"context"
	"database/sql"
	"errors"
)

// The team's supplier category: the SIC code of what the team sells, set
// once in settings, which divergence rules without a category of their own
// follow. Like the accounts it is the team's (keyed by the service), so
// every analyst's rules follow the same one, and each change is appended
// to the audit trail in the transaction that writes it.

// AuditActionSupplierCategory is the team's supplier category set,
// changed or cleared.
const AuditActionSupplierCategory = "supplier-category"

// SupplierCategory is the team's supplier SIC code, "" when not set.
func (s *Store) SupplierCategory(ctx context.Context, a Analyst) (string, error) {
	ctx, cancel := s.bound(ctx)
	defer cancel()
	a, err := team(a)
	if err != nil {
		return "", err
	}
	var code string
	err = s.r.QueryRowContext(ctx, "SELECT code FROM team_supplier_categories WHERE service = $1", a.Service).Scan(&code)
	if errors.Is(err, sql.ErrNoRows) {
		return "", nil
	}
	return code, wrap("supplier category", err)
}

// SetSupplierCategory sets the team's supplier SIC code for everyone of the
// team; "" clears it. A code that is not 2 to 4 digits is a
// *ValidationError on "category". A change is logged with who made it and
// the code before; setting the code already in force writes nothing.
func (s *Store) SetSupplierCategory(ctx context.Context, a Analyst, code string) error {
	ctx, cancel := s.bound(ctx)
	defer cancel()
	if code != "" && !IsSICCode(code) {
		return invalid("category", "a supplier category is a SIC code of 2 to 4 digits, such as 36")
	}
	a, err := team(a)
	if err != nil {
		return err
	}
	return s.teamWriteIfOf(ctx, a.Service, "set supplier category", touchNone(), func(tx *sql.Tx) (bool, error) {
		var old string
		err := tx.QueryRowContext(ctx, "SELECT code FROM team_supplier_categories WHERE service = $1", a.Service).Scan(&old)
		if err != nil && !errors.Is(err, sql.ErrNoRows) {
			return false, err
		}
		if old == code {
			return false, nil
		}
		if code == "" {
			_, err = tx.ExecContext(ctx, "DELETE FROM team_supplier_categories WHERE service = $1", a.Service)
		} else {
			_, err = tx.ExecContext(ctx, `INSERT INTO team_supplier_categories (service, code, updated_at, updated_by) VALUES ($1, $2, $3, $4)
				ON CONFLICT (service) DO UPDATE SET code = excluded.code, updated_at = excluded.updated_at, updated_by = excluded.updated_by`,
				a.Service, code, s.stamp(), a.User)
		}
		if err != nil {
			return false, err
		}
		_, err = s.appendAuditTx(ctx, tx, a.Service, AuditChange{Actor: a.User, Action: AuditActionSupplierCategory,
			OldValue: old, NewValue: code, Reason: "the team's supplier category for divergence rules"})
		return true, err
	})
}
