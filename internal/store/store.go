package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// Config says where the store lives; Open reads it once.
type Config struct {
	// DataDir holds creditdash.db when DatabaseURL is empty; Open creates it.
	DataDir string
	// DatabaseURL (postgres:// or postgresql://) selects PostgreSQL.
	DatabaseURL string
	// Logger receives migration and start-up lines; nil discards them.
	Logger *slog.Logger
	// MaxConns bounds the PostgreSQL pool and the SQLite read pool; 0 means 8.
	MaxConns int
	// Now is the clock for stored times; nil means time.Now. Tests set it
	// so that "newest first" does not depend on the machine's clock.
	Now func() time.Time
	// Timeout bounds each call, connecting included; 0 means DefaultTimeout.
	Timeout time.Duration
	// Wait, when the database does not answer at start (or a SQLite file
	// is corrupt), returns a store anyway that retries with backoff and
	// migrates once the database answers; until then its calls fail and
	// Ping and Unavailable say why. Misconfigurations (ErrMisconfigured)
	// still fail Open.
	Wait bool
	// UploadBytes bounds a team's waiting ledger files (uploads.go); 0
	// means DefaultTeamUploadBytes.
	UploadBytes int64
}

// DefaultTimeout is how long one call may take before it fails: a database
// that stops answering must not hold every page that shows workspace data.
const DefaultTimeout = 5 * time.Second

// Engine names which database a Store runs on.
type Engine string

// The two engines.
const (
	SQLite   Engine = "sqlite"
	Postgres Engine = "postgres"
)

// Store is the analyst workspace database; it is safe for concurrent use.
type Store struct {
	engine Engine
	// w takes every write. On SQLite it is a single connection, because
	// SQLite allows one writer at a time and a pool of writers would only
	// queue on the file lock with SQLITE_BUSY; on PostgreSQL w and r are
	// the same pool.
	w       *sql.DB
	r       *reads
	log     *slog.Logger
	now     func() time.Time
	timeout time.Duration
	// uploadBytes is Config.UploadBytes.
	uploadBytes int64
	// path is the SQLite file; unavailable is why a waiting store is not
	// ready (see wait.go); closed ends its retries.
	path        string
	unavailable atomic.Pointer[error]
	closed      chan struct{}
	closeOnce   sync.Once
	// reserve is the file of room kept for deletes on SQLite (see
	// reserve.go); "" on PostgreSQL.
	reserve string
	// teams are the team versions believed in this process (team_book.go);
	// releaseBook gives a SQLite file's shared book back; stopListening
	// ends PostgreSQL's listener, which closes listenDone when gone.
	teams         *teamBook
	releaseBook   func()
	stopListening context.CancelFunc
	listenDone    chan struct{}
}

// Open connects to the engine the config selects, runs pending migrations
// once (under a lock, so replicas starting together do not race) and
// returns a ready Store.
func Open(ctx context.Context, cfg Config) (*Store, error) {
	if cfg.Timeout <= 0 {
		cfg.Timeout = DefaultTimeout
	}
	s := &Store{log: cfg.Logger, now: cfg.Now, timeout: cfg.Timeout, uploadBytes: cfg.UploadBytes, closed: make(chan struct{})}
	if s.uploadBytes <= 0 {
		s.uploadBytes = DefaultTeamUploadBytes
	}
	if s.log == nil {
		s.log = slog.New(slog.DiscardHandler)
	}
	if s.now == nil {
		s.now = time.Now
	}
	if cfg.MaxConns <= 0 {
		cfg.MaxConns = 8
	}
	var err error
	switch {
	case cfg.DatabaseURL != "":
		if !strings.HasPrefix(cfg.DatabaseURL, "postgres://") && !strings.HasPrefix(cfg.DatabaseURL, "postgresql://") {
			return nil, errors.New("store: the database URL (DATABASE_URL) must start with postgres:// or postgresql://")
		}
		s.engine = Postgres
		err = s.openPostgres(ctx, cfg)
	case cfg.DataDir != "":
		s.engine = SQLite
		err = s.openSQLite(ctx, cfg)
	default:
		return nil, errors.New("store: neither a data directory nor a database URL is set")
	}
	if err != nil {
		return nil, err
	}
	if err := s.prepare(ctx); err != nil {
		if !cfg.Wait || errors.Is(err, ErrMisconfigured) {
			s.Close()
			return nil, err
		}
		s.unavailable.Store(&err)
		s.log.Error("store: the workspace database is unavailable; workspace pages say so until it answers", "err", err)
		go s.waitForDatabase()
	}
	return s, nil
}

// Engine reports which database the store runs on.
func (s *Store) Engine() Engine { return s.engine }

// Ping checks that the database answers, for readiness probes.
func (s *Store) Ping(ctx context.Context) error {
	if err := s.Unavailable(); err != nil {
		return err
	}
	ctx, cancel := s.bound(ctx)
	defer cancel()
	if err := s.r.PingContext(ctx); err != nil {
		return fmt.Errorf("store: ping: %w", err)
	}
	return nil
}

// Close releases the connections; the Store is unusable afterwards.
func (s *Store) Close() error {
	s.closeOnce.Do(func() {
		close(s.closed)
		if s.stopListening != nil {
			s.stopListening()
			<-s.listenDone
		}
		if s.releaseBook != nil {
			s.releaseBook()
		}
	})
	if s.r.db == s.w {
		return s.w.Close() // PostgreSQL: one pool, no statements kept
	}
	return errors.Join(s.r.Close(), s.w.Close())
}

// bound gives one call its deadline: the caller's, or the store's timeout
// if that comes first.
func (s *Store) bound(ctx context.Context) (context.Context, context.CancelFunc) {
	return context.WithTimeout(ctx, s.timeout)
}

// stamp is the current time as stored: Unix microseconds, which both
// engines keep exactly in a BIGINT.
func (s *Store) stamp() int64 { return s.now().UnixMicro() }

// fromStamp turns a stored time back into a UTC time.Time.
func fromStamp(us int64) time.Time { return time.UnixMicro(us).UTC() }

// PoolStats are the connection pools' figures for operators' metrics, by
// pool: "writes" and "reads" on SQLite, "pool" on PostgreSQL (one pool).
func (s *Store) PoolStats() map[string]sql.DBStats {
	if s.r.db == s.w {
		return map[string]sql.DBStats{"pool": s.w.Stats()}
	}
	return map[string]sql.DBStats{"writes": s.w.Stats(), "reads": s.r.db.Stats()}
}
