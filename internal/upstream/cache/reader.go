package cache

import (
	"context"
	"encoding/binary"
	"hash/maphash"
	"slices"
	"sync"
	"time"

	"creditdash/internal/upstream"
)

// Reader reads the service's data for one user and one page, and notes how
// each answer was had: when it was fetched, whether an older copy stood in
// and why, which copies were used. A page makes one Reader; it is safe for
// the page's concurrent calls.
type Reader struct {
	// User has every operation of the service, read through this
	// reader (see Read).
	upstream.User
	c   *Cache
	who Who
	// owner is who.owner(), worked out once: a page reads a dozen copies.
	owner string
	// hold, when set, is asked before a copy is fetched: an error answers
	// the read instead (a miss), nil lets the fetch go on.
	hold func(ctx context.Context) error
	// rec is shared by the readers of one page (see Holding).
	rec *record
}

// Reader starts a page's reads for who.
func (c *Cache) Reader(who Who) *Reader { return c.reader(who, nil, &record{}) }

func (c *Cache) reader(who Who, hold func(context.Context) error, rec *record) *Reader {
	r := &Reader{c: c, who: who, owner: who.owner(), hold: hold, rec: rec}
	r.User = *c.svc.Kept(who.Key, r)
	return r
}

// Who is whose reads these are.
func (r *Reader) Who() Who { return r.who }

// Probe returns a reader for the same user that only looks at the cache: a
// copy it would have to fetch answers err (ErrNotCached when nil) and
// counts as a miss. Pages use it to show what the cache holds without
// spending (a report's news feeds, a rule's business name).
func (r *Reader) Probe(err error) *Reader {
	if err == nil {
		err = ErrNotCached
	}
	return r.c.reader(r.who, func(context.Context) error { return err }, &record{})
}

// Holding returns a reader for the same page, noting what it reads in r's
// record, that asks hold before it fetches a copy: hold may wait (a page
// pricing its sections before it spends), refuse with the error the read
// answers, or let the fetch go on.
func (r *Reader) Holding(hold func(ctx context.Context) error) *Reader {
	return r.c.reader(r.who, hold, r.rec)
}

// Misses is how many reads found no fresh copy and were refused by the
// reader's hold: with a probe, the requests a full load would spend.
func (r *Reader) Misses() int { r.rec.mu.Lock(); defer r.rec.mu.Unlock(); return r.rec.misses }

// Report is how a page's data was had, for its freshness line, its Refresh
// form and its page-cache key.
type Report struct {
	// FetchedAt is when the oldest data read was fetched; zero when the
	// page read nothing.
	FetchedAt time.Time
	// StaleSince is when the oldest expired copy shown was fetched, and
	// StaleReason why it was shown; zero when every answer was fresh.
	StaleSince  time.Time
	StaleReason string
	// Copies are the tokens of the copies used (see CopyToken), sorted, at
	// most MaxCopies of them.
	Copies []string
	// Failed counts reads that ended in an error.
	Failed int
	// Fingerprint identifies the exact copies used: two pages built from
	// the same copies have the same one.
	Fingerprint uint64
	// Deps are the copies read and those found missing, for Holds; nil
	// when there were more than MaxCopies of them.
	Deps []Dep
}

// Report says how the reads so far were answered.
func (r *Reader) Report() Report {
	s := r.rec.snapshot()
	slices.Sort(s.tokens) // calls run at once: their order says nothing
	return Report{FetchedAt: s.oldest, StaleSince: s.staleSince, StaleReason: s.staleReason,
		Copies: s.tokens, Failed: s.failures, Fingerprint: s.sum, Deps: s.deps}
}

// MaxCopies bounds the copy tokens a page lists: pages read a handful.
const MaxCopies = 32

// record is what a Reader notes, behind a lock: a page's calls run at once.
type record struct {
	mu sync.Mutex
	noted
}

// noted is the content of a record.
type noted struct {
	oldest      time.Time
	staleSince  time.Time
	staleReason string
	misses      int
	failures    int
	tokens      []string
	// sum adds up a hash of each copy used (its token and version), in any
	// order.
	sum uint64
	// deps are the copies used and missed, nil once past MaxCopies.
	deps     []Dep
	depsLost bool
}

// seed makes the copy hashes of this process; they are never stored.
var seed = maphash.MakeSeed()

func copyHash(token string, version uint64, stale bool) uint64 {
	var h maphash.Hash
	h.SetSeed(seed)
	h.WriteString(token)
	var b [9]byte
	binary.LittleEndian.PutUint64(b[:8], version)
	if stale {
		b[8] = 1
	}
	h.Write(b[:])
	return h.Sum64()
}

func (r *record) used(token string, at time.Time, d Dep) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.seen(at, token)
	r.sum += copyHash(token, d.version, false)
	r.depend(d)
}

func (r *record) stale(token string, at time.Time, version uint64, why string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.seen(at, token)
	r.sum += copyHash(token, version, true)
	if r.staleSince.IsZero() || at.Before(r.staleSince) {
		r.staleSince, r.staleReason = at, why
	}
}

func (r *record) failed() { r.mu.Lock(); r.failures++; r.mu.Unlock() }

func (r *record) miss(d Dep) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.misses++
	r.depend(d)
}

// depend notes a copy the page depends on; the caller holds the lock.
func (r *noted) depend(d Dep) {
	switch {
	case r.depsLost:
	case len(r.deps) >= 2*MaxCopies:
		r.deps, r.depsLost = nil, true
	default:
		r.deps = append(r.deps, d)
	}
}

// seen notes a copy's fetch time and token; the caller holds the lock.
func (r *noted) seen(at time.Time, token string) {
	if r.oldest.IsZero() || at.Before(r.oldest) {
		r.oldest = at
	}
	for _, t := range r.tokens {
		if t == token {
			return
		}
	}
	if len(r.tokens) < MaxCopies {
		r.tokens = append(r.tokens, token)
	}
}

// snapshot copies what was noted.
func (r *record) snapshot() noted {
	r.mu.Lock()
	defer r.mu.Unlock()
	return noted{oldest: r.oldest, staleSince: r.staleSince, staleReason: r.staleReason,
		misses: r.misses, failures: r.failures, tokens: append([]string(nil), r.tokens...), sum: r.sum,
		deps: append([]Dep(nil), r.deps...), depsLost: r.depsLost}
}
