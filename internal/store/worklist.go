package store

import "context"

// The worklist (issue 27) is worked out in the handlers from the team's
// kept figures (internal/handlers/accounts_cache.go), the latest reviews
// (LastReviews), the statement years (StatementYears) and the pending
// requests below. Each of these changes only by a team write, so what is
// read here is kept under the team's version like the figures.

// PendingRequest is a limit request waiting for a decision, with what
// tells who may decide it.
type PendingRequest struct {
	Account, RequestedBy string
	Amount               float64
}

// PendingRequests are the team's requests waiting for a decision, in no
// particular order. They are few: each waits for one of a handful of
// managers.
func (s *Store) PendingRequests(ctx context.Context, a Analyst) ([]PendingRequest, error) {
	ctx, cancel := s.bound(ctx)
	defer cancel()
	a, err := team(a)
	if err != nil {
		return nil, err
	}
	rows, err := s.r.QueryContext(ctx, `SELECT account, requested_by, amount FROM limit_requests
		WHERE service = $1 AND status = 'pending'`, a.Service)
	if err != nil {
		return nil, wrap("pending requests", err)
	}
	defer rows.Close()
	var out []PendingRequest
	for rows.Next() {
		var p PendingRequest
		if err := rows.Scan(&p.Account, &p.RequestedBy, &p.Amount); err != nil {
			return nil, wrap("pending requests", err)
		}
		out = append(out, p)
	}
	return out, wrap("pending requests", rows.Err())
}
