package shared

import (
	"context"
	"time"

	"github.com/redis/rueidis"
)

// Counter is the shape of handlers.Attempts; handlers does not import this
// package, nor this package handlers.
type Counter interface {
	Add(ctx context.Context, key string, window time.Duration)
	Count(ctx context.Context, key string) (n int, ends time.Time)
	Forget(ctx context.Context, key string)
}

// Attempts counts sign-in attempts in the store, so that the sign-in
// throttle holds across replicas: a script cycling through them gets no
// more tries than against one. Each count is a key that expires with its
// window. Every attempt is also counted in local, which answers while the
// store does not.
type Attempts struct {
	s     *Store
	local Counter
}

// NewAttempts shares attempt counts through s, with local as this
// replica's own count.
func NewAttempts(s *Store, local Counter) *Attempts { return &Attempts{s: s, local: local} }

// addAttempt counts one attempt; the first of a window starts its expiry.
var addAttempt = rueidis.NewLuaScript(`
local n = redis.call('INCR', KEYS[1])
if n == 1 or redis.call('PTTL', KEYS[1]) < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return n`)

// Add counts one attempt for key in a window of the given length.
func (a *Attempts) Add(ctx context.Context, key string, window time.Duration) {
	a.local.Add(ctx, key, window)
	_ = a.s.call(ctx, func(ctx context.Context, c rueidis.Client) error {
		return addAttempt.Exec(ctx, c, []string{a.s.key(nsAttempt, key)}, []string{ms(window)}).Error()
	})
}

// Count is key's attempts in its window and when the window ends: the
// store's, or this replica's own when the store does not answer or
// counts fewer.
func (a *Attempts) Count(ctx context.Context, key string) (int, time.Time) {
	var n, left int64
	err := a.s.call(ctx, func(ctx context.Context, c rueidis.Client) error {
		k := a.s.key(nsAttempt, key)
		res := c.DoMulti(ctx, c.B().Get().Key(k).Build(), c.B().Pttl().Key(k).Build())
		var err error
		if n, err = res[0].AsInt64(); err != nil && !rueidis.IsRedisNil(err) {
			return err
		}
		left, err = res[1].AsInt64()
		return err
	})
	ln, lends := a.local.Count(ctx, key)
	if err != nil || n <= 0 || left <= 0 || int(n) < ln {
		// Down, or it missed attempts this replica counted while down.
		return ln, lends
	}
	return int(n), time.Now().Add(time.Duration(left) * time.Millisecond)
}

// Forget drops key's count, here and in the store.
func (a *Attempts) Forget(ctx context.Context, key string) {
	a.local.Forget(ctx, key)
	_ = a.s.call(ctx, func(ctx context.Context, c rueidis.Client) error {
		return c.Do(ctx, c.B().Del().Key(a.s.key(nsAttempt, key)).Build()).Error()
	})
}
