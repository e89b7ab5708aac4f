package webhooks

import (
	"context"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/riverqueue/river"

	"creditdash/internal/jobs"
	"creditdash/internal/store"
)

// Defaults of a Service.
const (
	// DefaultPoll is how often the outbox is looked at: an event waits
	// at most this long for its deliveries to be made.
	DefaultPoll = 250 * time.Millisecond
	// DefaultRetryBase is the wait before the first retry; each next one
	// waits twice as long, up to maxRetryWait.
	DefaultRetryBase = 5 * time.Second
	// DefaultWindow is how long a delivery is retried before it is given up.
	DefaultWindow = 24 * time.Hour
	// DefaultTimeout bounds one try, from dialling to the last byte read.
	DefaultTimeout = 10 * time.Second
	// Retention is how long finished deliveries stay in the log.
	Retention = 30 * 24 * time.Hour
)

const (
	// queueName is the deliveries' own queue: a slow endpoint never holds
	// a digest, and the other way round.
	queueName = "webhooks"
	// queueWorkers is how many deliveries one replica sends at once.
	queueWorkers = 8
	// maxTries backs up the window: no delivery is tried more often.
	maxTries = 40
	// maxRetryWait caps the backoff, so the window's last hours still see
	// tries.
	maxRetryWait = 6 * time.Hour
	// dialTimeout bounds connecting; maxResponse is what is read of an
	// answer (nothing of it is kept but its status).
	dialTimeout = 5 * time.Second
	maxResponse = 64 << 10
	// batch is how many events or deliveries one look takes.
	batch = 200
)

// Config is what a Service needs; internal/app fills it.
type Config struct {
	Store *store.Store
	Jobs  *jobs.Queue
	// AllowPrivate lets endpoints be at private and loopback addresses
	// (WEBHOOK_ALLOW_PRIVATE=true): a receiver on the same network.
	AllowPrivate bool
	// Resolver looks hosts up at registration; nil means the system's.
	Resolver Resolver
	// Poll, RetryBase, Window and Timeout: zero means the defaults.
	Poll, RetryBase, Window, Timeout time.Duration
	Log                              *slog.Logger
	Now                              func() time.Time
}

// Service registers endpoints, makes deliveries of the outbox and sends
// them; handlers and the job queue share it.
type Service struct {
	cfg    Config
	store  *store.Store
	jobs   *jobs.Queue
	client *http.Client
	log    *slog.Logger
	now    func() time.Time

	stop    context.CancelFunc
	stopped chan struct{}
	once    sync.Once
}

// New builds the service; Register adds its worker to the queue, Start
// runs its dispatcher.
func New(cfg Config) *Service {
	if cfg.Poll <= 0 {
		cfg.Poll = DefaultPoll
	}
	if cfg.RetryBase <= 0 {
		cfg.RetryBase = DefaultRetryBase
	}
	if cfg.Window <= 0 {
		cfg.Window = DefaultWindow
	}
	if cfg.Timeout <= 0 {
		cfg.Timeout = DefaultTimeout
	}
	if cfg.Resolver == nil {
		cfg.Resolver = net.DefaultResolver
	}
	if cfg.Log == nil {
		cfg.Log = slog.New(slog.DiscardHandler)
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	s := &Service{cfg: cfg, store: cfg.Store, jobs: cfg.Jobs, log: cfg.Log, now: cfg.Now}
	s.client = &http.Client{
		Timeout: cfg.Timeout,
		Transport: &http.Transport{
			// No proxy from the environment: a proxy would dial for us,
			// past the dialer's check.
			Proxy:                  nil,
			DialContext:            dialer(cfg.AllowPrivate).DialContext,
			TLSHandshakeTimeout:    dialTimeout,
			ResponseHeaderTimeout:  cfg.Timeout,
			MaxResponseHeaderBytes: 16 << 10,
			MaxIdleConns:           16,
			IdleConnTimeout:        30 * time.Second,
		},
		// A redirect is an answer, not a new address to post to: the
		// next address was never checked, and the body would not follow.
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
	return s
}

// AllowPrivate tells whether private addresses are allowed.
func (s *Service) AllowPrivate() bool { return s.cfg.AllowPrivate }

// Register adds the delivery worker and its queue to the job queue,
// before the queue starts.
func (s *Service) Register() {
	s.jobs.AddQueue(queueName, queueWorkers)
	river.AddWorker(s.jobs.Workers(), &deliverWorker{s: s})
}

// Start runs the dispatcher until Close: every Poll it makes the
// deliveries of waiting events and puts waiting deliveries on the queue.
func (s *Service) Start() {
	ctx, cancel := context.WithCancel(context.Background())
	s.stop, s.stopped = cancel, make(chan struct{})
	go func() {
		defer close(s.stopped)
		t := time.NewTicker(s.cfg.Poll)
		defer t.Stop()
		var pruned time.Time
		for {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
			}
			if err := s.Dispatch(ctx); err != nil && ctx.Err() == nil {
				s.log.Warn("webhooks: dispatching events", "err", err)
			}
			if now := s.now(); now.Sub(pruned) > time.Hour {
				pruned = now
				if err := s.store.PruneWebhooks(ctx, now.Add(-Retention)); err != nil && ctx.Err() == nil {
					s.log.Warn("webhooks: pruning the delivery log", "err", err)
				}
			}
		}
	}()
}

// Close stops the dispatcher (the queue is closed by its owner).
func (s *Service) Close() {
	if s.stop == nil {
		return
	}
	s.once.Do(func() {
		s.stop()
		<-s.stopped
	})
}

// Dispatch makes the deliveries of every waiting event and puts every
// delivery waiting for its job on the queue. Replicas may run it at once:
// events are claimed in a transaction, and a job is unique by delivery and
// round.
func (s *Service) Dispatch(ctx context.Context) error {
	for {
		n, err := s.store.DispatchEvents(ctx, batch)
		if err != nil {
			return err
		}
		if n < batch {
			break
		}
	}
	for {
		waiting, err := s.store.UnqueuedDeliveries(ctx, batch)
		if err != nil {
			return err
		}
		for _, q := range waiting {
			if err := s.enqueue(ctx, q); err != nil {
				return err
			}
		}
		if len(waiting) < batch {
			return nil
		}
	}
}

// enqueue puts a delivery's round on the queue and notes it.
func (s *Service) enqueue(ctx context.Context, q store.Queued) error {
	if _, err := s.jobs.Insert(ctx, deliverArgs{Delivery: q.Delivery, Round: q.Round}, &river.InsertOpts{
		Queue: queueName, MaxAttempts: maxTries, UniqueOpts: river.UniqueOpts{ByArgs: true}}); err != nil {
		return err
	}
	return s.store.MarkQueued(ctx, q)
}

// Add registers an endpoint for the team: its address checked, a new
// secret made. The returned Webhook carries the secret, to be shown once.
func (s *Service) Add(ctx context.Context, a store.Analyst, rawURL string, events []string) (store.Webhook, error) {
	u, err := CheckURL(ctx, rawURL, s.cfg.AllowPrivate, s.cfg.Resolver)
	if err != nil {
		return store.Webhook{}, &store.ValidationError{Field: "url", Message: message(err)}
	}
	return s.store.AddWebhook(ctx, a, u, events, NewSecret())
}

// Replay sends one of the team's finished deliveries again as the same
// message, at once.
func (s *Service) Replay(ctx context.Context, a store.Analyst, delivery int64) error {
	q, err := s.store.ReplayDelivery(ctx, a, delivery)
	if err != nil {
		return err
	}
	if err := s.enqueue(ctx, q); err != nil {
		// The dispatcher's next look puts it on the queue.
		s.log.Warn("webhooks: queueing a replay", "err", err)
	}
	return nil
}

// message is an error's words for a form, without the package prefix.
func message(err error) string { return strings.TrimPrefix(err.Error(), "webhooks: ") }
