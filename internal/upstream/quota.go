package upstream

import (
	"context"
	"net/http"
	"strconv"
	"sync/atomic"
	"time"
)

// RateLimit is the quota state the service reported on one answer.
type RateLimit struct {
	// Limit is the number of requests allowed per hour.
	Limit int
	// Remaining is how many are left in the current window.
	Remaining int
	// Reset is how long after At the quota renews.
	Reset time.Duration
	// At is when the answer carrying these figures arrived.
	At time.Time
}

// RenewsAt is when the quota renews.
func (r RateLimit) RenewsAt() time.Time { return r.At.Add(r.Reset) }

// readRateLimit reads the X-RateLimit-* headers; ok is false when the answer
// carries none (unlimited accounts).
func readRateLimit(h http.Header) (RateLimit, bool) {
	limit, err1 := strconv.Atoi(h.Get(headerRateLimit))
	remaining, err2 := strconv.Atoi(h.Get(headerRateRemaining))
	if err1 != nil || err2 != nil || limit < 0 {
		return RateLimit{}, false
	}
	reset, _ := strconv.Atoi(h.Get(headerRateReset))
	return RateLimit{
		Limit:     limit,
		Remaining: max(remaining, 0),
		Reset:     clampReset(reset),
		At:        time.Now(),
	}, true
}

// MaxReset bounds how far off a renewal is believed: the service's windows
// are an hour long, so a larger figure is an error and would freeze an
// account for days.
const MaxReset = time.Hour

func clampReset(seconds int) time.Duration {
	return min(time.Duration(max(seconds, 0))*time.Second, MaxReset)
}

// retryAfter reads how long until the quota renews from a 429 answer.
func retryAfter(h http.Header) time.Duration {
	for _, name := range []string{headerRetryAfter, headerRateReset} {
		if n, err := strconv.Atoi(h.Get(name)); err == nil && n >= 0 {
			return clampReset(n)
		}
	}
	return 0
}

type observerKey struct{}

// WithRateLimitObserver returns a context whose calls report the quota
// headers of every answer to fn. fn must be safe for concurrent use, since a
// page's calls run at once.
func WithRateLimitObserver(ctx context.Context, fn func(RateLimit)) context.Context {
	return context.WithValue(ctx, observerKey{}, fn)
}

func observe(ctx context.Context, r RateLimit) {
	if fn, ok := ctx.Value(observerKey{}).(func(RateLimit)); ok && fn != nil {
		fn(r)
	}
}

type answerBytesKey struct{}

// WithAnswerBytes returns a context whose calls add the size of every JSON
// answer they read to n: a cache weighs what it keeps by it instead of
// encoding each decoded value again to learn its size.
func WithAnswerBytes(ctx context.Context, n *atomic.Int64) context.Context {
	return context.WithValue(ctx, answerBytesKey{}, n)
}

func addAnswerBytes(ctx context.Context, size int) {
	if n, ok := ctx.Value(answerBytesKey{}).(*atomic.Int64); ok {
		n.Add(int64(size))
	}
}
