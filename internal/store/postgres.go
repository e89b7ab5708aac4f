package store

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/stdlib"
)

// ListenerName names the listener's connection among the server's, for
// operators (pg_stat_activity) and tests.
const ListenerName = "creditdash team versions"

// openPostgres opens a bounded pool through pgx's database/sql driver, so
// both engines share every query.
func (s *Store) openPostgres(ctx context.Context, cfg Config) error {
	pc, err := pgx.ParseConfig(cfg.DatabaseURL)
	if err != nil {
		// pgx's message can quote the URL, password included.
		return fmt.Errorf("store: the database URL (DATABASE_URL) is not a valid PostgreSQL URL")
	}
	if pc.ConnectTimeout == 0 {
		// A server that accepts but never answers would otherwise hold
		// the start-up, and each new connection, without end.
		pc.ConnectTimeout = cfg.Timeout
	}
	db := stdlib.OpenDB(*pc)
	// Migrations hold one connection for the advisory lock while goose
	// works on another.
	cfg.MaxConns = max(cfg.MaxConns, 2)
	db.SetMaxOpenConns(cfg.MaxConns)
	db.SetMaxIdleConns(cfg.MaxConns)
	db.SetConnMaxIdleTime(5 * time.Minute)
	db.SetConnMaxLifetime(time.Hour)
	if err := db.PingContext(ctx); err != nil {
		if m := misconfigured(err); m != nil || !cfg.Wait {
			db.Close()
			if m != nil {
				return fmt.Errorf("store: connect to postgres at %s: %w", pc.Host, m)
			}
			return fmt.Errorf("store: connect to postgres at %s: %w", pc.Host, err)
		}
		// Waiting (Config.Wait): Open retries through this pool.
	}
	s.w, s.r = db, newReads(db, false)
	s.teams = newTeamBook(false, 0)
	listener := pc.Copy()
	listener.RuntimeParams["application_name"] = ListenerName
	var listening context.Context
	listening, s.stopListening = context.WithCancel(context.Background())
	s.listenDone = make(chan struct{})
	go s.listenTeams(listening, listener)
	s.log.Info("store: postgres", "host", pc.Host, "database", pc.Database)
	return nil
}
