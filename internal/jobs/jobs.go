// Package jobs is the dashboard's one durable job queue: River on the
// workspace database (its pgx driver on PostgreSQL, its SQLite driver on
// the store's one writer on SQLite), so a job runs once across replicas
// and survives restarts. The parts that run work without a browser (the
// e-mail digest, webhook deliveries) register their workers, periodic
// jobs and queues before Start; River elects one leader per database, so
// one client must know every kind.
package jobs

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/riverdriver"
	"github.com/riverqueue/river/riverdriver/riverpgxv5"
	"github.com/riverqueue/river/riverdriver/riversqlite"
	"github.com/riverqueue/river/rivermigrate"

	"creditdash/internal/store"
)

// ErrNotStarted: a job was inserted before Start.
var ErrNotStarted = errors.New("jobs: the job queue is not started")

// Config is what a Queue needs.
type Config struct {
	Store *store.Store
	// DatabaseURL is the workspace's PostgreSQL URL ("" on SQLite).
	DatabaseURL string
	// Poll is how often jobs are looked for (on SQLite, which has no
	// notifications, the only way a new job is seen); zero means a second.
	Poll time.Duration
	Log  *slog.Logger
}

// Queue is the River client and what was registered for it.
type Queue struct {
	cfg      Config
	workers  *river.Workers
	periodic []*river.PeriodicJob
	queues   map[string]river.QueueConfig

	client  inserter
	stop    func(ctx context.Context) error
	cancel  context.CancelFunc
	stopped chan struct{}
	once    sync.Once
}

// inserter is a River client of either driver, as the queue uses it.
type inserter interface {
	Insert(ctx context.Context, args river.JobArgs, opts *river.InsertOpts) (bool, error)
}

// New makes a queue with the default queue of 4 workers; register, then
// Start.
func New(cfg Config) *Queue {
	if cfg.Log == nil {
		cfg.Log = slog.New(slog.DiscardHandler)
	}
	if cfg.Poll <= 0 {
		cfg.Poll = time.Second
	}
	return &Queue{cfg: cfg, workers: river.NewWorkers(),
		queues: map[string]river.QueueConfig{river.QueueDefault: {MaxWorkers: 4}}}
}

// Workers is where the parts add their workers (river.AddWorker).
func (q *Queue) Workers() *river.Workers { return q.workers }

// AddPeriodic adds a job the leader enqueues on a schedule.
func (q *Queue) AddPeriodic(p *river.PeriodicJob) { q.periodic = append(q.periodic, p) }

// AddQueue adds a named queue of its own workers, so slow work in it never
// holds another part's jobs.
func (q *Queue) AddQueue(name string, maxWorkers int) {
	q.queues[name] = river.QueueConfig{MaxWorkers: maxWorkers}
}

// Poll is how often jobs are looked for.
func (q *Queue) Poll() time.Duration { return q.cfg.Poll }

// Insert adds a job; dup reports a unique job already there.
func (q *Queue) Insert(ctx context.Context, args river.JobArgs, opts *river.InsertOpts) (dup bool, err error) {
	if q.client == nil {
		return false, ErrNotStarted
	}
	return q.client.Insert(ctx, args, opts)
}

// riverClient adapts one driver's client.
type riverClient[TTx any] struct{ c *river.Client[TTx] }

func (r riverClient[TTx]) Insert(ctx context.Context, args river.JobArgs, opts *river.InsertOpts) (bool, error) {
	res, err := r.c.Insert(ctx, args, opts)
	if err != nil {
		return false, fmt.Errorf("jobs: insert %s: %w", args.Kind(), err)
	}
	return res.UniqueSkippedAsDuplicate, nil
}

// config is River's configuration of what was registered.
func (q *Queue) config(log *slog.Logger, pollOnly bool) *river.Config {
	return &river.Config{
		Queues:            q.queues,
		Workers:           q.workers,
		Logger:            log,
		PollOnly:          pollOnly,
		JobTimeout:        time.Minute,
		FetchCooldown:     min(q.cfg.Poll, 100*time.Millisecond),
		FetchPollInterval: q.cfg.Poll,
		// Longer than a week, so that a weekly digest's finished job still
		// stands in the way of a second one (last_period guards as well).
		CompletedJobRetentionPeriod: 8 * 24 * time.Hour,
		PeriodicJobs:                q.periodic,
	}
}

// Start builds the client, then migrates River's tables and starts it in
// the background, retrying while the workspace database is not there
// yet; it waits up to 10 s for that unless the store already says it is
// unavailable (the dashboard then starts degraded and the queue follows).
func (q *Queue) Start() error {
	ctx, cancel := context.WithCancel(context.Background())
	log := quiet(q.cfg.Log)
	var migrate, start func(ctx context.Context) error
	st := q.cfg.Store
	if st.Engine() == store.Postgres {
		pc, err := pgxpool.ParseConfig(q.cfg.DatabaseURL)
		if err != nil {
			cancel()
			return fmt.Errorf("jobs: the database URL is not a valid PostgreSQL URL")
		}
		pc.MaxConns = 4
		pool, err := pgxpool.NewWithConfig(ctx, pc)
		if err != nil {
			cancel()
			return fmt.Errorf("jobs: job queue pool: %w", err)
		}
		d := riverpgxv5.New(pool)
		c, err := river.NewClient(d, q.config(log, false))
		if err != nil {
			pool.Close()
			cancel()
			return fmt.Errorf("jobs: job queue: %w", err)
		}
		q.client, migrate, start = riverClient[pgx.Tx]{c}, migrator[pgx.Tx](d, log), c.Start
		q.stop = func(ctx context.Context) error { defer pool.Close(); return c.Stop(ctx) }
	} else {
		d := riversqlite.New(st.JobsDB())
		c, err := river.NewClient(d, q.config(log, true))
		if err != nil {
			cancel()
			return fmt.Errorf("jobs: job queue: %w", err)
		}
		q.client, migrate, start = riverClient[*sql.Tx]{c}, migrator[*sql.Tx](d, log), c.Start
		q.stop = c.Stop
	}
	q.cancel, q.stopped = cancel, make(chan struct{})
	ready := make(chan error, 1)
	go func() {
		defer close(q.stopped)
		wait := 100 * time.Millisecond
		for {
			err := st.Migrating(ctx, migrate)
			if err == nil {
				// Not ctx: cancelling River's would stop it hard, cutting a
				// job short; Close stops it softly instead.
				err = start(context.WithoutCancel(ctx))
			}
			if err == nil {
				ready <- nil
				return
			}
			q.cfg.Log.Warn("jobs: the job queue is not running yet; retrying", "err", err)
			select {
			case <-ctx.Done():
				return
			case <-time.After(wait):
			}
			wait = min(2*wait, 30*time.Second)
		}
	}()
	if st.Unavailable() != nil {
		return nil
	}
	select {
	case err := <-ready:
		return err
	case <-time.After(10 * time.Second):
		return nil // still trying in the background, logged
	}
}

// migrator runs River's own migrations on its driver.
func migrator[TTx any](d riverdriver.Driver[TTx], log *slog.Logger) func(ctx context.Context) error {
	return func(ctx context.Context) error {
		m, err := rivermigrate.New(d, &rivermigrate.Config{Logger: log})
		if err != nil {
			return fmt.Errorf("jobs: queue migrations: %w", err)
		}
		if _, err := m.Migrate(ctx, rivermigrate.DirectionUp, nil); err != nil {
			return fmt.Errorf("jobs: queue migrations: %w", err)
		}
		return nil
	}
}

// Close stops the queue, letting running jobs finish within ctx.
func (q *Queue) Close(ctx context.Context) error {
	if q.stop == nil {
		return nil
	}
	var err error
	q.once.Do(func() {
		q.cancel()
		<-q.stopped
		err = q.stop(ctx)
	})
	return err
}
