package store

import (
	"context"
	"database/sql"
	"errors"
	"time"
)

// MaxOutcomes bounds the outcomes a requester is shown at once; the page
// says when there are more.
const MaxOutcomes = 20

// OutcomesSince are a's own limit requests approved or declined by
// someone else after since, newest decision first, at most limit of them,
// and how many there are in all. A request approved at once within its
// requester's authority is no news to them, so it is left out.
func (s *Store) OutcomesSince(ctx context.Context, a Analyst, since time.Time, limit int) ([]LimitRequest, int, error) {
	ctx, cancel := s.bound(ctx)
	defer cancel()
	a, err := team(a)
	if err != nil {
		return nil, 0, err
	}
	after := int64(0)
	if !since.IsZero() {
		after = since.UnixMicro()
	}
	const where = ` FROM limit_requests WHERE service = $1 AND requested_by = $2 AND status IN ('approved', 'declined')
		AND decided_by <> requested_by AND decided_at > $3`
	var total int
	if err := s.r.QueryRowContext(ctx, "SELECT COUNT(*)"+where, a.Service, a.User, after).Scan(&total); err != nil {
		return nil, 0, wrap("outcomes", err)
	}
	rows, err := s.r.QueryContext(ctx, "SELECT "+requestColumns+where+" ORDER BY decided_at DESC, id DESC LIMIT $4",
		a.Service, a.User, after, max(limit, 0))
	if err != nil {
		return nil, 0, wrap("outcomes", err)
	}
	defer rows.Close()
	var out []LimitRequest
	for rows.Next() {
		r, err := scanRequest(rows)
		if err != nil {
			return nil, 0, wrap("outcomes", err)
		}
		out = append(out, r)
	}
	return out, total, wrap("outcomes", rows.Err())
}

// OutcomesSeen is when a last marked the outcomes of their requests seen;
// zero when never.
func (s *Store) OutcomesSeen(ctx context.Context, a Analyst) (time.Time, error) {
	ctx, cancel := s.bound(ctx)
	defer cancel()
	a, err := a.key()
	if err != nil {
		return time.Time{}, err
	}
	var at int64
	err = s.r.QueryRowContext(ctx, "SELECT outcomes_seen_at FROM analysts WHERE service = $1 AND user_name = $2", a.Service, a.User).Scan(&at)
	switch {
	case errors.Is(err, sql.ErrNoRows) || err == nil && at == 0:
		return time.Time{}, nil
	case err != nil:
		return time.Time{}, wrap("outcomes seen", err)
	}
	return fromStamp(at), nil
}

// MarkOutcomesSeen marks the outcomes decided up to upTo seen: upTo is
// the newest one a was shown, so one decided after the page was drawn
// stays news. The mark never moves back.
func (s *Store) MarkOutcomesSeen(ctx context.Context, a Analyst, upTo time.Time) error {
	ctx, cancel := s.bound(ctx)
	defer cancel()
	if upTo.IsZero() {
		return invalid("up_to", "no outcome was shown")
	}
	return s.write(ctx, a, "mark outcomes seen", func(tx *sql.Tx, id int64) error {
		_, err := tx.ExecContext(ctx, "UPDATE analysts SET outcomes_seen_at = $2 WHERE id = $1 AND outcomes_seen_at < $2", id, upTo.UnixMicro())
		return err
	})
}
