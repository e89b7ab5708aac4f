package session

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
	// mu makes a Reservation on several keys one step.
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

// Throttle is the counts described above, in one book: keys of
// failures start with "f", of codes sent with "c".
type Throttle struct {
	book Attempts
	// place is the address a request came from.
	place echo.IPExtractor
}

// NewThrottle counts attempts in book, by the address place reads.
func NewThrottle(book Attempts, place echo.IPExtractor) *Throttle {
	return &Throttle{book: book, place: place}
}

// Refusal is what a refused attempt is refused for.
type Refusal int

// The refusals, by the count that was full.
const (
	RefusedFailures Refusal = iota + 1 // of a name from this place
	RefusedPlace                       // of any name from this place
	RefusedName                        // of a name from anywhere
	RefusedCodes
)

// Reservation is one attempt counted before the service is asked; the
// handler settles it by what the service answered.
type Reservation struct {
	t      *Throttle
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

// Reserve counts an attempt of name from r on every count before the
// service is asked; code says the attempt may send a code (a sign-in, not
// the code step). A refusal says why and until when.
func (t *Throttle) Reserve(r *http.Request, name string, code bool) (*Reservation, Refusal, time.Time) {
	p := throttlePlace(t.place(r))
	keys := failureKeys(name, p)
	limits := []int{failuresPerNameAndPlace, failuresPerPlace, failuresPerName}
	if code {
		keys = append(keys, "c"+strings.ToLower(name))
		limits = append(limits, codesPerName)
	}
	full, ends := t.book.Reserve(r.Context(), keys, limits, ThrottleWindow)
	if full < 0 {
		return &Reservation{t: t, name: name, place: p, code: code}, 0, time.Time{}
	}
	// The keys' order above: name here, place, name anywhere, codes.
	return nil, []Refusal{RefusedFailures, RefusedPlace, RefusedName, RefusedCodes}[full], ends
}

// Failure keeps the attempt counted as a failure (a wrong password or
// code); the code slot goes back, as no code was sent.
func (r *Reservation) Failure(ctx context.Context) {
	r.failed = true
	if r.code {
		r.t.book.Release(ctx, []string{"c" + strings.ToLower(r.name)})
	}
}

// CodeSent turns the attempt into a code sent: the code slot stays, the
// failure counts go back.
func (r *Reservation) CodeSent(ctx context.Context) {
	r.t.book.Release(ctx, failureKeys(r.name, r.place))
}

// Succeeded ends the attempt as a whole sign-in: the name's failures from
// this place are forgotten, and the rest of the Reservation goes back.
func (r *Reservation) Succeeded(ctx context.Context) {
	keys := failureKeys(r.name, r.place)
	r.t.book.Forget(ctx, keys[0])
	r.release(ctx, keys[1:])
}

// Undone gives the whole attempt back: the service failed, so it says
// nothing about the password.
func (r *Reservation) Undone(ctx context.Context) {
	r.release(ctx, failureKeys(r.name, r.place))
}

// release gives back the failure keys given and the code slot.
func (r *Reservation) release(ctx context.Context, keys []string) {
	if r.code {
		keys = append(keys, "c"+strings.ToLower(r.name))
	}
	r.t.book.Release(ctx, keys)
}

// CodeResent counts a code the service sent again during the code step;
// it was sent, so it is counted whatever the limit.
func (t *Throttle) CodeResent(r *http.Request, name string) {
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
