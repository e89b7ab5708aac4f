// Package session keeps who is signed in: the encrypted session cookie and
// the two cookies of two-factor sign-in, the decoded sessions kept a
// moment (Memo), sign-out marks, the forms' CSRF tokens, the guard against
// GETs sent from other sites, and the sign-in throttle. It knows nothing of
// pages: what a guard answers with is the caller's.
package session

import (
	"crypto/hkdf"
	"crypto/rand"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/gorilla/securecookie"
	"github.com/gorilla/sessions"

	"creditdash/internal/upstream"
)

// This is the only file that touches session values; everything else goes
// through Session and the store's typed methods.

const (
	sessionCookie = "creditdash_session"
	keyServiceKey = "k"
	keyUser       = "u"
	keySignedIn   = "t"
	keyService    = "s"
	keyCSRF       = "x"
	// MinSecretLen is the shortest secret accepted for deriving cookie keys.
	MinSecretLen = 32
)

// Session is what the encrypted cookie holds: the service's session key, who
// signed in, and when, the service it was made for, and the secret its
// forms' CSRF tokens are made from. Nothing else is kept.
type Session struct {
	// Key is the credit-risk service's session key. It never leaves the
	// cookie except in the Authorization header to the service.
	Key        string
	User       string
	SignedInAt time.Time
	// Service is the base URL of the service the session was made for: a
	// deployment on another service refuses it, even with the same
	// SESSION_SECRET, since a user name means another account there.
	Service string
	// CSRF is a random secret made at sign-in; the forms' token is
	// derived from it (see csrf.go), so a new sign-in rotates it.
	CSRF string
}

// Store keeps Session in an authenticated, encrypted cookie, and
// the two cookies of two-factor sign-in beside it (see twoFactorCookies).
type Store struct {
	store *sessions.CookieStore
	// name is the session cookie's name: with the __Host- prefix over
	// TLS, so no subdomain can set or shadow it.
	name string
	// service is the base URL sessions are bound to (set by New).
	service string
	// pending and browser seal the two-factor cookies with keys of their
	// own, so no cookie's value opens as another's.
	pending []securecookie.Codec
	browser []securecookie.Codec
}

// NewStore derives a hash key and a block key from each secret (newest
// first; older ones still decode cookies, for rotation).
func NewStore(secrets []string, secure bool, lifetime time.Duration) (*Store, error) {
	if len(secrets) == 0 {
		return nil, errors.New("session: no session secret")
	}
	var pairs [][]byte
	var pendingCodecs, browserCodecs []securecookie.Codec
	for i, s := range secrets {
		if len(s) < MinSecretLen {
			return nil, fmt.Errorf("session: session secret %d is shorter than %d characters", i+1, MinSecretLen)
		}
		hashKey, err := hkdf.Key(sha256.New, []byte(s), nil, "creditdash session authentication", 64)
		if err != nil {
			return nil, err
		}
		blockKey, err := hkdf.Key(sha256.New, []byte(s), nil, "creditdash session encryption", 32)
		if err != nil {
			return nil, err
		}
		pairs = append(pairs, hashKey, blockKey)
		pc, err := purposeCodec(s, "two-factor pending", pendingKept)
		if err != nil {
			return nil, err
		}
		bc, err := purposeCodec(s, "remembered browser", browserLifetime)
		if err != nil {
			return nil, err
		}
		pendingCodecs = append(pendingCodecs, pc)
		browserCodecs = append(browserCodecs, bc)
	}
	store := sessions.NewCookieStore(pairs...)
	for _, codec := range store.Codecs {
		if sc, ok := codec.(*securecookie.SecureCookie); ok {
			sc.SetSerializer(sessionSerializer{})
		}
	}
	// Every option set explicitly: the library's defaults are not ours.
	store.Options = &sessions.Options{
		Path:     "/",
		HttpOnly: true,
		Secure:   secure,
		SameSite: http.SameSiteLaxMode,
	}
	store.MaxAge(int(lifetime / time.Second))
	return &Store{store: store, name: cookieName(sessionCookie, secure), pending: pendingCodecs, browser: browserCodecs}, nil
}

// BindService binds the store's cookies to the service at url: cookies
// are made for it and those made for another are refused.
func (s *Store) BindService(url string) { s.service = url }

// cookieName is name with the __Host- prefix when cookies are Secure: the
// browser then takes the cookie only from this host, over TLS, for "/".
func cookieName(name string, secure bool) string {
	if secure {
		return "__Host-" + name
	}
	return name
}

// Load reads the session; ok is false when there is none or the cookie is
// tampered, expired, sealed with a key we no longer hold, or made for
// another service.
func (s *Store) Load(r *http.Request) (Session, bool) {
	sess, err := s.store.Get(r, s.name)
	if err != nil || sess.IsNew {
		return Session{}, false
	}
	key, _ := sess.Values[keyServiceKey].(string)
	user, _ := sess.Values[keyUser].(string)
	at, _ := sess.Values[keySignedIn].(int64)
	signedIn := time.UnixMilli(at)
	if at < 1e11 { // a cookie from before milliseconds: seconds
		signedIn = time.Unix(at, 0)
	}
	service, _ := sess.Values[keyService].(string)
	csrf, _ := sess.Values[keyCSRF].(string)
	if key == "" || user == "" || service != s.service || csrf == "" {
		return Session{}, false
	}
	return Session{Key: key, User: user, SignedInAt: signedIn, Service: service, CSRF: csrf}, true
}

// Save replaces whatever session the request carried with s.
func (s *Store) Save(w http.ResponseWriter, r *http.Request, sess Session) error {
	gs := s.fresh() // never carry over anything from an old session
	gs.Values[keyServiceKey] = sess.Key
	gs.Values[keyUser] = sess.User
	// Milliseconds: a sign-in right after a sign-out must be told from it.
	gs.Values[keySignedIn] = sess.SignedInAt.UnixMilli()
	gs.Values[keyService] = s.service
	if sess.CSRF == "" {
		sess.CSRF = rand.Text()
	}
	gs.Values[keyCSRF] = sess.CSRF
	if len(sess.Key)+len(sess.User) > maxSessionText {
		return ErrCookieTooLong
	}
	return s.store.Save(r, w, gs)
}

// maxSessionText bounds the service key and user name a cookie can carry:
// sealed and encoded they grow by about 1.8 times, and browsers keep at
// most 4 kB of a cookie.
const maxSessionText = 2000

// ErrCookieTooLong: the session would not fit in a browser's cookie.
var ErrCookieTooLong = errors.New("session: session cookie too long")

// Clear expires the cookie in the browser.
func (s *Store) Clear(w http.ResponseWriter, r *http.Request) {
	gs := s.fresh()
	gs.Options.MaxAge = -1
	_ = s.store.Save(r, w, gs)
}

// fresh returns an empty session with the store's options; the store's own
// New would decode the request's old cookie into it.
func (s *Store) fresh() *sessions.Session {
	gs := sessions.NewSession(s.store, s.name)
	opts := *s.store.Options
	gs.Options = &opts
	return gs
}

// sessionSerializer writes the three session values as a small JSON object.
// The library's default, gob, compiles a decoder for every cookie it reads,
// which made reading the session the costliest part of a cached page.
type sessionSerializer struct{}

type sessionWire struct {
	Key     string `json:"k"`
	User    string `json:"u"`
	At      int64  `json:"t"`
	Service string `json:"s"`
	CSRF    string `json:"x"`
}

// Serialize writes the session's values; anything else is refused.
func (sessionSerializer) Serialize(src interface{}) ([]byte, error) {
	values, ok := src.(map[interface{}]interface{})
	if !ok {
		return nil, errors.New("session: session values of an unknown shape")
	}
	var w sessionWire
	w.Key, _ = values[keyServiceKey].(string)
	w.User, _ = values[keyUser].(string)
	w.At, _ = values[keySignedIn].(int64)
	w.Service, _ = values[keyService].(string)
	w.CSRF, _ = values[keyCSRF].(string)
	return json.Marshal(w)
}

// Deserialize reads what Serialize wrote into the session's values.
func (sessionSerializer) Deserialize(src []byte, dst interface{}) error {
	values, ok := dst.(*map[interface{}]interface{})
	if !ok {
		return errors.New("session: session values of an unknown shape")
	}
	var w sessionWire
	if err := json.Unmarshal(src, &w); err != nil {
		return err
	}
	if *values == nil {
		*values = map[interface{}]interface{}{}
	}
	(*values)[keyServiceKey], (*values)[keyUser], (*values)[keySignedIn] = w.Key, w.User, w.At
	(*values)[keyService], (*values)[keyCSRF] = w.Service, w.CSRF
	return nil
}

// Two-factor sign-in keeps two more cookies, each sealed like the session
// (authenticated and encrypted, HttpOnly, SameSite=Lax) and sent only to
// /login paths, where they are read:
//   - the pending sign-in, for 10 minutes: the service's pending key, who
//     is signing in, where to go next, and how many codes were wrong. It is
//     never a session: Load reads only sessionCookie.
//   - the remembered browser, for 30 days: the service's browser key and
//     the user name it belongs to, so it is sent only for that user.
const (
	pendingCookie   = "creditdash_2fa"
	browserCookie   = "creditdash_browser"
	twoFactorPath   = "/login"
	pendingLifetime = 10 * time.Minute
	// pendingKept is how long the browser keeps a pending sign-in: past
	// its deadline it still says whose it was and where it was going, so
	// that the form to sign in again has both.
	pendingKept     = time.Hour
	browserLifetime = upstream.BrowserKeyLifetime
)

// Pending is a two-factor sign-in waiting for its code.
type Pending struct {
	// Key is the service's pending key; like Session.Key it leaves the
	// cookie only in the Authorization header to the service.
	Key   string    `json:"k"`
	User  string    `json:"u"`
	Next  string    `json:"n"`
	Wrong int       `json:"w"`
	Since time.Time `json:"t"`
	// Service binds the pending sign-in to its service, as Session.Service.
	Service string `json:"s"`
}

// rememberedBrowser is a browser key and the user name it was earned for.
type rememberedBrowser struct {
	User    string `json:"u"`
	Key     string `json:"k"`
	Service string `json:"s"`
}

// purposeCodec seals one kind of cookie with keys derived for it alone; the
// codec also refuses values older than maxAge, whatever the cookie says.
func purposeCodec(secret, purpose string, maxAge time.Duration) (*securecookie.SecureCookie, error) {
	hashKey, err := hkdf.Key(sha256.New, []byte(secret), nil, "creditdash "+purpose+" authentication", 64)
	if err != nil {
		return nil, err
	}
	blockKey, err := hkdf.Key(sha256.New, []byte(secret), nil, "creditdash "+purpose+" encryption", 32)
	if err != nil {
		return nil, err
	}
	sc := securecookie.New(hashKey, blockKey)
	sc.SetSerializer(securecookie.JSONEncoder{})
	sc.MaxAge(int(maxAge / time.Second))
	// The length is checked by encodeCookie, against the whole cookie, with
	// an error callers can tell apart.
	sc.MaxLength(0)
	return sc, nil
}

// SavePending starts (or updates) a pending sign-in. Its deadline is
// pendingLifetime after it started, which a wrong code does not move.
func (s *Store) SavePending(w http.ResponseWriter, p Pending, now time.Time) error {
	if !now.Before(p.Since.Add(pendingLifetime)) {
		s.ClearPending(w)
		return nil
	}
	p.Service = s.service
	v, err := encodeCookie(pendingCookie, p, s.pending)
	if errors.Is(err, ErrCookieTooLong) && p.Next != "/" {
		// A return path too long to keep (a crafted link) is dropped
		// rather than the sign-in: the analyst lands on the home page.
		p.Next = "/"
		v, err = encodeCookie(pendingCookie, p, s.pending)
	}
	if err != nil {
		return err
	}
	s.setCookie(w, pendingCookie, v, p.Since.Add(pendingKept).Sub(now))
	return nil
}

// PendingState is what a browser holds of a two-factor sign-in.
type PendingState int

const (
	PendingNone    PendingState = iota // none, or tampered or foreign
	PendingWaiting                     // waiting for its code
	PendingExpired                     // past its deadline; User and Next still tell whose and where to
)

// LoadPending reads the pending sign-in and whether it still waits. Its
// Next is as the browser kept it: the caller makes it a safe path.
func (s *Store) LoadPending(r *http.Request, now time.Time) (Pending, PendingState) {
	var p Pending
	c, err := r.Cookie(pendingCookie)
	if err != nil || securecookie.DecodeMulti(pendingCookie, c.Value, &p, s.pending...) != nil {
		return Pending{}, PendingNone
	}
	if p.Key == "" || p.User == "" || p.Service != s.service {
		return Pending{}, PendingNone
	}
	if !now.Before(p.Since.Add(pendingLifetime)) {
		return p, PendingExpired
	}
	return p, PendingWaiting
}

// ClearPending expires the pending sign-in in the browser.
func (s *Store) ClearPending(w http.ResponseWriter) {
	s.setCookie(w, pendingCookie, "", -1)
}

// maxCookieBytes is the most of a cookie, name and value, that browsers
// are sure to keep; a longer one is dropped without a word.
const maxCookieBytes = 4096

// encodeCookie seals value for the cookie name, or fails with
// ErrCookieTooLong when the cookie would not fit in a browser.
func encodeCookie(name string, value any, codecs []securecookie.Codec) (string, error) {
	v, err := securecookie.EncodeMulti(name, value, codecs...)
	if err != nil {
		return "", err
	}
	if len(name)+1+len(v) > maxCookieBytes {
		return "", ErrCookieTooLong
	}
	return v, nil
}

// SaveBrowserKey remembers this browser for user.
func (s *Store) SaveBrowserKey(w http.ResponseWriter, user, key string) error {
	v, err := encodeCookie(browserCookie, rememberedBrowser{User: user, Key: key, Service: s.service}, s.browser)
	if err != nil {
		return err
	}
	s.setCookie(w, browserCookie, v, browserLifetime)
	return nil
}

// BrowserKey returns the browser key remembered for user, or "" when the
// browser holds none, a tampered one, one another user name earned, or one
// not made for this store's service.
func (s *Store) BrowserKey(r *http.Request, user string) string {
	var b rememberedBrowser
	c, err := r.Cookie(browserCookie)
	if err != nil || securecookie.DecodeMulti(browserCookie, c.Value, &b, s.browser...) != nil {
		return ""
	}
	// Bound like the session cookie: one of another service, or one from
	// before cookies named their service, is refused (the analyst types
	// the code once more and is remembered again, bound this time).
	if b.User == "" || b.User != user || b.Service != s.service {
		return ""
	}
	return b.Key
}

// setCookie writes one two-factor cookie; a negative lifetime expires it.
func (s *Store) setCookie(w http.ResponseWriter, name, value string, lifetime time.Duration) {
	c := &http.Cookie{
		Name:     name,
		Value:    value,
		Path:     twoFactorPath,
		HttpOnly: true,
		Secure:   s.store.Options.Secure,
		SameSite: http.SameSiteLaxMode,
	}
	if lifetime < 0 {
		c.MaxAge = -1
		c.Expires = time.Unix(1, 0)
	} else {
		c.MaxAge = max(1, int(lifetime/time.Second)) // 0 would outlive the deadline
		c.Expires = time.Now().Add(lifetime)
	}
	http.SetCookie(w, c)
}
