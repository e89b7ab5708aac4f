package session

import (
	"encoding/base64"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/maypok86/otter/v2"
)

// Reading the session cookie means checking its MAC, decrypting it and
// parsing it: the largest part of a warm page after the bytes themselves.
// Decoded sessions are kept briefly, keyed by the cookie's exact value, so
// a browser's next pages read a map instead. Nothing is trusted that the
// full reading did not check: an entry is made only from a cookie that
// decoded, is used only for the very same value, and never outlives the
// cookie's own age limit. A sign-out still takes effect at once: its mark
// is checked on every request (Load), kept session or not.

// sessionMemoLife bounds how long a decoded session is kept.
const sessionMemoLife = time.Minute

// DefaultMemoBytes bounds the memory of the decoded sessions kept
// when Config leaves it out: some two thousand browsers' worth.
const DefaultMemoBytes = 1 << 20

// keptSession is a decoded session, the token its forms carry (an HMAC,
// derived once rather than on every page) and when its cookie stops being
// valid.
type keptSession struct {
	s     Session
	token string
	until time.Time
}

// Memo keeps decoded sessions by cookie value.
type Memo struct {
	store  *Store
	kept   *otter.Cache[string, keptSession]
	maxAge time.Duration // the cookie's, as its codec checks it
	now    func() time.Time
}

// NewMemo keeps decoded sessions of store within maxBytes.
func NewMemo(store *Store, maxBytes uint64) (*Memo, error) {
	kept, err := otter.New(&otter.Options[string, keptSession]{
		MaximumWeight: maxBytes,
		Weigher: func(v string, k keptSession) uint32 {
			return uint32(len(v) + len(k.s.Key) + len(k.s.User) + len(k.token) + 96)
		},
		ExpiryCalculator: otter.ExpiryWriting[string, keptSession](sessionMemoLife),
	})
	if err != nil {
		return nil, err
	}
	maxAge := time.Duration(store.store.Options.MaxAge) * time.Second
	return &Memo{store: store, kept: kept, maxAge: maxAge, now: time.Now}, nil
}

// Load is the request's session and its forms' token: kept when its
// cookie was decoded a moment ago, read through the store otherwise (and
// then kept).
func (m *Memo) Load(r *http.Request) (s Session, token string, ok bool) {
	ck, err := r.Cookie(m.store.name)
	if err != nil {
		return Session{}, "", false
	}
	now := m.now()
	if k, ok := m.kept.GetIfPresent(ck.Value); ok && now.Before(k.until) {
		return k.s, k.token, true
	}
	if s, ok = m.store.Load(r); !ok {
		return Session{}, "", false
	}
	token = tokenOf(s.CSRF)
	if stamped, ok := cookieStamp(ck.Value); ok && m.maxAge > 0 {
		until := stamped.Add(m.maxAge)
		if soon := now.Add(sessionMemoLife); soon.Before(until) {
			until = soon
		}
		m.kept.Set(ck.Value, keptSession{s: s, token: token, until: until})
	}
	return s, token, true
}

// cookieStamp reads when a sealed cookie was made: securecookie encodes
// "time|value|mac" in URL base64, and checks the time against its age
// limit when it decodes. Only called on a value that just decoded.
func cookieStamp(value string) (time.Time, bool) {
	// The stamp is within the first 16 characters (12 bytes), enough for
	// any Unix time in seconds and its bar.
	head := value[:min(len(value), 16)]
	b, err := base64.URLEncoding.DecodeString(head)
	if err != nil {
		return time.Time{}, false
	}
	stamp, _, ok := strings.Cut(string(b), "|")
	if !ok {
		return time.Time{}, false
	}
	sec, err := strconv.ParseInt(stamp, 10, 64)
	if err != nil || sec <= 0 {
		return time.Time{}, false
	}
	return time.Unix(sec, 0), true
}
