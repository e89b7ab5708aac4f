package simulator

import (
	"crypto/rand"
	"crypto/subtle"
	"fmt"
	"math/big"
	"net/http"
	"strings"
	"time"
)

// Two-factor sign-in, as CONTRACT-CHOICES "Two-factor sign-in" sets it out.
// Login for an account with TwoFactor answers a pending key and "sends" a
// six-digit code; POST /v1/Users/2FAKey with that key as bearer and the code
// in Key turns the same key into a full one. Accounts with
// BrowserVerification then get a browser key that a later Login sends back
// in Key to skip the code.
const (
	// pendingTTL is how long a pending key waits for its code.
	pendingTTL = 5 * time.Minute
	// maxWrongCodes is the wrong code that locks a pending key.
	maxWrongCodes = 5
	// browserKeyTTL is how long a browser key skips the code.
	browserKeyTTL = 30 * 24 * time.Hour
	// maxBrowserKeysPerUser bounds memory when a client verifies in a
	// loop: the key nearest its expiry goes first.
	maxBrowserKeysPerUser = 64
	// Form fields of Login and 2FAKey besides Username and Password.
	formLinkBasedMFA = "LinkBasedMFA"
	formKey          = "Key"
)

// loginTwoFactor answers a right password of an account with two-factor
// sign-in: a full key when the form carries a valid browser key, else a
// pending key and a new code.
func (s *Server) loginTwoFactor(w http.ResponseWriter, r *http.Request, acct *account) {
	switch mfa := r.PostForm.Get(formLinkBasedMFA); strings.ToUpper(mfa) {
	case "", "N", "Y": // a link is answered like a code: the stand-in has no mail
	default:
		writeError(w, r, badParam(formLinkBasedMFA, "must be Y or N, not %q", mfa))
		return
	}
	user := acct.Username
	if acct.BrowserVerification && s.browserKeyValid(user, r.PostForm.Get(formKey)) {
		key, id := s.newSession(user)
		writeData(w, r, wireLogin{SessionKey: key, Username: user, SessionId: id})
		return
	}
	code := oneTimeCode()
	key, id := s.issue(&session{user: user, pending: true, code: code}, pendingTTL)
	s.mu.Lock()
	s.codes[user] = code
	s.mu.Unlock()
	// This line is the phone the code goes to. It is a warning so that it
	// shows where the dashboard's built-in stand-in logs warnings only.
	s.log.Warn("two-factor code sent (stand-in: enter it to finish signing in)", "user", user, "code", code)
	writeData(w, r, wireLogin{SessionKey: key, Username: user, SessionId: id,
		TwoFactorAuthenticationRequired: true})
}

// serveTwoFactorKey answers POST /v1/Users/2FAKey. Like sign-in it does not
// count against the hourly limit, but it counts in the request counters.
func (s *Server) serveTwoFactorKey(w http.ResponseWriter, r *http.Request) string {
	key, hasKey := bearerKey(r)
	user := ""
	s.mu.Lock()
	if sess := s.sessions[key]; hasKey && sess != nil {
		user = sess.user
	}
	s.mu.Unlock()
	s.count(user, r.URL.Path)
	if !s.delay(r) {
		return user
	}
	if r.Method != http.MethodPost {
		w.Header().Set("Allow", http.MethodPost)
		writeError(w, r, errf(http.StatusMethodNotAllowed, CodeMethodNotAllowed, "send the code with POST"))
		return user
	}
	if e := s.injected(r.URL.Path); e != nil {
		writeError(w, r, e)
		return user
	}
	if err := r.ParseForm(); err != nil {
		writeError(w, r, badParam("body", "cannot read the form: %v", err))
		return user
	}
	if !hasKey {
		writeError(w, r, errNoKey())
		return user
	}
	code := r.PostForm.Get(formKey)
	if code == "" && len(r.PostForm) == 0 {
		code = r.URL.Query().Get(formKey)
	}
	if code == "" {
		writeError(w, r, errf(http.StatusBadRequest, CodeMissingParameter,
			"Key is required: the code sent to your phone."))
		return user
	}
	res, e := s.confirm(key, code)
	if e != nil {
		writeError(w, r, e)
		return user
	}
	writeData(w, r, res)
	return user
}

// confirm checks code against the pending key and, when right, makes the
// key a full one whose lifetime starts now.
func (s *Server) confirm(key, code string) (wireLogin, *apiError) {
	now := s.now()
	s.mu.Lock()
	defer s.mu.Unlock()
	sess := s.sessions[key]
	switch {
	case sess == nil:
		return wireLogin{}, errUnknownKey()
	case !now.Before(sess.expires):
		return wireLogin{}, errf(http.StatusForbidden, CodeSessionExpired,
			"The sign-in has expired: sign in again for a new code.")
	case sess.locked:
		return wireLogin{}, errLocked()
	case !sess.pending:
		return wireLogin{}, badParam(formKey, "no two-factor sign-in is waiting for this session key")
	}
	if subtle.ConstantTimeCompare([]byte(code), []byte(sess.code)) != 1 {
		sess.wrong++
		if sess.wrong >= maxWrongCodes {
			sess.locked, sess.code = true, ""
			return wireLogin{}, errLocked()
		}
		left := maxWrongCodes - sess.wrong
		return wireLogin{}, errf(http.StatusBadRequest, CodeInvalidTwoFactorKey,
			"The code is not right: %d %s left.", left, plural(left, "attempt", "attempts"))
	}
	sess.pending, sess.code = false, ""
	sess.expires = now.Add(s.opts.SessionTTL)
	res := wireLogin{SessionKey: key, Username: sess.user, SessionId: sess.id}
	if acct := s.accounts[sess.user]; acct != nil && acct.BrowserVerification {
		res.Key = s.newBrowserKey(sess.user, now)
	}
	return res, nil
}

func errLocked() *apiError {
	return errf(http.StatusForbidden, CodeTwoFactorLocked,
		"Too many wrong codes: this sign-in is locked. Sign in again for a new code.")
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// newBrowserKey issues a browser key for user. The caller holds s.mu.
func (s *Server) newBrowserKey(user string, now time.Time) string {
	keys := s.browserKeys[user]
	if keys == nil {
		keys = map[string]time.Time{}
		s.browserKeys[user] = keys
	}
	for k, exp := range keys {
		if !now.Before(exp) {
			delete(keys, k)
		}
	}
	for len(keys) >= maxBrowserKeysPerUser {
		first := ""
		for k, exp := range keys {
			if first == "" || exp.Before(keys[first]) {
				first = k
			}
		}
		delete(keys, first)
	}
	k := randomText(32)
	keys[k] = now.Add(browserKeyTTL)
	return k
}

// browserKeyValid reports whether key is an unexpired browser key of user;
// an unknown or expired one is ignored, so the code is asked for.
func (s *Server) browserKeyValid(user, key string) bool {
	if key == "" {
		return false
	}
	now := s.now()
	s.mu.Lock()
	defer s.mu.Unlock()
	exp, ok := s.browserKeys[user][key]
	return ok && now.Before(exp)
}

// LastCode returns the one-time code most recently sent to user, as the
// /_sim/otp hook does, for tests that run the stand-in in process.
func (s *Server) LastCode(user string) (string, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	code, ok := s.codes[user]
	return code, ok
}

// oneTimeCode is six random digits from crypto/rand.
func oneTimeCode() string {
	n, err := rand.Int(rand.Reader, big.NewInt(1_000_000))
	if err != nil {
		panic(fmt.Sprintf("simulator: no randomness for a code: %v", err))
	}
	return fmt.Sprintf("%06d", n.Int64())
}
