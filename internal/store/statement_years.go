package store

import (
	"context"
	"database/sql"
	"time"
)

// The newest statement year the team has seen of each linked business
// (issue 27): a year newer than the one known at an account's last review
// brings its next review to today. Kept, like the known scores, only for
// businesses an account links to, so bounded by MaxAccounts.

// checkYear accepts the years a statement can plausibly be of.
func checkYear(y int) bool { return y >= 1900 && y <= 9999 }

// RecordStatementYear keeps year as the business's newest statement year
// when an account of the team links to it and it is newer than the one
// known; kept is false when nothing was written. Idempotent.
func (s *Store) RecordStatementYear(ctx context.Context, a Analyst, business int32, year int, fetched time.Time) (kept bool, err error) {
	ctx, cancel := s.bound(ctx)
	defer cancel()
	a, err = team(a)
	if err != nil {
		return false, err
	}
	if err := checkBusiness(business); err != nil {
		return false, err
	}
	if !checkYear(year) {
		return false, invalid("year", "not a statement year")
	}
	var linked int
	if err := s.r.QueryRowContext(ctx, "SELECT COUNT(*) FROM team_accounts WHERE service = $1 AND business_id = $2",
		a.Service, int64(business)).Scan(&linked); err != nil {
		return false, wrap("record statement year", err)
	}
	if linked == 0 {
		return false, nil
	}
	// A newer year moves reviews (credit.NextReview): the team's version
	// moves with it, and only then.
	err = s.teamWriteIfOf(ctx, a.Service, "record statement year", touchNone(), func(tx *sql.Tx) (bool, error) {
		res, err := tx.ExecContext(ctx, `INSERT INTO team_statement_years (service, business_id, year, fetched_at) VALUES ($1, $2, $3, $4)
			ON CONFLICT (service, business_id) DO UPDATE SET year = excluded.year, fetched_at = excluded.fetched_at
			WHERE excluded.year > team_statement_years.year`, a.Service, int64(business), year, fetched.UnixMicro())
		if err != nil {
			return false, err
		}
		n, _ := res.RowsAffected()
		kept = n > 0
		return kept, nil
	})
	return kept, err
}

// StatementYears are the newest statement year known of each linked
// business.
func (s *Store) StatementYears(ctx context.Context, a Analyst) (map[int32]int, error) {
	ctx, cancel := s.bound(ctx)
	defer cancel()
	a, err := team(a)
	if err != nil {
		return nil, err
	}
	rows, err := s.r.QueryContext(ctx, "SELECT business_id, year FROM team_statement_years WHERE service = $1", a.Service)
	if err != nil {
		return nil, wrap("statement years", err)
	}
	defer rows.Close()
	out := map[int32]int{}
	for rows.Next() {
		var b int64
		var y int
		if err := rows.Scan(&b, &y); err != nil {
			return nil, wrap("statement years", err)
		}
		out[int32(b)] = y
	}
	return out, wrap("statement years", rows.Err())
}
