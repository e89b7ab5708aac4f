package cache

import (
	"context"
	"encoding/json"
	"errors"
	"hash/maphash"
	"reflect"
	"sync/atomic"
	"time"

	"creditdash/internal/upstream"
)

// Second is a level of copies behind this process's own, shared by the
// replicas of the dashboard (see internal/shared). Keys are the first
// level's keys (owner and copy token), so one user's copies never serve
// another. Every method gives up within a short store timeout: a store
// that does not answer must never hold a page up.
type Second interface {
	// Get returns the copy kept under key, or ErrNoCopy.
	Get(ctx context.Context, key string) ([]byte, error)
	// Set keeps a copy under key for keep.
	Set(ctx context.Context, key string, val []byte, keep time.Duration) error
	// Forget marks the copies under keys as no longer fresh, in place:
	// the first byte of a kept copy is its mark (see encodeCopy).
	Forget(ctx context.Context, keys []string) error
	// ForgetOwner drops every copy whose key starts with owner.
	ForgetOwner(ctx context.Context, owner string) error
	// Lock claims the one fetch of key among the replicas for ttl. ok is
	// false while another holds it; release gives a held claim back.
	Lock(ctx context.Context, key string, ttl time.Duration) (release func(), ok bool, err error)
	// Watch has changed called with each key another replica (or this
	// one) changed, and with all true when every copy must go (the
	// connection dropped, so changes may have been missed).
	Watch(changed func(key string, all bool))
}

// ErrNoCopy is what a Second answers for a key it keeps nothing under.
var ErrNoCopy = errors.New("cache: no shared copy")

// Stats counts where reads were answered, for benchmarks and metrics.
type Stats struct {
	FirstHits  uint64 // fresh copies of this process
	SecondHits uint64 // fresh copies of the shared level
	Misses     uint64 // reads that asked the service (or another replica's call)
	Merged     uint64 // reads that shared an identical call already under way
	Stale      uint64 // reads answered by an expired copy because the service could not
	// Bytes is what this process's copies weigh now; Evictions the copies
	// dropped for room.
	Bytes, Evictions uint64
}

// FirstHitRatio is the share of reads the first level answered.
func (s Stats) FirstHitRatio() float64 {
	n := s.FirstHits + s.SecondHits + s.Misses
	if n == 0 {
		return 0
	}
	return float64(s.FirstHits) / float64(n)
}

// counters are the live Stats.
type counters struct{ first, second, misses, merged, stale atomic.Uint64 }

// Stats returns the read counts so far.
func (c *Cache) Stats() Stats {
	return Stats{FirstHits: c.counts.first.Load(), SecondHits: c.counts.second.Load(), Misses: c.counts.misses.Load(),
		Merged: c.counts.merged.Load(), Stale: c.counts.stale.Load(),
		Bytes: c.store.WeightedSize(), Evictions: c.store.Stats().Evictions}
}

// wireCopy is a copy as the shared level keeps it: the answer's data as
// the service sent it, with the fetch time and version, so that a copy
// another replica fetched is fresh, expired or stale by the same clock,
// and pages built from it have the same fingerprint wherever they are
// built.
type wireCopy struct {
	At      time.Time       `json:"at"`
	Version uint64          `json:"ver"`
	Data    json.RawMessage `json:"v"`
}

// Marks of a kept copy, its first byte: Forget changes it in place,
// without reading or rewriting the copy.
const (
	markFresh     = '0'
	markForgotten = '1'
)

// encodeCopy is a copy's shared form: its mark, then JSON.
func encodeCopy(e *entry, data []byte) ([]byte, error) {
	b, err := json.Marshal(wireCopy{At: e.fetchedAt, Version: e.version, Data: data})
	if err != nil {
		return nil, err
	}
	mark := byte(markFresh)
	if e.forgotten {
		mark = markForgotten
	}
	return append([]byte{mark}, b...), nil
}

// decodeCopy reads a copy's shared form back into an entry whose value is
// decoded as rq's answer of out's type.
func decodeCopy(b []byte, rq upstream.Request, out any) (*entry, error) {
	if len(b) < 2 || (b[0] != markFresh && b[0] != markForgotten) {
		return nil, errors.New("cache: shared copy of unknown form")
	}
	var w wireCopy
	if err := json.Unmarshal(b[1:], &w); err != nil {
		return nil, err
	}
	v := reflect.New(reflect.TypeOf(out).Elem()).Interface()
	if err := rq.Decode(w.Data, v); err != nil {
		return nil, err
	}
	return &entry{value: upstream.Value(v), fetchedAt: w.At, weight: weigh(len(w.Data)),
		version: w.Version, forgotten: b[0] == markForgotten}, nil
}

// Invalidations race with reads of the shared level: a copy read just
// before another replica replaced it must not settle in the first level
// after the news of the change. Each key falls in one of a fixed number
// of stripes, each counting the changes heard; a read keeps its copy only
// if its stripe heard nothing meanwhile.
const stripes = 1024

var stripeSeed = maphash.MakeSeed()

func stripeOf(key string) int { return int(maphash.String(stripeSeed, key) % stripes) }

// changed drops the first level's copy of key (or every copy) after the
// shared level said it changed.
func (c *Cache) changed(key string, all bool) {
	if all {
		for i := range c.heard {
			c.heard[i].Add(1)
		}
		c.store.InvalidateAll()
		return
	}
	c.heard[stripeOf(key)].Add(1)
	c.store.Invalidate(key)
}

// secondGet reads key from the shared level into the first: held is the
// copy (nil when none or the level failed), heard the stripe count read
// before, to tell whether the copy may settle in the first level.
func secondGet(ctx context.Context, c *Cache, key string, rq upstream.Request, out any) *entry {
	if c.second == nil {
		return nil
	}
	heard := c.heard[stripeOf(key)].Load()
	b, err := c.second.Get(ctx, key)
	if err != nil {
		return nil
	}
	e, err := decodeCopy(b, rq, out)
	if err != nil {
		return nil
	}
	if c.heard[stripeOf(key)].Load() == heard {
		if held, ok := c.store.GetIfPresent(key); !ok || held.fetchedAt.Before(e.fetchedAt) || held.version == e.version {
			c.store.Set(key, e)
		}
	}
	return e
}

// secondSet keeps a new copy in the shared level; failures leave it in
// this process only.
func secondSet(ctx context.Context, c *Cache, key string, e *entry, data []byte) {
	if c.second == nil || data == nil {
		return
	}
	b, err := encodeCopy(e, data)
	if err != nil {
		return
	}
	_ = c.second.Set(ctx, key, b, c.keepStale)
}

// lockPoll is how often a replica waiting for another's fetch looks for
// the copy; the look is answered from memory until the copy changes.
const lockPoll = 20 * time.Millisecond

// awaitShared makes sure only one replica fetches key: it returns
// fetch true when this one holds the claim (release gives it back), or
// the copy another replica fetched meanwhile. When the store fails or the
// wait runs out, it fetches itself: a page never waits on the store
// longer than the service would take.
func awaitShared(ctx context.Context, c *Cache, key string, rq upstream.Request, out any) (e *entry, release func(), fetch bool) {
	noop := func() {}
	if c.second == nil {
		return nil, noop, true
	}
	deadline := time.Now().Add(c.fetchWait)
	for {
		rel, ok, err := c.second.Lock(ctx, "f:"+key, c.fetchWait+FirstAnswerWait)
		if err != nil {
			return nil, noop, true
		}
		if ok {
			// Another replica may have finished between the miss and
			// the claim.
			if e := secondGet(ctx, c, key, rq, out); e != nil && c.fresh(rq.Kind, e) {
				rel()
				return e, noop, false
			}
			return nil, rel, true
		}
		// Another replica fetches: wait for its copy. If it gives up
		// without one, the claim is free again and the loop takes it.
		if time.Now().After(deadline) {
			return nil, noop, true
		}
		select {
		case <-ctx.Done():
			return nil, noop, true
		case <-time.After(lockPoll):
		}
		if e := secondGet(ctx, c, key, rq, out); e != nil && c.fresh(rq.Kind, e) {
			return e, noop, false
		}
	}
}

// fresh reports whether e may be shown as it is.
func (c *Cache) fresh(kind Kind, e *entry) bool {
	return !e.forgotten && c.now().Sub(e.fetchedAt) < c.ttl[kind]
}
