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
// copy of such a name on every lookup, three for every answer, where a
// canonical one is only checked.
var (
	keyRateLimit     = http.CanonicalHeaderKey(headerRateLimit)
	keyRateRemaining = http.CanonicalHeaderKey(headerRateRemaining)
	keyRateReset     = http.CanonicalHeaderKey(headerRateReset)
)

// readRateLimit reads the X-RateLimit-* headers; ok is false when the answer
// carries none (unlimited accounts).
func readRateLimit(h http.Header) (RateLimit, bool) {
	limit, err1 := strconv.Atoi(h.Get(keyRateLimit))
	remaining, err2 := strconv.Atoi(h.Get(keyRateRemaining))
	if err1 != nil || err2 != nil || limit < 0 {
		return RateLimit{}, false
	}
	reset, _ := strconv.Atoi(h.Get(keyRateReset))
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
	for _, name := range []string{headerRetryAfter, keyRateReset} {
		if n, err := strconv.Atoi(h.Get(name)); err == nil && n >= 0 {
			return clampReset(n)
		}
	}
	return 0
}
