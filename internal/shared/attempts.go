package shared

import (
	"context"
	"math"
	"strconv"
	"time"

	"github.com/redis/rueidis"
)

// Counter is the shape of session.Attempts; session does not import this
// package, nor this package session.
type Counter interface {
	Reserve(ctx context.Context, keys []string, limits []int, window time.Duration) (full int, ends time.Time)
	Release(ctx context.Context, keys []string)
	Forget(ctx context.Context, key string)
}

// Attempts counts sign-in attempts in the store, so that the sign-in
// throttle holds across replicas: a script cycling through them gets no
// more tries than against one. Each count is a hash (count, end of its
// window on the server's clock) that expires with its window. Every
// attempt is also counted in local, which answers while the store does
// not.
type Attempts struct {
	s     *Store
	local Counter
}

// NewAttempts shares attempt counts through s, with local as this
// replica's own count.
func NewAttempts(s *Store, local Counter) *Attempts { return &Attempts{s: s, local: local} }

// reserveAttempt checks every key against its limit and, only when none
// is full, counts one attempt on each: one step on the server, so
// parallel attempts on several replicas cannot pass a limit together.
// Windows are timed by the server's clock. KEYS are the counts, ARGV[1]
// the window in milliseconds and ARGV[i+1] the limit of KEYS[i]. It
// answers {0, 0} when counted, or {i, ms left} for the full KEYS[i].
var reserveAttempt = rueidis.NewLuaScript(`
if redis.replicate_commands then redis.replicate_commands() end
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local counts, ends = {}, {}
for i, k in ipairs(KEYS) do
  local v = redis.call('HMGET', k, 'n', 'e')
  local n, e = tonumber(v[1]) or 0, tonumber(v[2]) or 0
  if e <= now then n = 0; e = now + tonumber(ARGV[1]) end
  if n >= tonumber(ARGV[i + 1]) then return {i, e - now} end
  counts[i], ends[i] = n, e
end
for i, k in ipairs(KEYS) do
  redis.call('HSET', k, 'n', counts[i] + 1, 'e', ends[i])
  redis.call('PEXPIREAT', k, ends[i])
end
return {0, 0}`)

// releaseAttempt gives back one attempt of each key still in its window.
var releaseAttempt = rueidis.NewLuaScript(`
for _, k in ipairs(KEYS) do
  local n = tonumber(redis.call('HGET', k, 'n') or '0')
  if n and n > 0 then redis.call('HINCRBY', k, 'n', -1) end
end
return 0`)

// Reserve counts one attempt on every key when each is below its limit,
// on the store; this replica's own count follows it. With the store down,
// the replica's own count decides.
func (a *Attempts) Reserve(ctx context.Context, keys []string, limits []int, window time.Duration) (int, time.Time) {
	if len(keys) == 0 {
		return -1, time.Time{}
	}
	args := make([]string, 0, len(keys)+1)
	args = append(args, ms(window))
	for _, l := range limits {
		args = append(args, strconv.Itoa(min(l, math.MaxInt32)))
	}
	var res []int64
	err := a.s.call(ctx, func(ctx context.Context, c rueidis.Client) error {
		var err error
		res, err = reserveAttempt.Exec(ctx, c, a.keys(keys), args).AsIntSlice()
		return err
	})
	if err != nil || len(res) != 2 {
		return a.local.Reserve(ctx, keys, limits, window)
	}
	if res[0] > 0 {
		return int(res[0]) - 1, time.Now().Add(time.Duration(res[1]) * time.Millisecond)
	}
	// Counted in the store: this replica's own count follows whatever its
	// limit, so that it holds what it saw should the store go down.
	unbounded := make([]int, len(keys))
	for i := range unbounded {
		unbounded[i] = math.MaxInt
	}
	a.local.Reserve(ctx, keys, unbounded, window)
	return -1, time.Time{}
}

// Release gives back one attempt of each key, here and in the store.
func (a *Attempts) Release(ctx context.Context, keys []string) {
	a.local.Release(ctx, keys)
	_ = a.s.call(ctx, func(ctx context.Context, c rueidis.Client) error {
		return releaseAttempt.Exec(ctx, c, a.keys(keys), nil).Error()
	})
}

// Forget drops key's count, here and in the store.
func (a *Attempts) Forget(ctx context.Context, key string) {
	a.local.Forget(ctx, key)
	_ = a.s.call(ctx, func(ctx context.Context, c rueidis.Client) error {
		return c.Do(ctx, c.B().Del().Key(a.s.key(nsAttempt, key)).Build()).Error()
	})
}

// keys are the store's names of the counts.
func (a *Attempts) keys(names []string) []string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = a.s.key(nsAttempt, n)
	}
	return out
}
