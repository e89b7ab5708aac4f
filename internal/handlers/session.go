package handlers

import (
	"crypto/hkdf"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/gorilla/securecookie"
	"github.com/gorilla/sessions"
)

// This is the only file that touches session values; everything else goes
// through Session and the store's typed methods.

const (
	sessionCookie = "creditdash_session"
	keyServiceKey = "k"
	keyUser       = "u"
	keySignedIn   = "t"
	// MinSecretLen is the shortest secret accepted for deriving cookie keys.
	MinSecretLen = 32
)

// Session is what the encrypted cookie holds: the service's session key, who
// signed in, and when. Nothing else is kept.
type Session struct {
	// Key is the credit-risk service's session key. It never leaves the
	// cookie except in the Authorization header to the service.
	Key        string
	User       string
	SignedInAt time.Time
}

// SessionStore keeps Session in an authenticated, encrypted cookie.
type SessionStore struct {
	store *sessions.CookieStore
}

// NewSessionStore derives a hash key and a block key from each secret (newest
// first; older ones still decode cookies, for rotation).
func NewSessionStore(secrets []string, secure bool, lifetime time.Duration) (*SessionStore, error) {
	if len(secrets) == 0 {
		return nil, errors.New("handlers: no session secret")
	}
	var pairs [][]byte
	for i, s := range secrets {
		if len(s) < MinSecretLen {
			return nil, fmt.Errorf("handlers: session secret %d is shorter than %d characters", i+1, MinSecretLen)
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
	return &SessionStore{store: store}, nil
}

// Load reads the session; ok is false when there is none or the cookie is
// tampered, expired or sealed with a key we no longer hold.
func (s *SessionStore) Load(r *http.Request) (Session, bool) {
	sess, err := s.store.Get(r, sessionCookie)
	if err != nil || sess.IsNew {
		return Session{}, false
	}
	key, _ := sess.Values[keyServiceKey].(string)
	user, _ := sess.Values[keyUser].(string)
	at, _ := sess.Values[keySignedIn].(int64)
	if key == "" || user == "" {
		return Session{}, false
	}
	return Session{Key: key, User: user, SignedInAt: time.Unix(at, 0)}, true
}

// Save replaces whatever session the request carried with s.
func (s *SessionStore) Save(w http.ResponseWriter, r *http.Request, sess Session) error {
	gs := s.fresh() // never carry over anything from an old session
	gs.Values[keyServiceKey] = sess.Key
	gs.Values[keyUser] = sess.User
	gs.Values[keySignedIn] = sess.SignedInAt.Unix()
	err := s.store.Save(r, w, gs)
	// The codec refuses to seal a value longer than a browser keeps
	// (4 kB): a usage error, not a failure of ours.
	var ce securecookie.Error
	if errors.As(err, &ce) && ce.IsUsage() {
		return errCookieTooLong
	}
	return err
}

// errCookieTooLong: the session would not fit in a browser's cookie.
var errCookieTooLong = errors.New("handlers: session cookie too long")

// Clear expires the cookie in the browser.
func (s *SessionStore) Clear(w http.ResponseWriter, r *http.Request) {
	gs := s.fresh()
	gs.Options.MaxAge = -1
	_ = s.store.Save(r, w, gs)
}

// fresh returns an empty session with the store's options; the store's own
// New would decode the request's old cookie into it.
func (s *SessionStore) fresh() *sessions.Session {
	gs := sessions.NewSession(s.store, sessionCookie)
	opts := *s.store.Options
	gs.Options = &opts
	return gs
}

// sessionSerializer writes the three session values as a small JSON object.
// The library's default, gob, compiles a decoder for every cookie it reads,
// which made reading the session the costliest part of a cached page.
type sessionSerializer struct{}

type sessionWire struct {
	Key  string `json:"k"`
	User string `json:"u"`
	At   int64  `json:"t"`
}

// Serialize writes the session's values; anything else is refused.
func (sessionSerializer) Serialize(src interface{}) ([]byte, error) {
	values, ok := src.(map[interface{}]interface{})
	if !ok {
		return nil, errors.New("handlers: session values of an unknown shape")
	}
	var w sessionWire
	w.Key, _ = values[keyServiceKey].(string)
	w.User, _ = values[keyUser].(string)
	w.At, _ = values[keySignedIn].(int64)
	return json.Marshal(w)
}

// Deserialize reads what Serialize wrote into the session's values.
func (sessionSerializer) Deserialize(src []byte, dst interface{}) error {
	values, ok := dst.(*map[interface{}]interface{})
	if !ok {
		return errors.New("handlers: session values of an unknown shape")
	}
	var w sessionWire
	if err := json.Unmarshal(src, &w); err != nil {
		return err
	}
	if *values == nil {
		*values = map[interface{}]interface{}{}
	}
	(*values)[keyServiceKey], (*values)[keyUser], (*values)[keySignedIn] = w.Key, w.User, w.At
	return nil
}
