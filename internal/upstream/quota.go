package upstream

import (
	"net/http"
	"strconv"
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

// The quota headers' names as net/http keeps them. The service spells
// them "RateLimit", which is not canonical: Header.Get made a canonical
// copy of the name on every lookup, three for every answer.
var (
	keyRateLimit     = http.CanonicalHeaderKey(headerRateLimit)
	keyRateRemaining = http.CanonicalHeaderKey(headerRateRemaining)
	keyRateReset     = http.CanonicalHeaderKey(headerRateReset)
	keyRetryAfter    = http.CanonicalHeaderKey(headerRetryAfter)
)

// headerValue is h's first value for key, a canonical name.
func headerValue(h http.Header, key string) string {
	if v := h[key]; len(v) > 0 {
		return v[0]
	}
	return ""
}

// readRateLimit reads the X-RateLimit-* headers; ok is false when the answer
// carries none (unlimited accounts).
func readRateLimit(h http.Header) (RateLimit, bool) {
	limit, err1 := strconv.Atoi(headerValue(h, keyRateLimit))
	remaining, err2 := strconv.Atoi(headerValue(h, keyRateRemaining))
	if err1 != nil || err2 != nil || limit < 0 {
		return RateLimit{}, false
	}
	reset, _ := strconv.Atoi(headerValue(h, keyRateReset))
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
	for _, key := range []string{keyRetryAfter, keyRateReset} {
		if n, err := strconv.Atoi(headerValue(h, key)); err == nil && n >= 0 {
			return clampReset(n)
		}
	}
	return 0
}
