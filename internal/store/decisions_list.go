package store

import (
	"context"
	"database/sql"
	"strconv"
)

// MaxRequestList bounds each list of /decisions.
const MaxRequestList = 200

// CountWaiting counts the team's pending requests user may decide: not
// their own and within authority. It is the header's count, one indexed
// COUNT per page of a manager.
func (s *Store) CountWaiting(ctx context.Context, a Analyst, authority float64) (int, error) {
	ctx, cancel := s.bound(ctx)
	defer cancel()
	a, err := team(a)
	if err != nil {
		return 0, err
	}
	var n int
	err = s.r.QueryRowContext(ctx, `SELECT COUNT(*) FROM limit_requests
		WHERE service = $1 AND status = 'pending' AND requested_by <> $2 AND amount <= $3`, a.Service, a.User, authority).Scan(&n)
	return n, wrap("count waiting", err)
}

// RequestLists are the lists of /decisions, each newest first and at most
// MaxRequestList long.
type RequestLists struct {
	// Waiting are pending requests user may decide (see CountWaiting).
	Waiting []LimitRequest
	// Mine are user's own requests, whatever their status.
	Mine []LimitRequest
	// Recent are the team's decided requests.
	Recent []LimitRequest
}

// Requests reads the lists of /decisions for a.User with their authority
// (0 and no Waiting for who may not decide).
func (s *Store) Requests(ctx context.Context, a Analyst, authority float64) (RequestLists, error) {
	ctx, cancel := s.bound(ctx)
	defer cancel()
	var out RequestLists
	a, err := team(a)
	if err != nil {
		return out, err
	}
	for _, q := range []struct {
		dst   *[]LimitRequest
		where string
		args  []any
	}{
		{&out.Waiting, "status = 'pending' AND requested_by <> $2 AND amount <= $3 ORDER BY requested_at DESC, id DESC", []any{a.User, authority}},
		{&out.Mine, "requested_by = $2 ORDER BY requested_at DESC, id DESC", []any{a.User}},
		{&out.Recent, "status <> 'pending' ORDER BY decided_at DESC, id DESC", nil},
	} {
		args := append([]any{a.Service}, q.args...)
		rows, err := s.r.QueryContext(ctx, "SELECT "+requestColumns+" FROM limit_requests WHERE service = $1 AND "+q.where+
			" LIMIT "+strconv.Itoa(MaxRequestList), args...)
		if err != nil {
			return out, wrap("requests", err)
		}
		if *q.dst, err = scanRequests(rows); err != nil {
			return out, wrap("requests", err)
		}
	}
	return out, nil
}

// scanRequests reads and closes rows of requestColumns.
func scanRequests(rows *sql.Rows) ([]LimitRequest, error) {
	defer rows.Close()
	var out []LimitRequest
	for rows.Next() {
		r, err := scanRequest(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, rows.Err()
}

// PendingAccounts are the team's accounts with a request waiting,
// whoever asked (at most MaxPendingRequests).
func (s *Store) PendingAccounts(ctx context.Context, a Analyst) (map[string]bool, error) {
	ctx, cancel := s.bound(ctx)
	defer cancel()
	a, err := team(a)
	if err != nil {
		return nil, err
	}
	rows, err := s.r.QueryContext(ctx, "SELECT DISTINCT account FROM limit_requests WHERE service = $1 AND status = 'pending'", a.Service)
	if err != nil {
		return nil, wrap("pending accounts", err)
	}
	defer rows.Close()
	out := map[string]bool{}
	for rows.Next() {
		var acc string
		if err := rows.Scan(&acc); err != nil {
			return nil, wrap("pending accounts", err)
		}
		out[acc] = true
	}
	return out, wrap("pending accounts", rows.Err())
}
