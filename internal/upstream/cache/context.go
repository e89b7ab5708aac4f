package cache

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"hash/maphash"
	"sync"
	"time"
)

type userKey struct{}
type probeKey struct{}
type bypassKey struct{}
type recorderKey struct{}

// WithUser names the signed-in user whose copies the calls may use. Copies
// are never shared between users, since access models differ.
func WithUser(ctx context.Context, username string) context.Context {
	return context.WithValue(ctx, userKey{}, username)
}

// userOf is the cache's identity of the caller: the user name when the
// handler gave one, otherwise a hash of the session key (never the key
// itself, which must not sit in memory longer than the cookie carries it).
func userOf(ctx context.Context, sessionKey string) string {
	if u, ok := ctx.Value(userKey{}).(string); ok && u != "" {
		return "u:" + u
	}
	sum := sha256.Sum256([]byte(sessionKey))
	return "k:" + hex.EncodeToString(sum[:12])
}

// Probe returns a context whose calls only look: a fresh copy is returned,
// anything else answers ErrNotCached without a request. Pages use it to
// count what a full load would spend.
func Probe(ctx context.Context) context.Context { return ProbeWith(ctx, ErrNotCached) }

// ProbeWith is Probe answering err instead of ErrNotCached, so a page can
// tell which of its parts a missing copy belongs to.
func ProbeWith(ctx context.Context, err error) context.Context {
	return context.WithValue(ctx, probeKey{}, err)
}

// probeErr is the error a probing context answers, or nil when not probing.
func probeErr(ctx context.Context) error { err, _ := ctx.Value(probeKey{}).(error); return err }

// Bypass returns a context whose calls skip fresh copies and ask the
// service (a page's Refresh).
func Bypass(ctx context.Context) context.Context { return context.WithValue(ctx, bypassKey{}, true) }

func bypassing(ctx context.Context) bool { v, _ := ctx.Value(bypassKey{}).(bool); return v }

// Recorder notes how a page's calls were answered: when the data was
// fetched, which of it is an older copy and why, and how many calls a
// probe found missing.
type Recorder struct {
	mu          sync.Mutex
	oldest      time.Time
	staleSince  time.Time
	staleReason string
	misses      int
	calls       int
	failures    int
	// sum adds up a hash of each copy used (its key and version), in any
	// order: two pages built from the same copies have the same sum.
	sum uint64
}

// seed makes the copy hashes of this process; they are never stored.
var seed = maphash.MakeSeed()

func copyHash(key string, version uint64, stale bool) uint64 {
	var h maphash.Hash
	h.SetSeed(seed)
	h.WriteString(key)
	var b [9]byte
	binary.LittleEndian.PutUint64(b[:8], version)
	if stale {
		b[8] = 1
	}
	h.Write(b[:])
	return h.Sum64()
}

// Record returns a context whose calls report to a new Recorder.
func Record(ctx context.Context) (context.Context, *Recorder) {
	r := &Recorder{}
	return context.WithValue(ctx, recorderKey{}, r), r
}

// recordOf returns the context's recorder; a nil one ignores everything.
func recordOf(ctx context.Context) *Recorder {
	r, _ := ctx.Value(recorderKey{}).(*Recorder)
	return r
}

func (r *Recorder) note(f func()) {
	if r == nil {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.calls++
	f()
}

func (r *Recorder) seen(t time.Time) {
	if r.oldest.IsZero() || t.Before(r.oldest) {
		r.oldest = t
	}
}

func (r *Recorder) used(key string, t time.Time, version uint64) {
	r.note(func() { r.seen(t); r.sum += copyHash(key, version, false) })
}
func (r *Recorder) failed() { r.note(func() { r.failures++ }) }
func (r *Recorder) miss()   { r.note(func() { r.misses++ }) }

func (r *Recorder) stale(key string, t time.Time, version uint64, why string) {
	r.note(func() {
		r.seen(t)
		r.sum += copyHash(key, version, true)
		if r.staleSince.IsZero() || t.Before(r.staleSince) {
			r.staleSince, r.staleReason = t, why
		}
	})
}

// Absorb adds what another recorder noted to r, as if r had seen it; a
// page that looked its calls up with a probe takes them over this way.
func (r *Recorder) Absorb(o *Recorder) {
	if r == nil || o == nil {
		return
	}
	o.mu.Lock()
	oldest, since, why, sum, calls, failures := o.oldest, o.staleSince, o.staleReason, o.sum, o.calls, o.failures
	o.mu.Unlock()
	r.mu.Lock()
	defer r.mu.Unlock()
	if !oldest.IsZero() {
		r.seen(oldest)
	}
	if !since.IsZero() && (r.staleSince.IsZero() || since.Before(r.staleSince)) {
		r.staleSince, r.staleReason = since, why
	}
	r.sum += sum
	r.calls += calls
	r.failures += failures
}

// RecorderOf returns the recorder of ctx, or nil.
func RecorderOf(ctx context.Context) *Recorder { return recordOf(ctx) }

// FetchedAt is when the oldest data the page shows was fetched (zero when
// the page made no call).
func (r *Recorder) FetchedAt() time.Time { r.mu.Lock(); defer r.mu.Unlock(); return r.oldest }

// Stale returns when the oldest expired copy shown was fetched and why it
// was shown; a zero time means every answer was fresh.
func (r *Recorder) Stale() (since time.Time, why string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.staleSince, r.staleReason
}

// Fingerprint identifies the copies the page's calls used. ok is false when
// a call failed (an error is never kept, so its page must not be) or when
// no call went through the cache at all (nothing then vouches for the data).
func (r *Recorder) Fingerprint() (sum uint64, ok bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.sum, r.failures == 0 && r.calls > 0
}

// Misses is how many calls a probe found not cached: the requests a full
// load would spend.
func (r *Recorder) Misses() int { r.mu.Lock(); defer r.mu.Unlock(); return r.misses }
