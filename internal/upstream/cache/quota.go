package cache

import (
	"errors"
	"sync"
	"time"

	"creditdash/internal/upstream"
)

// quotaBook keeps the latest quota each user's answers reported, so every
// page can show the meter even when all its data came from the cache.
type quotaBook struct {
	mu sync.Mutex
	m  map[string]upstream.RateLimit
}

func newQuotaBook() *quotaBook { return &quotaBook{m: map[string]upstream.RateLimit{}} }

func (b *quotaBook) set(user string, q upstream.RateLimit) {
	b.mu.Lock()
	defer b.mu.Unlock()
	// Answers of concurrent calls arrive in any order; the lowest count left
	// in the same window is the true one.
	if old, ok := b.m[user]; ok && sameWindow(old, q) && old.Remaining < q.Remaining {
		q.Remaining = old.Remaining
	}
	b.m[user] = q
}

func sameWindow(a, b upstream.RateLimit) bool {
	d := a.RenewsAt().Sub(b.RenewsAt())
	return d > -5*time.Second && d < 5*time.Second
}

func (b *quotaBook) get(user string) (upstream.RateLimit, bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	q, ok := b.m[user]
	return q, ok
}

// noteRateLimit records an exhausted quota from a 429, whose headers may not
// have reached the observer.
func (c *Cache) noteRateLimit(user string, err error) {
	var ue *upstream.Error
	if !errors.Is(err, upstream.ErrRateLimited) || !errors.As(err, &ue) {
		return
	}
	q, ok := c.quotas.get(user)
	now := c.now()
	if !ok || q.RenewsAt().Before(now) {
		q = upstream.RateLimit{}
	}
	q.Remaining, q.At, q.Reset = 0, now, ue.RetryAfter
	c.quotas.set(user, q)
}

// Quota returns the user's quota as last reported, with the time it renews.
// ok is false for unlimited accounts and before the first answer; a window
// that has renewed since is reported as full.
func (c *Cache) Quota(user string) (q upstream.RateLimit, ok bool) {
	q, ok = c.quotas.get(user)
	if !ok || q.Limit <= 0 {
		return upstream.RateLimit{}, false
	}
	if now := c.now(); !q.RenewsAt().After(now) {
		// The window renewed: the next call starts a new hour.
		q.Remaining, q.At, q.Reset = q.Limit, now, time.Hour
	}
	return q, true
}
