package simulator

import (
	"crypto/rand"
	"crypto/subtle"
	"net/http"
	"strings"
	"time"
)

// session is one signed-in session key. While pending is set the key is
// good for Users/2FAKey only.
type session struct {
	user    string
	id      int64 // the SessionId sign-in answered with
	expires time.Time
	pending bool
	code    string // the one-time code sent for this key, while pending
	wrong   int    // wrong codes sent for this key so far
	locked  bool   // too many wrong codes: the key is dead
}

const (
	// maxSessionsPerUser bounds memory when a client signs in in a loop:
	// the oldest keys of that user are dropped first.
	maxSessionsPerUser = 256
	// pruneEvery spaces out sweeps of expired keys.
	pruneEvery  = time.Minute
	keyAlphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
)

// serveLogin answers POST /v1/Users/Login. Sign-in does not count towards
// the rate limit, but it does count in the request counters.
func (s *Server) serveLogin(w http.ResponseWriter, r *http.Request) string {
	var username, password string
	if r.Method == http.MethodPost {
		if err := r.ParseForm(); err != nil {
			writeError(w, r, badParam("body", "cannot read the form: %v", err))
			return ""
		}
		username, password = r.PostForm.Get("Username"), r.PostForm.Get("Password")
	}
	acct := s.accounts[username]
	user := ""
	if acct != nil {
		user = username
	}
	s.count(user, r.URL.Path)
	if !s.delay(r) {
		return user
	}
	if r.Method != http.MethodPost {
		w.Header().Set("Allow", http.MethodPost)
		writeError(w, r, errf(http.StatusMethodNotAllowed, CodeMethodNotAllowed, "sign in with POST"))
		return user
	}
	if e := s.injected(r.URL.Path); e != nil {
		writeError(w, r, e)
		return user
	}
	if username == "" || password == "" {
		writeError(w, r, errf(http.StatusBadRequest, CodeMissingParameter,
			"Username and Password are both required."))
		return user
	}
	if acct == nil || subtle.ConstantTimeCompare([]byte(password), []byte(acct.Password)) != 1 {
		writeError(w, r, errf(http.StatusForbidden, CodeInvalidCredentials,
			"The user name or password is incorrect."))
		return user
	}
	if acct.TwoFactor {
		s.loginTwoFactor(w, r, acct)
		return user
	}
	key, id := s.newSession(username)
	writeData(w, r, wireLogin{SessionKey: key, Username: username, SessionId: id})
	return user
}

// newSession issues a key shaped like the real service's: the date and time
// of issue, a space, and 32 random letters and digits.
func (s *Server) newSession(user string) (string, int64) {
	return s.issue(&session{user: user}, s.opts.SessionTTL)
}

// issue stores sess under a new key that lives for ttl: the session
// lifetime, or the few minutes a pending two-factor sign-in has.
func (s *Server) issue(sess *session, ttl time.Duration) (string, int64) {
	user := sess.user
	now := s.now()
	key := now.UTC().Format("01/02/2006 15:04:05") + " " + randomText(32)
	s.mu.Lock()
	defer s.mu.Unlock()
	s.prune(now)
	var keys []string
	for _, k := range s.userKeys[user] {
		if _, ok := s.sessions[k]; ok {
			keys = append(keys, k)
		}
	}
	for len(keys) >= maxSessionsPerUser {
		delete(s.sessions, keys[0])
		keys = keys[1:]
	}
	s.userKeys[user] = append(keys, key)
	sess.expires = now.Add(ttl)
	s.sessions[key] = sess
	s.nextID++
	sess.id = s.nextID
	return key, s.nextID
}

// prune drops keys that expired more than a lifetime ago: until then an
// expired key still answers SessionExpired rather than InvalidSessionKey.
// The caller holds s.mu.
func (s *Server) prune(now time.Time) {
	if now.Sub(s.pruned) < pruneEvery {
		return
	}
	s.pruned = now
	for k, sess := range s.sessions {
		if now.After(sess.expires.Add(s.opts.SessionTTL)) {
			delete(s.sessions, k)
		}
	}
}

// authenticate finds the account of the bearer key. user is set whenever the
// key names a user, even an expired one, so that the request is counted.
func (s *Server) authenticate(r *http.Request) (acct *account, user string, e *apiError) {
	key, ok := bearerKey(r)
	if !ok {
		return nil, "", errNoKey()
	}
	// A copy taken under the lock: 2FAKey changes a pending session in place.
	s.mu.Lock()
	p := s.sessions[key]
	var sess session
	if p != nil {
		sess = *p
	}
	s.mu.Unlock()
	if p == nil {
		return nil, "", errUnknownKey()
	}
	switch {
	case !s.now().Before(sess.expires):
		return nil, sess.user, errExpired()
	case sess.locked:
		return nil, sess.user, errLocked()
	case sess.pending:
		return nil, sess.user, errf(http.StatusForbidden, CodeTwoFactorRequired,
			"Enter the code sent to your phone (Users/2FAKey) before using this key.")
	}
	return s.accounts[sess.user], sess.user, nil
}

// bearerKey reads the session key of the Authorization header.
func bearerKey(r *http.Request) (string, bool) {
	scheme, key, ok := strings.Cut(r.Header.Get("Authorization"), " ")
	key = strings.TrimSpace(key)
	return key, ok && strings.EqualFold(scheme, "Bearer") && key != ""
}

func errNoKey() *apiError {
	return errf(http.StatusForbidden, CodeInvalidSessionKey,
		"A session key is required: sign in and send it as a bearer token.")
}

func errUnknownKey() *apiError {
	return errf(http.StatusForbidden, CodeInvalidSessionKey, "The session key is not valid: sign in again.")
}

func errExpired() *apiError {
	return errf(http.StatusForbidden, CodeSessionExpired, "The session key has expired: sign in again.")
}

// randomText returns n letters and digits from crypto/rand, without modulo bias.
func randomText(n int) string {
	out := make([]byte, 0, n)
	buf := make([]byte, 2*n)
	for len(out) < n {
		rand.Read(buf)
		for _, b := range buf {
			// 248 is the largest multiple of 62 not above 256.
			if b < 248 && len(out) < n {
				out = append(out, keyAlphabet[b%62])
			}
		}
	}
	return string(out)
}
