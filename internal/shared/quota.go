package shared

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/redis/rueidis"

	"creditdash/internal/upstream"
	"creditdash/internal/upstream/cache"
)

// Book is the hourly budget book shared by replicas: one hash per user
// (known, unlimited, limit, remaining, reset, in flight), changed only by
// Lua scripts that read the server's clock, so the rules of the cache's
// own book (reserve before each call, the first call of an unknown window
// goes alone, within a window the lower count wins) hold across replicas.
//
// When the store is down, each replica reserves from its own book, which
// learns the budget afresh from the service's headers (its first call goes
// alone). We chose this over refusing every call: pages keep working, and
// the service's own limit still holds; the cost is that replicas together
// may ask for more than is left, and a user can then meet the service's
// own 429 (shown as the limit page with its renewal time) until the store
// is back.
type Book struct {
	s     *Store
	local cache.Book
}

// NewBook shares budgets through s, falling back to local while s is down.
func NewBook(s *Store, local cache.Book) *Book { return &Book{s: s, local: local} }

var _ cache.Book = (*Book)(nil)

// Timings of the shared book.
const (
	// firstHold bounds the claim of the first call of a window: the
	// service's timeout and then some. A claim whose replica died ends
	// with it.
	firstHold = 30 * time.Second
	// bookKeep is how long an idle user's budget is remembered.
	bookKeep = 2 * time.Hour
	// firstPoll is how often a call waiting for a first answer looks.
	firstPoll = 20 * time.Millisecond
)

// nowMillis is the server's clock in milliseconds, in every script.
const nowMillis = `local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
`

// reserveScript answers {code, ms}: 0 spent (ms until renewal), 1 first
// call of an unknown window, 2 wait for the first call, 3 unlimited, 4
// one request taken. A window past its reset is unknown again; its
// leftover in-flight count starts over with it, so a reservation lost
// with the store cannot shrink later windows.
var reserveScript = rueidis.NewLuaScript(nowMillis + `
local h = redis.call('HMGET', KEYS[1], 'known', 'unlimited', 'remaining', 'reset', 'limit', 'guessed')
local known = h[1] == '1'
local unlimited = h[2] == '1'
if known and not unlimited and tonumber(h[4]) <= now then
  local last = h[5] or '0'
  if h[6] == '1' then last = '0' end
  redis.call('HSET', KEYS[1], 'known', '0', 'lastlimit', last, 'inflight', '0', 'guessed', '0')
  known = false
end
if not known then
  if redis.call('SET', KEYS[2], ARGV[1], 'NX', 'PX', ARGV[2]) then return {1, 0} end
  return {2, 0}
end
if unlimited then return {3, 0} end
if tonumber(h[3]) <= 0 then return {0, tonumber(h[4]) - now} end
redis.call('HINCRBY', KEYS[1], 'remaining', -1)
redis.call('HINCRBY', KEYS[1], 'inflight', 1)
redis.call('PEXPIRE', KEYS[1], ARGV[3])
return {4, 0}`)

// doneScript settles a reservation (see cache.Outcome for the arguments'
// meaning) exactly as the cache's own book does.
var doneScript = rueidis.NewLuaScript(nowMillis + `
local h = redis.call('HMGET', KEYS[1], 'known', 'unlimited', 'limit', 'remaining', 'reset', 'inflight', 'guessed')
local known = h[1] == '1'
local unlimited = h[2] == '1'
local limit = tonumber(h[3]) or 0
local rem = tonumber(h[4]) or 0
local reset = tonumber(h[5]) or 0
local inflight = tonumber(h[6]) or 0
local guessed = h[7] == '1'
if known and not unlimited and reset <= now then
  if guessed then limit = 0 end
  redis.call('HSET', KEYS[1], 'lastlimit', limit)
  known, limit, rem, reset, inflight, guessed = false, 0, 0, 0, 0, false
end
local taken, first, hasq = ARGV[1] == '1', ARGV[2] == '1', ARGV[4] == '1'
if taken then
  inflight = math.max(inflight - 1, 0)
  if not hasq and ARGV[9] == '1' and known and not unlimited then rem = rem + 1 end
end
if hasq then
  guessed = false
  local qlimit = tonumber(ARGV[5])
  if qlimit <= 0 then
    known, unlimited = true, true
  else
    local qreset = now + tonumber(ARGV[7])
    local qrem = tonumber(ARGV[6])
    if known and not unlimited and math.abs(reset - qreset) < 5000 then
      qrem = math.min(qrem, rem)
    else
      qrem = math.max(qrem - inflight, 0)
    end
    known, unlimited, limit, rem, reset = true, false, qlimit, qrem, qreset
  end
elseif ARGV[8] == '1' and first then
  known, unlimited = true, true
end
if ARGV[10] == '1' then
  if not known or unlimited then limit = 0 end
  guessed = limit <= 0
  if guessed then limit = 1 end
  known, unlimited, rem, reset = true, false, 0, now + tonumber(ARGV[11])
end
redis.call('HSET', KEYS[1], 'known', known and '1' or '0', 'unlimited', unlimited and '1' or '0',
  'limit', limit, 'remaining', rem, 'reset', reset, 'inflight', inflight, 'guessed', guessed and '1' or '0')
redis.call('PEXPIRE', KEYS[1], ARGV[12])
if first and redis.call('GET', KEYS[2]) == ARGV[3] then redis.call('DEL', KEYS[2]) end
return 1`)

// Reserve claims one request of user's budget (see cache.Book).
func (b *Book) Reserve(ctx context.Context, user, op string) (cache.Reservation, error) {
	keys := []string{b.s.key(nsQuota, user), b.s.key(nsLock, "q:"+user)}
	tok := token()
	args := []string{tok, ms(firstHold), ms(bookKeep)}
	waiting := false
	for {
		var res []int64
		err := b.s.call(ctx, func(ctx context.Context, c rueidis.Client) error {
			var err error
			res, err = reserveScript.Exec(ctx, c, keys, args).AsIntSlice()
			return err
		})
		switch {
		case ctx.Err() != nil:
			return nil, fmt.Errorf("shared: waiting for the budget of %s: %w", op, ctx.Err())
		case errors.Is(err, ErrDown), unusable(err):
			// No answer, or a server that cannot book now: waiting would
			// not help, so this replica's own book answers.
			return b.local.Reserve(ctx, user, op)
		case err != nil || len(res) != 2:
			// A slow answer is not an outage: asking this replica's own
			// book now would spend what other replicas may have
			// reserved. Ask again; failures in a row mark the store
			// down, and then the local book answers.
			res = []int64{2, 0}
		}
		switch res[0] {
		case 0:
			return nil, cache.BudgetError(op, max(time.Duration(res[1])*time.Millisecond, 0))
		case 1:
			return &reservation{b: b, keys: keys, token: tok, first: true}, nil
		case 3:
			return &reservation{b: b, keys: keys}, nil
		case 4:
			return &reservation{b: b, keys: keys, taken: true}, nil
		}
		if !waiting {
			// Bounded here, not by every caller: nearly no call waits.
			waiting = true
			var cancel context.CancelFunc
			ctx, cancel = context.WithTimeout(ctx, cache.FirstAnswerWait)
			defer cancel()
		}
		select {
		case <-ctx.Done():
			return nil, fmt.Errorf("shared: waiting for the first answer of %s: %w", op, ctx.Err())
		case <-time.After(firstPoll):
		}
	}
}

// reservation is a claim booked in the store.
type reservation struct {
	b     *Book
	keys  []string
	token string
	first bool
	taken bool
}

// Done settles the claim. A store that fails now loses the settlement:
// the request stays spent, the safe side, and the in-flight count is
// cleared with the window.
func (r *reservation) Done(o cache.Outcome) {
	args := []string{flag(r.taken), flag(r.first), r.token, flag(o.HasQuota),
		strconv.Itoa(o.Seen.Limit), strconv.Itoa(o.Seen.Remaining), ms(o.Seen.Reset),
		flag(o.Succeeded), flag(o.Unanswered), flag(o.Refused), ms(o.RetryAfter), ms(bookKeep)}
	settle := func(ctx context.Context, c rueidis.Client) error {
		return doneScript.Exec(ctx, c, r.keys, args).Error()
	}
	// Once more after a slow answer, unless it gives a request back: a
	// settlement applied twice then only lowers the count, the safe side.
	givesBack := r.taken && !o.HasQuota && o.Unanswered
	if err := r.b.s.call(context.Background(), settle); err != nil && !errors.Is(err, ErrDown) && !givesBack {
		_ = r.b.s.call(context.Background(), settle)
	}
}

// Quota is the user's budget as the store counts it, read through
// client-side caching: pages show it on every load.
func (b *Book) Quota(user string) (upstream.RateLimit, bool) {
	var f []string
	err := b.s.call(context.Background(), func(ctx context.Context, c rueidis.Client) error {
		vals, err := c.DoCache(ctx, c.B().Hmget().Key(b.s.key(nsQuota, user)).
			Field("known", "unlimited", "limit", "remaining", "reset", "lastlimit", "guessed").Cache(), clientMemory).ToArray()
		if err != nil {
			return err
		}
		f = make([]string, len(vals))
		for i, v := range vals {
			f[i], _ = v.ToString() // a missing field reads as ""
		}
		return nil
	})
	if err != nil || len(f) != 7 {
		return b.local.Quota(user)
	}
	num := func(s string) int64 { n, _ := strconv.ParseInt(s, 10, 64); return n }
	now := time.Now()
	known, unlimited := f[0] == "1", f[1] == "1"
	limit, lastLimit := int(num(f[2])), int(num(f[5]))
	resetAt := time.UnixMilli(num(f[4]))
	if known && !unlimited && !resetAt.After(now) {
		known, lastLimit = false, limit
		if f[6] == "1" {
			lastLimit = 0 // refused's stand-in, not a limit an answer told
		}
	}
	switch {
	case !known && lastLimit > 0:
		// Renewed: the whole hour is there until an answer says otherwise.
		return upstream.RateLimit{Limit: lastLimit, Remaining: lastLimit, At: now, Reset: time.Hour}, true
	case !known || unlimited:
		return upstream.RateLimit{}, false
	}
	if f[6] == "1" {
		limit = 0 // a refusal named none: see cache.Cache.Quota
	}
	return upstream.RateLimit{Limit: limit, Remaining: int(num(f[3])), At: now, Reset: resetAt.Sub(now)}, true
}

func ms(d time.Duration) string { return strconv.FormatInt(d.Milliseconds(), 10) }

func flag(b bool) string {
	if b {
		return "1"
	}
	return "0"
}
