package store

import "context"

// ApprovedLimits are the team's approved limit requests, oldest decision
// first, without their evidence: the dated record of every limit that
// was put in force, which the policy's validation reads to know the limit
// in force at each past month-end and to replay past decisions.
func (s *Store) ApprovedLimits(ctx context.Context, a Analyst) ([]LimitRequest, error) {
	ctx, cancel := s.bound(ctx)
	defer cancel()
	a, err := team(a)
	if err != nil {
		return nil, err
	}
	rows, err := s.r.QueryContext(ctx, "SELECT "+requestColumns+` FROM limit_requests
		WHERE service = $1 AND status = 'approved' AND approved_amount IS NOT NULL ORDER BY decided_at, id`, a.Service)
	if err != nil {
		return nil, wrap("approved limits", err)
	}
	defer rows.Close()
	var out []LimitRequest
	for rows.Next() {
		r, err := scanRequest(rows)
		if err != nil {
			return nil, wrap("approved limits", err)
		}
		out = append(out, r)
	}
	return out, wrap("approved limits", rows.Err())
}
