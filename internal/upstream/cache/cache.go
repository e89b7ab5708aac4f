// Package cache sits between the handlers and the credit-risk service. It
// keeps each user's answers for a lifetime per kind of data, bounded in
// bytes, shares one call among identical concurrent requests, never keeps a
// failure, and falls back to an expired copy when the service cannot answer.
// It offers the same methods as the upstream client, so handlers use either.
package cache

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync/atomic"
	"time"

	"github.com/maypok86/otter/v2"
	"golang.org/x/sync/singleflight"

	"creditdash/internal/upstream"
)

// Kind groups data by how long a copy stays fresh.
type Kind int

// The kinds of data and their default lifetimes (see DefaultTTLs).
const (
	KindReport    Kind = iota // scores, payments, statements, officers, header data
	KindPortfolio             // folders, portfolio businesses, score histories
	KindNews                  // folder, industry and portfolio news
	KindSearch                // name search
	KindAccount               // trade providers
	numKinds
)

// DefaultTTLs are the lifetimes when Options leaves them out.
var DefaultTTLs = map[Kind]time.Duration{
	KindReport:    15 * time.Minute,
	KindPortfolio: 15 * time.Minute,
	KindNews:      5 * time.Minute,
	KindSearch:    5 * time.Minute,
	KindAccount:   15 * time.Minute,
}

// Options configures a Cache.
type Options struct {
	// TTLs overrides lifetimes per kind; a zero lifetime keeps nothing
	// fresh (every read asks the service) but still keeps copies to show
	// when the service fails.
	TTLs map[Kind]time.Duration
	// MaxBytes bounds the memory the copies take (estimated as their JSON
	// size); zero means 64 MiB.
	MaxBytes uint64
	// KeepStale is how long an expired copy is kept to show when the service
	// fails; zero means 24 hours.
	KeepStale time.Duration
	// Now is the clock; nil means time.Now.
	Now func() time.Time
}

// Cache wraps an upstream client. It is safe for concurrent use.
type Cache struct {
	client *upstream.Client
	store  *otter.Cache[string, *entry]
	flight singleflight.Group
	ttl    [numKinds]time.Duration
	now    func() time.Time
	quotas *quotaBook
}

// entry is one kept answer.
type entry struct {
	value     any
	fetchedAt time.Time
	weight    uint32
	// version tells this copy from any other of the same key, even one
	// fetched within the same clock tick.
	version uint64
}

// versions numbers every copy the cache keeps.
var versions atomic.Uint64

// New builds a cache in front of client.
func New(client *upstream.Client, opts Options) (*Cache, error) {
	if opts.MaxBytes == 0 {
		opts.MaxBytes = 64 << 20
	}
	if opts.KeepStale <= 0 {
		opts.KeepStale = 24 * time.Hour
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	store, err := otter.New(&otter.Options[string, *entry]{
		MaximumWeight:    opts.MaxBytes,
		Weigher:          func(_ string, e *entry) uint32 { return e.weight },
		ExpiryCalculator: otter.ExpiryWriting[string, *entry](opts.KeepStale),
	})
	if err != nil {
		return nil, fmt.Errorf("cache: %w", err)
	}
	c := &Cache{client: client, store: store, now: opts.Now, quotas: newQuotaBook()}
	for k := range numKinds {
		c.ttl[k] = DefaultTTLs[k]
		if d, ok := opts.TTLs[k]; ok && d >= 0 {
			c.ttl[k] = d
		}
	}
	return c, nil
}

// ErrNotCached is what a probe (see Probe) answers for data it would have to
// fetch.
var ErrNotCached = errors.New("cache: not cached")

// get returns the fresh copy under key, or loads it. Identical concurrent
// loads share one call. When the load fails because the service is out of
// quota or not answering, an expired copy is returned instead, and the
// request's recorder is told.
func get[T any](ctx context.Context, c *Cache, kind Kind, key, sessionKey string, load func(context.Context) (T, error)) (T, error) {
	var zero T
	u := userOf(ctx, sessionKey)
	fullKey := u + "\x00" + key
	held, ok := c.store.GetIfPresent(fullKey)
	now := c.now()
	if ok && now.Sub(held.fetchedAt) < c.ttl[kind] && !bypassing(ctx) {
		recordOf(ctx).used(fullKey, held.fetchedAt, held.version)
		return held.value.(T), nil
	}
	if perr := probeErr(ctx); perr != nil {
		recordOf(ctx).miss()
		return zero, perr
	}
	v, err, _ := c.flight.Do(fullKey, func() (any, error) {
		// The shared call must not die with the first caller's request;
		// the client bounds it with its own timeout.
		callCtx := upstream.WithRateLimitObserver(context.WithoutCancel(ctx), func(q upstream.RateLimit) {
			c.quotas.set(u, q)
		})
		val, err := load(callCtx)
		if err != nil {
			return nil, err
		}
		e := &entry{value: val, fetchedAt: c.now(), weight: weigh(val), version: versions.Add(1)}
		c.store.Set(fullKey, e)
		return e, nil
	})
	if err != nil {
		c.noteRateLimit(u, err)
		if ok && staleWorthy(err) {
			recordOf(ctx).stale(fullKey, held.fetchedAt, held.version, reason(err))
			return held.value.(T), nil
		}
		recordOf(ctx).failed()
		return zero, err
	}
	e := v.(*entry)
	recordOf(ctx).used(fullKey, e.fetchedAt, e.version)
	return e.value.(T), nil
}

// weigh estimates the memory a value takes by its JSON size, which tracks
// the strings and numbers that dominate it.
func weigh(v any) uint32 {
	b, err := json.Marshal(v)
	if err != nil || len(b) > 1<<31 {
		return 1 << 20
	}
	return uint32(len(b)) + 64
}

// staleWorthy reports whether an older copy beats an error page: the
// service is out of quota or not answering. Refusals (403, 404, 400) are
// answers and must be shown as they are.
func staleWorthy(err error) bool {
	return errors.Is(err, upstream.ErrRateLimited) || errors.Is(err, upstream.ErrUnavailable) ||
		errors.Is(err, context.DeadlineExceeded)
}

// reason says why an older copy is shown.
func reason(err error) string {
	if errors.Is(err, upstream.ErrRateLimited) {
		return "the hourly request limit was reached"
	}
	return "the credit-risk service did not answer"
}

// Forget drops every copy held for the user (after a change of trade
// provider, say, when CustomerIds name other businesses).
func (c *Cache) Forget(ctx context.Context, sessionKey string) {
	prefix := userOf(ctx, sessionKey) + "\x00"
	for k := range c.store.Keys() {
		if len(k) >= len(prefix) && k[:len(prefix)] == prefix {
			c.store.Invalidate(k)
		}
	}
}

// Size is the estimated bytes held, for tests and metrics.
func (c *Cache) Size() uint64 { return c.store.WeightedSize() }
