package store

import (
	"context"
	"database/sql"
	"errors"
)

// The team's version: one number per team that every team write moves
// forward inside its own transaction (teamWrite), so what a replica worked
// out of the team's ledgers and scores holds exactly as long as the number
// it read with them. Like the workspace's written_at, it starts at the
// clock and moves at least one step per write, so a database restored from
// a backup never hands out a number an older copy was kept under.

// bumpTeam moves the team's version forward within tx.
func (s *Store) bumpTeam(ctx context.Context, tx *sql.Tx, service string) error {
	_, err := tx.ExecContext(ctx, `INSERT INTO team_versions (service, version) VALUES ($1, $2)
		ON CONFLICT (service) DO UPDATE SET version =
			CASE WHEN excluded.version > team_versions.version THEN excluded.version ELSE team_versions.version + 1 END`,
		service, s.stamp())
	return err
}

// TeamVersion is the team's version: it changes whenever any of the team's
// data does (accounts, ledgers, limits, calculator inputs, known scores,
// reviews, decisions). A team that never wrote is at 0.
func (s *Store) TeamVersion(ctx context.Context, a Analyst) (int64, error) {
	ctx, cancel := s.bound(ctx)
	defer cancel()
	a, err := team(a)
	if err != nil {
		return 0, err
	}
	var v int64
	err = s.r.QueryRowContext(ctx, "SELECT version FROM team_versions WHERE service = $1", a.Service).Scan(&v)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, nil
	}
	return v, wrap("team version", err)
}
