package store

import (
	"context"
	"database/sql"
)

// RecordKnownScores keeps what a page received of many businesses at once
// (the portfolio's Pay and Z″ histories), in one transaction, for those an
// account of the team is linked to; the rest are passed over. kept is how
// many businesses were linked. Like RecordScores it is idempotent, and a
// batch that changes nothing leaves the team's version alone.
func (s *Store) RecordKnownScores(ctx context.Context, a Analyst, obs []Observation) (kept int, err error) {
	ctx, cancel := s.bound(ctx)
	defer cancel()
	a, err = team(a)
	if err != nil {
		return 0, err
	}
	ids := make([]int32, 0, len(obs))
	for _, o := range obs {
		if err := checkObservation(o); err != nil {
			return 0, err
		}
		if len(o.Latest) > 0 || len(o.Risk) > 0 || len(o.Monthly) > 0 || o.NAICS != "" {
			ids = append(ids, o.BusinessID)
		}
	}
	linked, err := s.linkedAmong(ctx, a.Service, ids)
	if err != nil || len(linked) == 0 {
		return 0, err
	}
	err = s.teamWriteIfOf(ctx, a.Service, "record known scores", touchBusinesses(ids...), func(tx *sql.Tx) (bool, error) {
		changed := false
		for _, o := range obs {
			if !linked[o.BusinessID] {
				continue
			}
			kept++
			c, err := s.recordTx(ctx, tx, a.Service, o)
			if err != nil {
				return false, err
			}
			changed = changed || c
		}
		return changed, nil
	})
	if err != nil {
		return 0, err
	}
	return kept, nil
}

// linkedAmong are the businesses of ids that an account of the team is
// linked to.
func (s *Store) linkedAmong(ctx context.Context, service string, ids []int32) (map[int32]bool, error) {
	out := map[int32]bool{}
	in, list := s.idsIn("business_id", 2, ids)
	rows, err := s.r.QueryContext(ctx, "SELECT DISTINCT business_id FROM team_accounts WHERE service = $1 AND "+in, service, list)
	if err != nil {
		return nil, wrap("linked businesses", err)
	}
	defer rows.Close()
	for rows.Next() {
		var b int64
		if err := rows.Scan(&b); err != nil {
			return nil, wrap("linked businesses", err)
		}
		out[int32(b)] = true
	}
	if err := rows.Err(); err != nil {
		return nil, wrap("linked businesses", err)
	}
	return out, nil
}
