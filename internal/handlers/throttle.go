package handlers

import (
	"net"
	"net/http"
	"strings"
	"time"

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
	throttleWindow          = 15 * time.Minute
	failuresPerNameAndPlace = 10
	failuresPerPlace        = 100
	codesPerName            = 5
	// maxThrottled bounds each book: past it the oldest counts go first.
	maxThrottled = 50_000
)

// tally is a count of attempts in the window that began at since.
type tally struct {
	n     int
	since time.Time
}

// attemptBook counts attempts per key in fixed windows.
type attemptBook struct {
	now    func() time.Time
	counts *otter.Cache[string, tally]
}

func newAttemptBook(now func() time.Time) *attemptBook {
	return &attemptBook{now: now, counts: otter.Must(&otter.Options[string, tally]{
		MaximumSize:      maxThrottled,
		ExpiryCalculator: otter.ExpiryWriting[string, tally](throttleWindow),
	})}
}

// add counts one attempt for key.
func (b *attemptBook) add(key string) {
	now := b.now()
	b.counts.Compute(key, func(old tally, found bool) (tally, otter.ComputeOp) {
		if !found || !now.Before(old.since.Add(throttleWindow)) {
			return tally{n: 1, since: now}, otter.WriteOp
		}
		old.n++
		return old, otter.WriteOp
	})
}

// full reports whether key had limit attempts in its window, and when the
// window ends.
func (b *attemptBook) full(key string, limit int) (until time.Time, ok bool) {
	t, found := b.counts.GetIfPresent(key)
	if !found || t.n < limit {
		return time.Time{}, false
	}
	end := t.since.Add(throttleWindow)
	return end, b.now().Before(end)
}

// forget drops key's count (a sign-in that succeeded).
func (b *attemptBook) forget(key string) { b.counts.Invalidate(key) }

// signInThrottle is the three counts described above.
type signInThrottle struct {
	failures *attemptBook // per name and place, and per place
	codes    *attemptBook // per name
}

func newSignInThrottle(now func() time.Time) *signInThrottle {
	return &signInThrottle{failures: newAttemptBook(now), codes: newAttemptBook(now)}
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
	p := place(r)
	if u, full := t.failures.full(nameKey(name, p), failuresPerNameAndPlace); full {
		return throttledFailures, u
	}
	if u, full := t.failures.full("@"+p, failuresPerPlace); full {
		return throttledFailures, u
	}
	if u, full := t.codes.full(nameKey(name, ""), codesPerName); full && !codeStep {
		return throttledCodes, u
	}
	return 0, time.Time{}
}

// failed counts a wrong password or code.
func (t *signInThrottle) failed(r *http.Request, name string) {
	p := place(r)
	t.failures.add(nameKey(name, p))
	t.failures.add("@" + p)
}

// succeeded forgets the name's failures from this place.
func (t *signInThrottle) succeeded(r *http.Request, name string) {
	t.failures.forget(nameKey(name, place(r)))
}

// codeSent counts a code the service sent for name.
func (t *signInThrottle) codeSent(name string) { t.codes.add(nameKey(name, "")) }

// nameKey is the book key of a user name from place, case folded so that
// another spelling of a name buys no more tries. Names are bounded by the
// form.
func nameKey(name, place string) string {
	return strings.ToLower(name) + "\x00" + place
}

// place is the address the request came from: the connection's, not a
// header's, which anyone can write.
func place(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	return host
}
