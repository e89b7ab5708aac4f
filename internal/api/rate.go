package api

import (
	"math"
	"sync"
	"time"
)

// Each token may make ratePerMinute requests a minute, in bursts of as
// many: enough for an ERP's nightly walk of 50,000 accounts in pages of
// 100 within two minutes, and a bound on what a leaked token costs.
// Counted per replica.
const ratePerMinute = 300

// maxBuckets bounds the tokens counted at once; past it the book forgets
// those that have refilled (a full bucket is a new one).
const maxBuckets = 10000

// rateBook is a token bucket per token.
type rateBook struct {
	mu      sync.Mutex
	buckets map[int64]*bucket
}

// bucket is one token's requests left and when it was last counted.
type bucket struct {
	left float64
	at   time.Time
}

func newRateBook() *rateBook { return &rateBook{buckets: map[int64]*bucket{}} }

// take spends one request of token; when none is left it spends nothing
// and returns the whole seconds until one is.
func (r *rateBook) take(token int64, now time.Time) (wait int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	b := r.buckets[token]
	if b == nil {
		if len(r.buckets) >= maxBuckets {
			r.forgetFull(now)
		}
		b = &bucket{left: ratePerMinute, at: now}
		r.buckets[token] = b
	}
	b.left = math.Min(ratePerMinute, b.left+now.Sub(b.at).Minutes()*ratePerMinute)
	b.at = now
	if b.left < 1 {
		return int(math.Ceil((1 - b.left) * 60 / ratePerMinute))
	}
	b.left--
	return 0
}

// forgetFull drops the buckets that are full by now, and if none is, an
// arbitrary half: the bound holds whatever the tokens do.
func (r *rateBook) forgetFull(now time.Time) {
	for id, b := range r.buckets {
		if b.left+now.Sub(b.at).Minutes()*ratePerMinute >= ratePerMinute {
			delete(r.buckets, id)
		}
	}
	for id := range r.buckets {
		if len(r.buckets) < maxBuckets/2 {
			break
		}
		delete(r.buckets, id)
	}
}
