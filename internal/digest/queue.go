package digest

import (
	"context"
	"fmt"
	"log/slog"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/riverdriver"
	"github.com/riverqueue/river/riverdriver/riverpgxv5"
	"github.com/riverqueue/river/riverdriver/riversqlite"
	"github.com/riverqueue/river/rivermigrate"

	"creditdash/internal/store"
)

// queue is the durable job queue, whichever database driver runs it.
type queue interface {
	// insert adds a job; dup reports a unique job already there.
	insert(ctx context.Context, args river.JobArgs, opts *river.InsertOpts) (dup bool, err error)
	migrate(ctx context.Context) error
	start(ctx context.Context) error
	stop(ctx context.Context) error
}

// riverQueue is a River client on one driver.
type riverQueue[TTx any] struct {
	driver riverdriver.Driver[TTx]
	client *river.Client[TTx]
	log    *slog.Logger
	closer func()
}

func (q *riverQueue[TTx]) insert(ctx context.Context, args river.JobArgs, opts *river.InsertOpts) (bool, error) {
	res, err := q.client.Insert(ctx, args, opts)
	if err != nil {
		return false, fmt.Errorf("digest: queue: %w", err)
	}
	return res.UniqueSkippedAsDuplicate, nil
}

func (q *riverQueue[TTx]) migrate(ctx context.Context) error {
	m, err := rivermigrate.New(q.driver, &rivermigrate.Config{Logger: q.log})
	if err != nil {
		return fmt.Errorf("digest: queue migrations: %w", err)
	}
	if _, err := m.Migrate(ctx, rivermigrate.DirectionUp, nil); err != nil {
		return fmt.Errorf("digest: queue migrations: %w", err)
	}
	return nil
}

func (q *riverQueue[TTx]) start(ctx context.Context) error { return q.client.Start(ctx) }

func (q *riverQueue[TTx]) stop(ctx context.Context) error {
	err := q.client.Stop(ctx)
	if q.closer != nil {
		q.closer()
	}
	return err
}

// queueConfig is River's configuration for a tick: due digests are looked
// for every tick, jobs fetched at least as often.
func queueConfig(tick time.Duration, workers *river.Workers, log *slog.Logger, pollOnly bool) *river.Config {
	poll := min(tick, time.Second)
	return &river.Config{
		Queues:            map[string]river.QueueConfig{river.QueueDefault: {MaxWorkers: 4}},
		Workers:           workers,
		Logger:            log,
		PollOnly:          pollOnly,
		JobTimeout:        time.Minute,
		MaxAttempts:       maxAttempts,
		FetchCooldown:     min(poll, 100*time.Millisecond),
		FetchPollInterval: poll,
		// Longer than a week, so that a weekly digest's finished job still
		// stands in the way of a second one (last_period guards as well).
		CompletedJobRetentionPeriod: 8 * 24 * time.Hour,
		PeriodicJobs: []*river.PeriodicJob{river.NewPeriodicJob(river.PeriodicInterval(tick),
			func() (river.JobArgs, *river.InsertOpts) {
				// Only the leader enqueues ticks; unique by period as well
				// where River allows it (a second or more), so a change of
				// leader does not double one.
				if tick >= time.Second {
					return tickArgs{}, &river.InsertOpts{UniqueOpts: river.UniqueOpts{ByPeriod: tick}}
				}
				return tickArgs{}, nil
			}, &river.PeriodicJobOpts{RunOnStart: true})},
	}
}

// newQueue builds the queue on the workspace database: River's pgx driver
// on its own small pool on PostgreSQL, its SQLite driver on the store's
// one writer on SQLite.
func newQueue(ctx context.Context, st *store.Store, databaseURL string, tick time.Duration, workers *river.Workers, log *slog.Logger) (queue, error) {
	log = quiet(log)
	if st.Engine() == store.Postgres {
		pc, err := pgxpool.ParseConfig(databaseURL)
		if err != nil {
			return nil, fmt.Errorf("digest: the database URL is not a valid PostgreSQL URL")
		}
		pc.MaxConns = 4
		pool, err := pgxpool.NewWithConfig(ctx, pc)
		if err != nil {
			return nil, fmt.Errorf("digest: job queue pool: %w", err)
		}
		d := riverpgxv5.New(pool)
		c, err := river.NewClient(d, queueConfig(tick, workers, log, false))
		if err != nil {
			pool.Close()
			return nil, fmt.Errorf("digest: job queue: %w", err)
		}
		return &riverQueue[pgxTx]{driver: d, client: c, log: log, closer: pool.Close}, nil
	}
	d := riversqlite.New(st.JobsDB())
	c, err := river.NewClient(d, queueConfig(tick, workers, log, true))
	if err != nil {
		return nil, fmt.Errorf("digest: job queue: %w", err)
	}
	return &riverQueue[sqlTx]{driver: d, client: c, log: log}, nil
}
