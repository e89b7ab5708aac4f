// Package shared keeps the state that replicas of the dashboard must share
// on Valkey or Redis: the service's answers behind each replica's own
// copies (with server-assisted client-side caching, so a hot copy is read
// from memory until another replica changes it), the users' hourly
// budgets, "who is already fetching this", and sign-out marks.
//
// The store is never in the way: every call gives up after a short
// timeout, a failed call marks the store down so that the next ones do
// not even try, and a probe in the background picks its return up. While
// it is down each replica works alone, from its own copies and its own
// view of the budgets.
package shared

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"log/slog"
	neturl "net/url"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/redis/rueidis"
)

// Options tunes a Store; the zero value is the production setup.
type Options struct {
	// Prefix starts every key; empty means "creditdash:". Tests use
	// their own, to share one server.
	Prefix string
	// Timeout bounds every call to the store; zero means 100 ms.
	Timeout time.Duration
	// ProbeEvery is how often a down store is tried again; zero means one
	// second.
	ProbeEvery time.Duration
	// MemoryBytes bounds the client-side copies of each connection (up to
	// four); zero means 4 MiB: the cache's own first level holds the hot
	// copies, this memory mostly the small, hot sign-out marks and
	// budgets.
	MemoryBytes int
	// Logger notes when the store goes and comes back; nil discards.
	Logger *slog.Logger
}

// ErrDown is what calls answer, without trying, while the store is down.
var ErrDown = errors.New("shared: the store is not answering")

// clientMemory is how long a copy read through client-side caching stays
// in memory at most; invalidations end it sooner.
const clientMemory = time.Minute

// Store is a connection to Valkey or Redis with its health. It is safe for
// concurrent use.
type Store struct {
	opt        rueidis.ClientOption
	prefix     string
	timeout    time.Duration
	probeEvery time.Duration
	log        *slog.Logger

	client atomic.Pointer[clientBox]
	up     atomic.Bool
	// fails counts failed calls in a row: one slow answer on a busy
	// machine is not an outage, a few in a row are.
	fails atomic.Int32
	// errs counts every failed or skipped call, for the operators' metrics.
	errs atomic.Uint64

	mu        sync.Mutex
	downSince time.Time
	lastErr   error
	probing   bool
	watchers  []func(key string, all bool)
	closed    chan struct{}
	closeOnce sync.Once
}

// clientBox holds a client, for an atomic pointer.
type clientBox struct{ c rueidis.Client }

// Open connects to the store at url (redis://[user:password@]host:port/db
// or rediss:// for TLS). A bad URL is an error; an unreachable store is
// not: the dashboard starts degraded and connects when it can.
func Open(url string, opts Options) (*Store, error) {
	opt, err := rueidis.ParseURL(url)
	if err != nil {
		// url.Parse's message quotes the whole URL, password included:
		// only what is wrong is said.
		var ue *neturl.Error
		if errors.As(err, &ue) {
			err = ue.Err
		}
		return nil, fmt.Errorf("shared: REDIS_URL is not a valid Redis URL: %w", err)
	}
	if opts.Prefix == "" {
		opts.Prefix = "creditdash:"
	}
	if opts.Timeout <= 0 {
		opts.Timeout = 100 * time.Millisecond
	}
	if opts.ProbeEvery <= 0 {
		opts.ProbeEvery = time.Second
	}
	if opts.MemoryBytes <= 0 {
		opts.MemoryBytes = 4 << 20
	}
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	s := &Store{prefix: opts.Prefix, timeout: opts.Timeout, probeEvery: opts.ProbeEvery,
		log: opts.Logger, closed: make(chan struct{})}
	// Broadcast tracking: the server tells every replica of every change
	// under these prefixes, whether or not that replica read the key, so
	// a copy this replica fetched itself is dropped when another replica
	// replaces or forgets it.
	opt.ClientTrackingOptions = []string{"PREFIX", s.key(nsCopy, ""), "PREFIX", s.key(nsQuota, ""),
		"PREFIX", s.key(nsSignOut, ""), "BCAST"}
	opt.OnInvalidations = s.invalidated
	opt.CacheSizeEachConn = opts.MemoryBytes
	// Connecting is bounded apart from calls; a call gives up at its own
	// timeout anyway, and the store is then marked down.
	opt.Dialer.Timeout = max(opts.Timeout*10, time.Second)
	opt.ConnWriteTimeout = max(opts.Timeout*10, time.Second)
	s.opt = opt
	if err := s.connect(); err != nil {
		if authRefused(err) {
			// Not an outage: retrying would look like one forever, while
			// sign-outs quietly stopped reaching the other replicas.
			return nil, fmt.Errorf("%w: the server refused the user or password of REDIS_URL: %v", ErrMisconfigured, err)
		}
		s.markDown(err)
	} else {
		s.up.Store(true)
	}
	return s, nil
}

// Key spaces under the prefix.
const (
	nsCopy    = "c:"  // copies of answers, by the cache's key
	nsIndex   = "i:"  // each owner's copy keys, to forget them all
	nsLock    = "l:"  // short claims: one fetch, one first call
	nsQuota   = "q:"  // hourly budgets
	nsSignOut = "so:" // sign-out marks
	nsAttempt = "at:" // sign-in attempts, for the throttle (hashes; "a:" held counters)
)

func (s *Store) key(ns, name string) string { return s.prefix + ns + name }

// connect makes the client, once.
func (s *Store) connect() error {
	if s.client.Load() != nil {
		return nil
	}
	c, err := rueidis.NewClient(s.opt)
	if err != nil {
		return err
	}
	s.client.Store(&clientBox{c: c})
	return nil
}

// conn returns the client while the store is up.
func (s *Store) conn() (rueidis.Client, error) {
	b := s.client.Load()
	if b == nil || !s.up.Load() {
		return nil, ErrDown
	}
	return b.c, nil
}

// failsDown is how many failed calls in a row mark the store down.
const failsDown = 3

// call runs fn against the store within the store timeout and notes a
// failure of the store itself (not a missing key, not a refusal by the
// server, not a caller that went away).
func (s *Store) call(ctx context.Context, fn func(ctx context.Context, c rueidis.Client) error) error {
	c, err := s.conn()
	if err != nil {
		s.errs.Add(1)
		return err
	}
	cctx, cancel := context.WithTimeout(ctx, s.timeout)
	defer cancel()
	err = fn(cctx, c)
	if err == nil || rueidis.IsRedisNil(err) {
		s.fails.Store(0)
		return err
	}
	s.errs.Add(1)
	if _, refused := rueidis.IsRedisErr(err); (!refused || unusable(err)) && ctx.Err() == nil && s.fails.Add(1) >= failsDown {
		s.markDown(err)
	}
	return err
}

// unusable reports an error reply by which the server says it cannot do
// its work now (out of memory, a failed save, a read-only replica, still
// loading, busy): for the dashboard an outage like no answer at all, unlike
// the reply to a command it got wrong.
func unusable(err error) bool {
	re, ok := rueidis.IsRedisErr(err)
	if !ok {
		return false
	}
	word, _, _ := strings.Cut(re.Error(), " ")
	switch word {
	case "OOM", "MISCONF", "READONLY", "LOADING", "MASTERDOWN", "NOREPLICAS", "BUSY", "CLUSTERDOWN", "TRYAGAIN":
		return true
	}
	return false
}

// markDown notes that the store failed and starts the probe that notices
// its return.
func (s *Store) markDown(err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	wasUp := s.up.Swap(false)
	if wasUp || s.downSince.IsZero() {
		s.downSince = time.Now()
		s.log.Warn("shared store down: working from this replica's own copies and budgets", "err", err)
	}
	s.lastErr = err
	if !s.probing {
		s.probing = true
		go s.probe()
	}
}

// probe tries the store until it answers again. Back, every replica's
// first level starts afresh: changes made while this one did not hear
// may have been missed.
func (s *Store) probe() {
	t := time.NewTicker(s.probeEvery)
	defer t.Stop()
	for {
		select {
		case <-s.closed:
			return
		case <-t.C:
		}
		err := s.connect()
		if err == nil {
			ctx, cancel := context.WithTimeout(context.Background(), s.timeout*5)
			err = s.client.Load().c.Do(ctx, s.client.Load().c.B().Ping().Build()).Error()
			cancel()
		}
		s.mu.Lock()
		if err != nil {
			// A store that came back refusing our credentials is not an
			// outage: said once, loudly, for an operator to mend.
			if authRefused(err) && (s.lastErr == nil || !authRefused(s.lastErr)) {
				s.log.Error("shared store refuses the user or password of REDIS_URL: misconfigured, still working alone", "err", err)
			}
			s.lastErr = err
			s.mu.Unlock()
			continue
		}
		s.probing, s.downSince, s.lastErr = false, time.Time{}, nil
		s.fails.Store(0)
		s.up.Store(true)
		s.mu.Unlock()
		s.log.Info("shared store back")
		s.notify("", true)
		return
	}
}

// Errors counts the calls that failed or were skipped while the store was
// down.
func (s *Store) Errors() uint64 { return s.errs.Load() }

// Degraded is nil while the store answers, and otherwise says since when
// it does not: /readyz shows it without failing, since every page still
// works without the store.
func (s *Store) Degraded() error {
	if s.up.Load() {
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return fmt.Errorf("shared: store not answering since %s: %w", s.downSince.UTC().Format(time.RFC3339), s.lastErr)
}

// Close stops the probe and the connections.
func (s *Store) Close() {
	s.closeOnce.Do(func() {
		close(s.closed)
		if b := s.client.Load(); b != nil {
			b.c.Close()
		}
	})
}

// invalidated hears the server's news of changed keys; nil means the
// connection dropped (or the database was flushed): anything may have
// changed unheard. It runs on the connection's reader, so it only passes
// the news on.
func (s *Store) invalidated(msgs []rueidis.RedisMessage) {
	if msgs == nil {
		s.notify("", true)
		return
	}
	copies := s.key(nsCopy, "")
	for _, m := range msgs {
		k, err := m.ToString()
		if err == nil && strings.HasPrefix(k, copies) {
			s.notify(strings.TrimPrefix(k, copies), false)
		}
	}
}

func (s *Store) notify(key string, all bool) {
	s.mu.Lock()
	ws := s.watchers
	s.mu.Unlock()
	for _, w := range ws {
		w(key, all)
	}
}

// token is a random claim token: only its holder may release a claim.
func token() string { return rand.Text() }
