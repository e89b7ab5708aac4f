package simulator

import (
	"crypto/rand"
	"crypto/subtle"
	"net/http"
	"strings"
	"time"
)

// session is one signed-in session key.
type session struct {
	user    string
	expires time.Time
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
	key, id := s.newSession(username)
	writeData(w, r, wireLogin{SessionKey: key, Username: username, SessionId: id})
	return user
}

// newSession issues a key shaped like the real service's: the date and time
// of issue, a space, and 32 random letters and digits.
func (s *Server) newSession(user string) (string, int64) {
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
	s.sessions[key] = &session{user: user, expires: now.Add(s.opts.SessionTTL)}
	s.nextID++
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
	h := r.Header.Get("Authorization")
	scheme, key, ok := strings.Cut(h, " ")
	key = strings.TrimSpace(key)
	if !ok || !strings.EqualFold(scheme, "Bearer") || key == "" {
		return nil, "", errf(http.StatusForbidden, CodeInvalidSessionKey,
			"A session key is required: sign in and send it as a bearer token.")
	}
	s.mu.Lock()
	sess := s.sessions[key]
	s.mu.Unlock()
	if sess == nil {
		return nil, "", errf(http.StatusForbidden, CodeInvalidSessionKey,
			"The session key is not valid: sign in again.")
	}
	if !s.now().Before(sess.expires) {
		return nil, sess.user, errf(http.StatusForbidden, CodeSessionExpired,
			"The session key has expired: sign in again.")
	}
	return s.accounts[sess.user], sess.user, nil
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
