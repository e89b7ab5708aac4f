package shared

import (
	"context"
	"fmt"
	"strconv"
	"time"

	"github.com/redis/rueidis"
)

// Marks is the shape of handlers.SignOuts; handlers does not import this
// package, nor this package handlers.
type Marks interface {
	SignedOut(ctx context.Context, user string) (at time.Time, ok bool)
	MarkSignedOut(ctx context.Context, user string, at time.Time) error
}

// SignOuts keeps sign-out marks in the store, so that a cookie signed out
// on one replica is refused by every other. Every request asks, so marks
// are read through client-side caching: from memory until one changes.
// A local book keeps every mark too and answers while the store is down.
type SignOuts struct {
	s        *Store
	local    Marks
	lifetime time.Duration
}

// NewSignOuts shares marks through s for lifetime, the longest a session
// lasts, with local as this replica's own copy.
func NewSignOuts(s *Store, local Marks, lifetime time.Duration) *SignOuts {
	return &SignOuts{s: s, local: local, lifetime: lifetime}
}

// SignedOut is the later of the shared mark and this replica's own.
func (o *SignOuts) SignedOut(ctx context.Context, user string) (time.Time, bool) {
	at, ok := o.local.SignedOut(ctx, user)
	var ms int64
	err := o.s.call(ctx, func(ctx context.Context, c rueidis.Client) error {
		var err error
		ms, err = c.DoCache(ctx, c.B().Get().Key(o.s.key(nsSignOut, user)).Cache(), clientMemory).AsInt64()
		return err
	})
	if err == nil {
		if shared := time.UnixMilli(ms); !ok || shared.After(at) {
			at, ok = shared, true
		}
	}
	return at, ok
}

// markLater keeps the later of two marks: two replicas' sign-outs may
// arrive in any order.
var markLater = rueidis.NewLuaScript(`
local old = tonumber(redis.call('GET', KEYS[1]) or '0')
if tonumber(ARGV[1]) > old then
  redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
end
return 1`)

// MarkSignedOut notes the sign-out here and in the store. Failing the
// store, the mark holds on this replica only, which the error says.
func (o *SignOuts) MarkSignedOut(ctx context.Context, user string, at time.Time) error {
	if err := o.local.MarkSignedOut(ctx, user, at); err != nil {
		return err
	}
	// A mark ends with the longest session it can refuse.
	err := o.s.call(ctx, func(ctx context.Context, c rueidis.Client) error {
		return markLater.Exec(ctx, c, []string{o.s.key(nsSignOut, user)},
			[]string{strconv.FormatInt(at.UnixMilli(), 10), ms(max(o.lifetime, time.Millisecond))}).Error()
	})
	if err != nil {
		return fmt.Errorf("shared: sign-out of %s kept on this replica only: %w", user, err)
	}
	return nil
}
