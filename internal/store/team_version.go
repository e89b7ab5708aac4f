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

// bumpTeam moves the team's version forward within tx and returns the
// version it moved from and to; on PostgreSQL the commit also announces
// it to the other replicas. The row is made first (at 0, a team that
// never wrote) and then read locked, so prev is exactly the version the
// write follows even when two writes race (the change log, team_changes.go,
// links versions by it); SQLite has one writer, so its read is exact too.
func (s *Store) bumpTeam(ctx context.Context, tx *sql.Tx, service string) (prev, v int64, err error) {
	if _, err = tx.ExecContext(ctx, "INSERT INTO team_versions (service, version) VALUES ($1, 0) ON CONFLICT (service) DO NOTHING", service); err != nil {
		return 0, 0, err
	}
	lock := ""
	if s.engine == Postgres {
		lock = " FOR UPDATE"
	}
	if err = tx.QueryRowContext(ctx, "SELECT version FROM team_versions WHERE service = $1"+lock, service).Scan(&prev); err != nil {
		return 0, 0, err
	}
	err = tx.QueryRowContext(ctx, `UPDATE team_versions SET version = CASE WHEN $2 > version THEN $2 ELSE version + 1 END
		WHERE service = $1 RETURNING version`, service, s.stamp()).Scan(&v)
	if err != nil || s.engine != Postgres {
		return prev, v, err
	}
	return prev, v, announceTeam(ctx, tx, service, v)
}

// TeamVersion is the team's version: it changes whenever any of the team's
// data does (accounts, ledgers, limits, calculator inputs, known scores,
// reviews, decisions). A team that never wrote is at 0. It is answered
// from the process's book while that may be believed (team_book.go).
func (s *Store) TeamVersion(ctx context.Context, a Analyst) (int64, error) {
	a, err := team(a)
	if err != nil {
		return 0, err
	}
	v, era, ok := s.teams.get(a.Service)
	if ok {
		return v, nil
	}
	ctx, cancel := s.bound(ctx)
	defer cancel()
	err = s.r.QueryRowContext(ctx, "SELECT version FROM team_versions WHERE service = $1", a.Service).Scan(&v)
	if errors.Is(err, sql.ErrNoRows) {
		v, err = 0, nil
	}
	if err != nil {
		return 0, wrap("team version", err)
	}
	s.teams.learn(a.Service, v, era)
	return v, nil
}
