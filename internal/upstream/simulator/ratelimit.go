package simulator

import (
	"net/http"
	"strconv"
	"time"
)

// rateWindow is how long a quota lasts, from the first call it counts.
const rateWindow = time.Hour

// window is one user's current quota.
type window struct {
	start time.Time
	used  int
}

// hourlyLimit is the number of calls a user type may make per hour; 0 means no limit.
func hourlyLimit(userType string) int {
	switch userType {
	case UserOrdinary:
		return 10
	case UserAPIDeveloper:
		return 200
	}
	return 0
}

// limit counts one call of acct, sets the X-RateLimit headers for limited
// users and refuses the call once the hour's quota is spent.
func (s *Server) limit(w http.ResponseWriter, acct *account) *apiError {
	quota := hourlyLimit(acct.Type)
	if quota == 0 {
		return nil
	}
	now := s.now()
	s.mu.Lock()
	win := s.windows[acct.Username]
	if win == nil || !now.Before(win.start.Add(rateWindow)) {
		win = &window{start: now}
		s.windows[acct.Username] = win
	}
	win.used++
	used := win.used
	reset := win.start.Add(rateWindow).Sub(now)
	s.mu.Unlock()

	secs := int((reset + time.Second - 1) / time.Second) // round up: never "renews in 0s" too early
	h := w.Header()
	h.Set("X-RateLimit-Limit", strconv.Itoa(quota))
	h.Set("X-RateLimit-Remaining", strconv.Itoa(max(0, quota-used)))
	h.Set("X-RateLimit-Reset", strconv.Itoa(secs))
	if used > quota {
		h.Set("Retry-After", strconv.Itoa(max(1, secs)))
		return errf(http.StatusTooManyRequests, CodeRateLimitExceeded,
			"The hourly limit of %d requests is reached; it renews in %d seconds.", quota, secs)
	}
	return nil
}
