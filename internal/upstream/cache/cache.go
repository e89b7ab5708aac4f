// Package cache sits between the handlers and the credit-risk service. It
// keeps each user's answers for a lifetime per kind of data, bounded in
// bytes, shares one call among identical concurrent requests, never keeps a
// failure, and falls back to an expired copy when the service cannot answer.
// Pages read through a Reader, which notes how each answer was had.
//
// Replicas of the dashboard add a Second level shared by all of them and a
// shared Book of budgets (internal/shared): this process's copies stay in
// front, and are dropped when the shared level says another replica
// changed them.
package cache

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"math/rand/v2"
	"reflect"
	"strings"
	"sync/atomic"
	"time"

	"github.com/maypok86/otter/v2"
	"github.com/maypok86/otter/v2/stats"
	"golang.org/x/sync/singleflight"

	"creditdash/internal/upstream"
)

// Kind groups data by how long a copy stays fresh; each operation of the
// client names its own (upstream.Kind).
type Kind = upstream.Kind

// The kinds of data (see upstream.Kind) and their default lifetimes (see
// DefaultTTLs).
const (
	KindReport    = upstream.KindReport
	KindPortfolio = upstream.KindPortfolio
	KindNews      = upstream.KindNews
	KindSearch    = upstream.KindSearch
	KindAccount   = upstream.KindAccount
	numKinds      = upstream.NumKinds
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
	// Second, when set, is the level shared by replicas behind this
	// process's copies (see internal/shared); nil keeps copies in
	// process only.
	Second Second
	// Book keeps the users' hourly budgets; nil means NewBook, this
	// process's own.
	Book Book
	// FetchWait bounds how long a read waits for another replica's
	// fetch of the same copy (the service's timeout); zero means 10
	// seconds.
	FetchWait time.Duration
}

// Cache keeps copies of the service's answers. It is safe for concurrent use.
type Cache struct {
	svc       *upstream.Client
	store     *otter.Cache[string, *entry]
	flight    singleflight.Group
	ttl       [numKinds]time.Duration
	now       func() time.Time
	quotas    Book
	second    Second
	keepStale time.Duration
	fetchWait time.Duration
	heard     [stripes]atomic.Uint64
	counts    counters
}

// entry is one kept answer; it is never changed once stored.
type entry struct {
	// value is the answer decoded (see upstream.Value).
	value     any
	fetchedAt time.Time
	weight    uint32
	// version tells this copy from any other of the same key, even one
	// fetched within the same clock tick.
	version uint64
	// forgotten is set by a Refresh: the copy is no longer fresh, but is
	// still shown, marked, if the service then fails.
	forgotten bool
}

// versions numbers every copy the cache keeps. It starts at random, so
// that copies of replicas sharing a store never share a number.
var versions atomic.Uint64

func init() { versions.Store(rand.Uint64()) }

// New builds a cache for the operations of svc: each page's Reader has
// them all, read through the cache.
func New(svc *upstream.Client, opts Options) (*Cache, error) {
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
		// Evictions for the operators' metrics (see Stats).
		StatsRecorder: stats.NewCounter(),
	})
	if err != nil {
		return nil, fmt.Errorf("cache: %w", err)
	}
	if opts.Book == nil {
		opts.Book = NewBook(opts.Now)
	}
	if opts.FetchWait <= 0 {
		opts.FetchWait = 10 * time.Second
	}
	c := &Cache{svc: svc, store: store, now: opts.Now, quotas: opts.Book, second: opts.Second,
		keepStale: opts.KeepStale, fetchWait: opts.FetchWait}
	if c.second != nil {
		c.second.Watch(c.changed)
	}
	for k := range numKinds {
		c.ttl[k] = DefaultTTLs[k]
		if d, ok := opts.TTLs[k]; ok && d >= 0 {
			c.ttl[k] = d
		}
	}
	return c, nil
}

// ErrNotCached is what a probing Reader answers for data it would have to
// fetch.
var ErrNotCached = errors.New("cache: not cached")

// Who names whose copies a read may use and the service session key that
// pays for a fetch. Copies are never shared between users: access models
// differ.
type Who struct {
	User string
	Key  string
}

// owner is the prefix of every key of the user's copies. Without a user
// name the copies belong to the session key, by a hash of it: the key
// itself must not sit in memory longer than the cookie carries it.
func (w Who) owner() string {
	if w.User == "" {
		sum := sha256.Sum256([]byte(w.Key))
		return "k:" + hex.EncodeToString(sum[:12]) + "\x00"
	}
	return ownerOf(w.User)
}

func ownerOf(user string) string { return "u:" + user + "\x00" }

// CopyToken names one kept answer of a user without saying what it is: a
// page lists the tokens of the copies it used, and its Refresh sends them
// back to be forgotten.
func CopyToken(opKey string) string {
	sum := sha256.Sum256([]byte(opKey))
	return hex.EncodeToString(sum[:12])
}

// ValidToken reports whether s has the shape of a CopyToken.
func ValidToken(s string) bool {
	if len(s) != 24 {
		return false
	}
	_, err := hex.DecodeString(s)
	return err == nil && strings.ToLower(s) == s
}

// Read answers rq into out from the fresh copy held by this process or the
// shared level, or loads it with fetch. Identical concurrent loads share
// one call, across replicas too, each paid for from the user's budget.
// When the load fails because the service is out of quota or not
// answering, the newest expired copy is answered instead, and the reader
// notes it. Every operation of the client comes here (upstream.Keeper).
func (r *Reader) Read(ctx context.Context, rq upstream.Request, out any, fetch upstream.Fetch) error {
	c := r.c
	token := CopyToken(rq.Key)
	fullKey := r.owner + token
	held, ok := c.store.GetIfPresent(fullKey)
	if ok && c.fresh(rq.Kind, held) {
		c.counts.first.Add(1)
		r.rec.used(token, held.fetchedAt, Dep{key: fullKey, kind: rq.Kind, version: held.version})
		upstream.Assign(out, held.value)
		return nil
	}
	if e := secondGet(ctx, c, fullKey, rq, out); e != nil {
		if c.fresh(rq.Kind, e) {
			c.counts.second.Add(1)
			r.rec.used(token, e.fetchedAt, Dep{key: fullKey, kind: rq.Kind, version: e.version})
			upstream.Assign(out, e.value)
			return nil
		}
		if !ok || e.fetchedAt.After(held.fetchedAt) {
			held, ok = e, true // the newer of the expired copies stands in
		}
	}
	if r.hold != nil {
		if err := r.hold(ctx); err != nil {
			r.rec.miss(Dep{key: fullKey, kind: rq.Kind, absent: true})
			return err
		}
	}
	c.counts.misses.Add(1)
	user := r.who.User
	v, err, merged := c.flight.Do(fullKey, func() (any, error) {
		// The shared call must not die with the first caller's request;
		// the client bounds it with its own timeout.
		ctx := context.WithoutCancel(ctx)
		e, release, fetching := awaitShared(ctx, c, fullKey, rq, out)
		if !fetching {
			return e, nil // another replica's call
		}
		defer release()
		err := c.spend(ctx, user, rq.Op, func(ctx context.Context) (upstream.Answer, error) {
			a, err := fetch.Do(ctx, c.second != nil)
			if err == nil {
				e = &entry{value: upstream.Value(out), fetchedAt: c.now(), weight: weigh(a.Size), version: versions.Add(1)}
				c.store.Set(fullKey, e)
				secondSet(ctx, c, fullKey, e, a.Data)
			}
			return a, err
		})
		return e, err
	})
	if merged {
		c.counts.merged.Add(1)
	}
	if err != nil {
		if ok && staleWorthy(err) {
			c.counts.stale.Add(1)
			r.rec.stale(token, held.fetchedAt, held.version, reason(err))
			upstream.Assign(out, held.value)
			return nil
		}
		r.rec.failed()
		upstream.Assign(out, reflect.Zero(reflect.TypeOf(out).Elem()).Interface())
		return err
	}
	e := v.(*entry)
	r.rec.used(token, e.fetchedAt, Dep{key: fullKey, kind: rq.Kind, version: e.version})
	upstream.Assign(out, e.value)
	return nil
}

// Spend makes a call that is never kept (an export) within the user's
// budget (upstream.Keeper).
func (r *Reader) Spend(ctx context.Context, op string, call func(context.Context) (upstream.Answer, error)) error {
	return r.c.spend(ctx, r.who.User, op, call)
}

// weigh estimates the memory a value takes from the size of the answer it
// was decoded from, which tracks the strings and numbers that dominate it.
// Decoded, a value takes 0.7 to 2.6 times its JSON size on the heap
// (measured on the demo data: statements with their many pointers the
// most), so twice the size plus the entry's own keep keeps the byte bound
// a bound.
func weigh(answered int) uint32 {
	if answered > 1<<29 {
		return 1 << 30
	}
	return 2*uint32(max(answered, 0)) + 256
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

// Forget marks the user's copies named by tokens as no longer fresh: the
// next read asks the service, and shows the old copy, marked, only if the
// service cannot answer. Other users' copies are out of its reach: the
// user is part of every key.
func (c *Cache) Forget(user string, tokens []string) {
	owner := ownerOf(user)
	keys := make([]string, 0, len(tokens))
	for _, t := range tokens {
		k := owner + t
		keys = append(keys, k)
		if held, ok := c.store.GetIfPresent(k); ok && !held.forgotten {
			marked := *held
			marked.forgotten = true
			c.store.Set(k, &marked)
		}
	}
	if c.second != nil && len(keys) > 0 {
		// Failing, the other replicas keep their fresh copies until
		// they expire: the store is down, so nothing better is at hand.
		_ = c.second.Forget(context.Background(), keys)
	}
}

// ForgetUser drops every copy held for the user (after a change of trade
// provider, when CustomerIds name other businesses).
func (c *Cache) ForgetUser(user string) {
	prefix := ownerOf(user)
	for k := range c.store.Keys() {
		if strings.HasPrefix(k, prefix) {
			c.store.Invalidate(k)
		}
	}
	if c.second != nil {
		_ = c.second.ForgetOwner(context.Background(), prefix)
	}
}

// spend makes one service call for user within the hourly budget: it
// reserves a request first (refusing with a budget error when none is
// left), then settles the reservation with the quota the answer reported.
func (c *Cache) spend(ctx context.Context, user, op string, call func(context.Context) (upstream.Answer, error)) error {
	res, err := c.quotas.Reserve(ctx, user, op)
	if err != nil {
		return err
	}
	a, err := call(ctx)
	res.Done(outcomeOf(a.Quota, a.HasQuota, err))
	return err
}

// Size is the estimated bytes held, for tests and metrics.
func (c *Cache) Size() uint64 { return c.store.WeightedSize() }

// CleanUp drops the copies whose time is up. Expiry is otherwise noticed
// only when the cache is used, so an idle process would hold them.
func (c *Cache) CleanUp() { c.store.CleanUp() }
