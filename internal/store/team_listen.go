package store

import (
	"context"
	"database/sql"
	"errors"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
)

// teamChannel is the PostgreSQL channel on which every team write
// announces the version it committed ("version service"). NOTIFY inside
// the write's transaction is delivered only if, and once, it commits.
const teamChannel = "creditdash_team_versions"

// listenCheck is how long the listener waits for a notification before it
// checks that its connection still answers: one that died without a word
// (a firewall dropping an idle connection) would otherwise leave the book
// believed while other replicas' versions go unheard.
const listenCheck = 10 * time.Second

// listenTeams keeps the store's book in step with the versions every
// replica commits, for as long as the store is open: it listens on one
// connection of its own outside the pool, believes the book only while
// listening, and connects again after a failure, waiting longer each time
// up to lastRetry.
func (s *Store) listenTeams(ctx context.Context, pc *pgx.ConnConfig) {
	defer close(s.listenDone)
	wait := firstRetry
	for {
		up, err := s.listenOnce(ctx, pc)
		s.teams.setLive(false)
		if ctx.Err() != nil {
			return
		}
		if up {
			s.log.Warn("store: lost the team versions' notifications; team pages ask the database until they are back", "err", err)
			wait = firstRetry
		}
		select {
		case <-ctx.Done():
			return
		case <-time.After(wait):
		}
		wait = min(2*wait, lastRetry)
	}
}

// listenOnce connects, listens and hears notifications until the
// connection fails; up reports whether it got as far as listening.
func (s *Store) listenOnce(ctx context.Context, pc *pgx.ConnConfig) (up bool, err error) {
	bounded, cancel := s.bound(ctx)
	conn, err := pgx.ConnectConfig(bounded, pc)
	cancel()
	if err != nil {
		return false, err
	}
	defer func() {
		closing, cancel := context.WithTimeout(context.Background(), time.Second)
		defer cancel()
		conn.Close(closing)
	}()
	bounded, cancel = s.bound(ctx)
	_, err = conn.Exec(bounded, "LISTEN "+teamChannel)
	cancel()
	if err != nil {
		return false, err
	}
	// From here on every commit is heard, so the book may be believed.
	s.teams.setLive(true)
	for {
		waiting, cancel := context.WithTimeout(ctx, listenCheck)
		n, err := conn.WaitForNotification(waiting)
		cancel()
		switch {
		case err == nil:
			s.heard(n.Payload)
		case ctx.Err() != nil:
			return true, ctx.Err()
		case errors.Is(err, context.DeadlineExceeded):
			bounded, cancel := s.bound(ctx)
			err := conn.Ping(bounded)
			cancel()
			if err != nil {
				return true, err
			}
		default:
			return true, err
		}
	}
}

// heard records a version announced on teamChannel. A payload that does
// not parse (another program on the channel) cannot be trusted to be the
// only news missed, so the book starts again.
func (s *Store) heard(payload string) {
	num, service, ok := strings.Cut(payload, " ")
	v, err := strconv.ParseInt(num, 10, 64)
	if !ok || err != nil {
		s.teams.setLive(true)
		return
	}
	s.teams.moved(service, v)
}

// announceTeam makes tx's commit announce the team's new version v to
// every listening replica (PostgreSQL only).
func announceTeam(ctx context.Context, tx *sql.Tx, service string, v int64) error {
	_, err := tx.ExecContext(ctx, "SELECT pg_notify($1, $2)", teamChannel, strconv.FormatInt(v, 10)+" "+service)
	return err
}
