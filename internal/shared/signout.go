package shared

import (
	"context"
	"fmt"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/redis/rueidis"
)

// Marks is the shape of session.SignOuts; session does not import this
// package, nor this package session.
type Marks interface {
	SignedOut(ctx context.Context, user string) (at time.Time, ok bool)
	MarkSignedOut(ctx context.Context, user string, at time.Time) error
}

// SignOuts keeps sign-out marks in the store, so that a cookie signed out
// on one replica is refused by every other. Every request asks, so marks
// are read through client-side caching: from memory until one changes.
// A local book keeps every mark too and answers while the store is down;
// marks the store missed then are written when it is back.
//
// The marks are one sorted set without an expiry (user by sign-out time),
// trimmed of marks older than a session on every write: a store that
// evicts keys with an expiry when memory runs short (volatile-lru, as
// deploy/compose.yaml sets) keeps them, and only them, whatever else goes.
type SignOuts struct {
	s        *Store
	local    Marks
	lifetime time.Duration

	mu sync.Mutex
	// missed holds marks the store did not take, to write once it answers
	// again; bounded, past which a mark holds on this replica only.
	missed    map[string]time.Time
	pending   atomic.Bool // missed is not empty
	replaying atomic.Bool
}

// maxMissed bounds the marks kept for the store's return.
const maxMissed = 100_000

// NewSignOuts shares marks through s for lifetime, the longest a session
// lasts, with local as this replica's own copy.
func NewSignOuts(s *Store, local Marks, lifetime time.Duration) *SignOuts {
	return &SignOuts{s: s, local: local, lifetime: lifetime, missed: map[string]time.Time{}}
}

// marksKey is the sorted set of every mark.
func (o *SignOuts) marksKey() string { return o.s.key(nsSignOut, "marks") }

// SignedOut is the later of the shared mark and this replica's own.
func (o *SignOuts) SignedOut(ctx context.Context, user string) (time.Time, bool) {
	at, ok := o.local.SignedOut(ctx, user)
	var ms float64
	err := o.s.call(ctx, func(ctx context.Context, c rueidis.Client) error {
		var err error
		ms, err = c.DoCache(ctx, c.B().Zscore().Key(o.marksKey()).Member(user).Cache(), clientMemory).AsFloat64()
		return err
	})
	if err == nil || rueidis.IsRedisNil(err) {
		// The store answers: every request asks, so marks it missed are
		// written as soon as it does.
		if o.pending.Load() && o.replaying.CompareAndSwap(false, true) {
			go o.replay()
		}
	}
	if err == nil {
		if shared := time.UnixMilli(int64(ms)); !ok || shared.After(at) {
			at, ok = shared, true
		}
	}
	return at, ok
}

// markLater keeps the later of two marks (two replicas' sign-outs may
// arrive in any order) and drops the marks older than any session.
var markLater = rueidis.NewLuaScript(`
local old = tonumber(redis.call('ZSCORE', KEYS[1], ARGV[1]) or '0')
if tonumber(ARGV[2]) > old then
  redis.call('ZADD', KEYS[1], ARGV[2], ARGV[1])
end
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', '(' .. ARGV[3])
return 1`)

// share writes one mark to the store.
func (o *SignOuts) share(ctx context.Context, user string, at time.Time) error {
	oldest := time.Now().Add(-o.lifetime).UnixMilli()
	return o.s.call(ctx, func(ctx context.Context, c rueidis.Client) error {
		return markLater.Exec(ctx, c, []string{o.marksKey()},
			[]string{user, strconv.FormatInt(at.UnixMilli(), 10), strconv.FormatInt(oldest, 10)}).Error()
	})
}

// MarkSignedOut notes the sign-out here and in the store. Failing the
// store, the mark holds on this replica until the store is back, which
// the error says.
func (o *SignOuts) MarkSignedOut(ctx context.Context, user string, at time.Time) error {
	if err := o.local.MarkSignedOut(ctx, user, at); err != nil {
		return err
	}
	if err := o.share(ctx, user, at); err != nil {
		o.miss(user, at)
		return fmt.Errorf("shared: sign-out of %s kept on this replica until the store is back: %w", user, err)
	}
	return nil
}

// miss keeps a mark the store did not take, the later one per user.
func (o *SignOuts) miss(user string, at time.Time) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if prev, ok := o.missed[user]; (ok && at.After(prev)) || (!ok && len(o.missed) < maxMissed) {
		o.missed[user] = at
	}
	o.pending.Store(len(o.missed) > 0)
}

// replay writes the marks the store missed; those it misses again wait
// for the next time it answers.
func (o *SignOuts) replay() {
	defer o.replaying.Store(false)
	o.mu.Lock()
	missed := o.missed
	o.missed = map[string]time.Time{}
	o.pending.Store(false)
	o.mu.Unlock()
	for user, at := range missed {
		if err := o.share(context.Background(), user, at); err != nil {
			o.miss(user, at)
		}
	}
}
