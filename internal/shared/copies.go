package shared

import (
	"context"
	"strconv"
	"strings"
	"time"

	"github.com/redis/rueidis"

	"creditdash/internal/upstream/cache"
)

// The Store is the cache's second level.
var _ cache.Second = (*Store)(nil)

// Get reads a copy through client-side caching: a copy read once is
// answered from memory until the server says it changed.
func (s *Store) Get(ctx context.Context, key string) ([]byte, error) {
	var b []byte
	err := s.call(ctx, func(ctx context.Context, c rueidis.Client) error {
		var err error
		b, err = c.DoCache(ctx, c.B().Get().Key(s.key(nsCopy, key)).Cache(), clientMemory).AsBytes()
		return err
	})
	if rueidis.IsRedisNil(err) {
		return nil, cache.ErrNoCopy
	}
	return b, err
}

// setCopy keeps a copy for the stale window and notes its key in its
// owner's index, which lives as long as the owner's newest copy.
var setCopy = rueidis.NewLuaScript(`
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
redis.call('SADD', KEYS[2], KEYS[1])
if redis.call('PTTL', KEYS[2]) < tonumber(ARGV[2]) then
  redis.call('PEXPIRE', KEYS[2], ARGV[2])
end
return 1`)

// Set keeps val under key for keep, the stale window: the server forgets
// a copy exactly when no replica could show it any more.
func (s *Store) Set(ctx context.Context, key string, val []byte, keep time.Duration) error {
	return s.call(ctx, func(ctx context.Context, c rueidis.Client) error {
		return setCopy.Exec(ctx, c, []string{s.key(nsCopy, key), s.key(nsIndex, ownerOfKey(key))},
			[]string{string(val), strconv.FormatInt(max(keep.Milliseconds(), 1), 10)}).Error()
	})
}

// ownerOfKey is the owner part of a cache key: everything up to its last
// NUL (see cache.Who).
func ownerOfKey(key string) string { return key[:strings.LastIndexByte(key, 0)+1] }

// forgetCopies marks copies forgotten in place (their first byte), keeping
// their lifetime; missing ones stay missing.
var forgetCopies = rueidis.NewLuaScript(`
for _, k in ipairs(KEYS) do
  if redis.call('EXISTS', k) == 1 then redis.call('SETRANGE', k, 0, '1') end
end
return 1`)

// Forget marks the copies under keys as no longer fresh.
func (s *Store) Forget(ctx context.Context, keys []string) error {
	full := make([]string, len(keys))
	for i, k := range keys {
		full[i] = s.key(nsCopy, k)
	}
	return s.call(ctx, func(ctx context.Context, c rueidis.Client) error {
		return forgetCopies.Exec(ctx, c, full, nil).Error()
	})
}

// forgetOwner drops every copy named in an owner's index, then the index.
var forgetOwner = rueidis.NewLuaScript(`
local keys = redis.call('SMEMBERS', KEYS[1])
for i = 1, #keys, 500 do
  redis.call('DEL', unpack(keys, i, math.min(i + 499, #keys)))
end
redis.call('DEL', KEYS[1])
return #keys`)

// ForgetOwner drops every copy of owner.
func (s *Store) ForgetOwner(ctx context.Context, owner string) error {
	return s.call(ctx, func(ctx context.Context, c rueidis.Client) error {
		return forgetOwner.Exec(ctx, c, []string{s.key(nsIndex, owner)}, nil).Error()
	})
}

// release deletes a claim only if it is still the holder's: a claim that
// outlived its time may belong to another replica by now.
var release = rueidis.NewLuaScript(`
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0`)

// Lock claims name for ttl among all replicas.
func (s *Store) Lock(ctx context.Context, name string, ttl time.Duration) (func(), bool, error) {
	k, tok := s.key(nsLock, name), token()
	var ok bool
	err := s.call(ctx, func(ctx context.Context, c rueidis.Client) error {
		err := c.Do(ctx, c.B().Set().Key(k).Value(tok).Nx().Px(ttl).Build()).Error()
		ok = err == nil
		if rueidis.IsRedisNil(err) {
			return nil // held by another
		}
		return err
	})
	if err != nil || !ok {
		return func() {}, false, err
	}
	return func() {
		// The claim's own request may be gone; the release is not.
		_ = s.call(context.Background(), func(ctx context.Context, c rueidis.Client) error {
			return release.Exec(ctx, c, []string{k}, []string{tok}).Error()
		})
	}, true, nil
}

// Watch passes the news of changed copies on to changed.
func (s *Store) Watch(changed func(key string, all bool)) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.watchers = append(s.watchers, changed)
}
