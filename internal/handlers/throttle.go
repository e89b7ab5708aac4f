package handlers

import (
	"context"
	"net/http"
	"strings"
	"time"

	"github.com/labstack/echo/v5"
	"github.com/maypok86/otter/v2"
)

// The service counts neither sign-ins nor codes against the hourly limit,
// so nothing but the dashboard stops a script from guessing passwords, or
// codes by signing in again and again, which also sends the account's
// owner a text message each time. The sign-in throttle bounds, within a
// window, the failed attempts of one user name from one address, the
// failed attempts from one address whatever the name (several analysts
// behind one proxy share it, hence the larger figure), and the codes sent
// for one user name.
const (
	// ThrottleWindow is how long the throttle counts an attempt.
	ThrottleWindow          = 15 * time.Minute
	failuresPerNameAndPlace = 10
	failuresPerPlace        = 100
	codesPerName            = 5
	// maxThrottled bounds the memory book: past it the oldest counts go
	// first.
	maxThrottled = 100_000
)

// Attempts counts sign-in attempts per key in fixed windows that start
// with a key's first attempt. Replicas share one through the shared
// store; alone, the memory one does.
type Attempts interface {
	// Add counts one attempt for key in a window of the given length.
	Add(ctx context.Context, key string, window time.Duration)
	// Count is key's attempts in its window and when the window ends.
	Count(ctx context.Context, key string) (n int, ends time.Time)
	// Forget drops key's count.
	Forget(ctx context.Context, key string)
}

// tally is a count of attempts in the window that ends at ends.
type tally struct {
	n    int
	ends time.Time
}

// memoryAttempts counts attempts in this process, bounded.
type memoryAttempts struct {
	now    func() time.Time
	counts *otter.Cache[string, tally]
}

// NewMemoryAttempts counts attempts in memory for windows up to window;
// now is its clock, nil meaning time.Now.
func NewMemoryAttempts(now func() time.Time, window time.Duration) Attempts {
	if now == nil {
		now = time.Now
	}
	return &memoryAttempts{now: now, counts: otter.Must(&otter.Options[string, tally]{
		MaximumSize:      maxThrottled,
		ExpiryCalculator: otter.ExpiryWriting[string, tally](window),
	})}
}

func (m *memoryAttempts) Add(_ context.Context, key string, window time.Duration) {
	now := m.now()
	m.counts.Compute(key, func(old tally, found bool) (tally, otter.ComputeOp) {
		if !found || !now.Before(old.ends) {
			return tally{n: 1, ends: now.Add(window)}, otter.WriteOp
		}
		old.n++
		return old, otter.WriteOp
	})
}

func (m *memoryAttempts) Count(_ context.Context, key string) (int, time.Time) {
	t, found := m.counts.GetIfPresent(key)
	if !found || !m.now().Before(t.ends) {
		return 0, time.Time{}
	}
	return t.n, t.ends
}

func (m *memoryAttempts) Forget(_ context.Context, key string) { m.counts.Invalidate(key) }

// signInThrottle is the three counts described above, in one book: keys
// of failures start with "f", of codes sent with "c".
type signInThrottle struct {
	book Attempts
	// place is the address a request came from (see clientAddress).
	place echo.IPExtractor
}

// full reports whether key had limit attempts in its window, and when the
// window ends.
func (t *signInThrottle) full(ctx context.Context, key string, limit int) (time.Time, bool) {
	n, ends := t.book.Count(ctx, key)
	return ends, n >= limit
}

// What a refused attempt is refused for.
const (
	throttledFailures = iota + 1
	throttledCodes
)

// check reports whether a sign-in of name from r may go on; if not, why
// and until when. The count of codes sent bounds new sign-ins (each sends
// one) but not the code step (the last code sent must stay usable).
func (t *signInThrottle) check(r *http.Request, name string, codeStep bool) (why int, until time.Time) {
	ctx, p := r.Context(), t.place(r)
	if u, full := t.full(ctx, "f"+nameKey(name, p), failuresPerNameAndPlace); full {
		return throttledFailures, u
	}
	if u, full := t.full(ctx, "f@"+p, failuresPerPlace); full {
		return throttledFailures, u
	}
	if u, full := t.full(ctx, "c"+nameKey(name, ""), codesPerName); full && !codeStep {
		return throttledCodes, u
	}
	return 0, time.Time{}
}

// failed counts a wrong password or code.
func (t *signInThrottle) failed(r *http.Request, name string) {
	p := t.place(r)
	t.book.Add(r.Context(), "f"+nameKey(name, p), ThrottleWindow)
	t.book.Add(r.Context(), "f@"+p, ThrottleWindow)
}

// succeeded forgets the name's failures from this place.
func (t *signInThrottle) succeeded(r *http.Request, name string) {
	t.book.Forget(r.Context(), "f"+nameKey(name, t.place(r)))
}

// codeSent counts a code the service sent for name.
func (t *signInThrottle) codeSent(r *http.Request, name string) {
	t.book.Add(r.Context(), "c"+nameKey(name, ""), ThrottleWindow)
}

// nameKey is the book key of a user name from place, case folded so that
// another spelling of a name buys no more tries. Names are bounded by the
// form.
func nameKey(name, place string) string {
	return strings.ToLower(name) + "\x00" + place
}
