package handlers

import (
	"context"
	"math"
	"net/http"
	"net/netip"
	"strings"
	"sync"
	"time"

	"github.com/labstack/echo/v5"
	"github.com/maypok86/otter/v2"
)

// The service counts neither sign-ins nor codes against the hourly limit,
// so nothing but the dashboard stops a script from guessing passwords, or
// codes by signing in again and again, which also sends the account's
// owner a text message each time. The sign-in throttle bounds, within a
// window, the attempts of one user name from one place, the attempts from
// one place whatever the name (several analysts behind one proxy share
// it, hence the larger figure), the attempts of one user name from
// anywhere, and the codes sent for one user name. A place is an IPv4
// address or an IPv6 /64, the block one machine usually holds.
//
// Every attempt is reserved before the service is called, on all its
// counts at once, and given back only when the answer shows it was not a
// failure: so parallel attempts cannot pass a count that is checked first
// and raised after the answer.
const (
	// ThrottleWindow is how long the throttle counts an attempt.
	ThrottleWindow          = 15 * time.Minute
	failuresPerNameAndPlace = 10
	failuresPerPlace        = 100
	// failuresPerName bounds a name's failures from every place at once:
	// many addresses buy a script no more than this.
	failuresPerName = 30
	codesPerName    = 5
	// maxThrottled bounds the memory book: past it the oldest counts go
	// first.
	maxThrottled = 100_000
)

// Attempts counts sign-in attempts per key in fixed windows that start
// with a key's first attempt. Replicas share one through the shared
// store; alone, the memory one does.
type Attempts interface {
	// Reserve counts one attempt on every key at once when each is below
	// its limit (limits[i] for keys[i]), in windows of the given length.
	// Otherwise it counts none and answers the index of a full key and
	// when its window ends; full is -1 when the attempt was counted.
	Reserve(ctx context.Context, keys []string, limits []int, window time.Duration) (full int, ends time.Time)
	// Release gives back one attempt of each key, counted by Reserve.
	Release(ctx context.Context, keys []string)
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
	now func() time.Time
	// mu makes a reservation on several keys one step.
	mu     sync.Mutex
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

func (m *memoryAttempts) Reserve(_ context.Context, keys []string, limits []int, window time.Duration) (int, time.Time) {
	now := m.now()
	m.mu.Lock()
	defer m.mu.Unlock()
	for i, k := range keys {
		if t, ok := m.counts.GetIfPresent(k); ok && now.Before(t.ends) && t.n >= limits[i] {
			return i, t.ends
		}
	}
	for _, k := range keys {
		t, ok := m.counts.GetIfPresent(k)
		if !ok || !now.Before(t.ends) {
			t = tally{ends: now.Add(window)}
		}
		t.n++
		m.counts.Set(k, t)
	}
	return -1, time.Time{}
}

func (m *memoryAttempts) Release(_ context.Context, keys []string) {
	now := m.now()
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, k := range keys {
		if t, ok := m.counts.GetIfPresent(k); ok && now.Before(t.ends) && t.n > 0 {
			t.n--
			m.counts.Set(k, t)
		}
	}
}

func (m *memoryAttempts) Forget(_ context.Context, key string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.counts.Invalidate(key)
}

// signInThrottle is the counts described above, in one book: keys of
// failures start with "f", of codes sent with "c".
type signInThrottle struct {
	book Attempts
	// place is the address a request came from (see clientAddress).
	place echo.IPExtractor
}

// What a refused attempt is refused for.
const (
	throttledFailures = iota + 1 // of a name from this place
	throttledPlace               // of any name from this place
	throttledName                // of a name from anywhere
	throttledCodes
)

// reservation is one attempt counted before the service is asked; the
// handler settles it by what the service answered.
type reservation struct {
	t      *signInThrottle
	name   string
	place  string
	code   bool // a code slot is held too
	failed bool
}

// failureKeys are the counts a failed attempt of name from place stays in.
func failureKeys(name, place string) []string {
	n := strings.ToLower(name)
	return []string{"f" + n + "\x00" + place, "f@" + place, "fn" + n}
}

// reserve counts an attempt of name from r on every count before the
// service is asked; code says the attempt may send a code (a sign-in, not
// the code step). A refusal says why and until when.
func (t *signInThrottle) reserve(r *http.Request, name string, code bool) (*reservation, int, time.Time) {
	p := throttlePlace(t.place(r))
	keys := failureKeys(name, p)
	limits := []int{failuresPerNameAndPlace, failuresPerPlace, failuresPerName}
	if code {
		keys = append(keys, "c"+strings.ToLower(name))
		limits = append(limits, codesPerName)
	}
	full, ends := t.book.Reserve(r.Context(), keys, limits, ThrottleWindow)
	if full < 0 {
		return &reservation{t: t, name: name, place: p, code: code}, 0, time.Time{}
	}
	// The keys' order above: name here, place, name anywhere, codes.
	return nil, []int{throttledFailures, throttledPlace, throttledName, throttledCodes}[full], ends
}

// failure keeps the attempt counted as a failure (a wrong password or
// code); the code slot goes back, as no code was sent.
func (r *reservation) failure(ctx context.Context) {
	r.failed = true
	if r.code {
		r.t.book.Release(ctx, []string{"c" + strings.ToLower(r.name)})
	}
}

// codeSent turns the attempt into a code sent: the code slot stays, the
// failure counts go back.
func (r *reservation) codeSent(ctx context.Context) {
	r.t.book.Release(ctx, failureKeys(r.name, r.place))
}

// succeeded ends the attempt as a whole sign-in: the name's failures from
// this place are forgotten, and the rest of the reservation goes back.
func (r *reservation) succeeded(ctx context.Context) {
	keys := failureKeys(r.name, r.place)
	r.t.book.Forget(ctx, keys[0])
	r.release(ctx, keys[1:])
}

// undone gives the whole attempt back: the service failed, so it says
// nothing about the password.
func (r *reservation) undone(ctx context.Context) {
	r.release(ctx, failureKeys(r.name, r.place))
}

// release gives back the failure keys given and the code slot.
func (r *reservation) release(ctx context.Context, keys []string) {
	if r.code {
		keys = append(keys, "c"+strings.ToLower(r.name))
	}
	r.t.book.Release(ctx, keys)
}

// codeResent counts a code the service sent again during the code step;
// it was sent, so it is counted whatever the limit.
func (t *signInThrottle) codeResent(r *http.Request, name string) {
	t.book.Reserve(r.Context(), []string{"c" + strings.ToLower(name)}, []int{math.MaxInt}, ThrottleWindow)
}

// throttlePlace is the place counted for a client address: the address
// itself for IPv4, its /64 for IPv6, where one machine commonly holds a
// whole block and can pick a new address for each attempt.
func throttlePlace(addr string) string {
	a, err := netip.ParseAddr(addr)
	if err != nil {
		return addr
	}
	a = a.Unmap()
	if a.Is4() {
		return a.String()
	}
	p, err := a.WithZone("").Prefix(64)
	if err != nil {
		return addr
	}
	return p.String()
}
