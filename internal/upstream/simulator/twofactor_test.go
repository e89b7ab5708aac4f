package simulator

import (
	"bytes"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"
)

// syncBuffer is a log sink the server may write to from its handlers.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// twoFactorHarness serves the hand-made dataset plus "secure" (two-factor
// with browser verification) and "guard" (two-factor, Ordinary, no browser
// verification), logging warnings and above to log.
func twoFactorHarness(t *testing.T) (*apiHarness, *syncBuffer) {
	t.Helper()
	ds := testDataset()
	ds.Users = append(ds.Users,
		User{Username: "secure", Password: "demo", UserID: 6, Type: UserAPIUser, Access: AccessFull,
			TwoFactor: true, BrowserVerification: true,
			Folders: []Folder{{FolderID: 61, FolderName: "Watch", BusinessIDs: []int32{1001}}}},
		User{Username: "guard", Password: "demo", UserID: 7, Type: UserOrdinary, Access: AccessFull, TwoFactor: true})
	if err := ds.validate(); err != nil {
		t.Fatal(err)
	}
	log := &syncBuffer{}
	clock := &simClock{t: time.Date(2025, 7, 15, 9, 15, 2, 0, time.UTC)}
	srv := New(ds, Options{Now: clock.Now,
		Logger: slog.New(slog.NewTextHandler(log, &slog.HandlerOptions{Level: slog.LevelWarn}))})
	ts := httptest.NewServer(srv)
	t.Cleanup(ts.Close)
	return &apiHarness{t: t, srv: srv, ts: ts, clock: clock}, log
}

// loginData is Data of Login and 2FAKey.
type loginData struct {
	SessionKey                      string
	Username                        string
	SessionId                       int64
	TwoFactorAuthenticationRequired bool
	Key                             string
}

func (h *apiHarness) signIn(user, browserKey string) loginData {
	h.t.Helper()
	form := url.Values{"Username": {user}, "Password": {"demo"}, "LinkBasedMFA": {"N"}}
	if browserKey != "" {
		form.Set("Key", browserKey)
	}
	var d loginData
	wantData(h.t, "login "+user, h.do(http.MethodPost, "/v1/Users/Login", "", form), &d)
	return d
}

// otp reads the last code of user through the hook, as a browser test would.
func (h *apiHarness) otp(user string) string {
	h.t.Helper()
	r := h.get("", "/_sim/otp", url.Values{"user": {user}})
	var got struct{ Code string }
	if r.status != http.StatusOK || json.Unmarshal(r.body, &got) != nil {
		h.t.Fatalf("GET /_sim/otp?user=%s: %d %s", user, r.status, r.body)
	}
	return got.Code
}

func (h *apiHarness) sendCode(key, code string) apiReply {
	return h.do(http.MethodPost, "/v1/Users/2FAKey", key, url.Values{"Key": {code}})
}

// wrongCode is a six-digit code that is not code.
func wrongCode(code string) string {
	if code == "000000" {
		return "000001"
	}
	return "000000"
}

var sixDigits = regexp.MustCompile(`^\d{6}$`)

func TestTwoFactorFlow(t *testing.T) {
	h, log := twoFactorHarness(t)
	pending := h.signIn("secure", "")
	if !pending.TwoFactorAuthenticationRequired || pending.Key != "" || !keyShape.MatchString(pending.SessionKey) {
		t.Fatalf("login of secure = %+v, want a pending key and no browser key", pending)
	}
	wantError(t, "pending key on Folders", h.get(pending.SessionKey, "/v1/Portfolio/Folders", nil), 403, CodeTwoFactorRequired)

	code := h.otp("secure")
	if !sixDigits.MatchString(code) {
		t.Fatalf("code %q, want six digits", code)
	}
	if c, ok := h.srv.LastCode("secure"); !ok || c != code {
		t.Errorf("LastCode = %q, %v; hook said %q", c, ok, code)
	}
	if !strings.Contains(log.String(), "level=WARN") || !strings.Contains(log.String(), "code="+code) {
		t.Errorf("the code is not in the warnings log:\n%s", log)
	}

	var full loginData
	wantData(t, "2FAKey", h.sendCode(pending.SessionKey, code), &full)
	if full.SessionKey != pending.SessionKey || full.Username != "secure" || full.SessionId != pending.SessionId ||
		full.TwoFactorAuthenticationRequired || len(full.Key) != 32 {
		t.Fatalf("2FAKey = %+v, want the same key made full and a 32-character browser key", full)
	}
	if r := h.get(full.SessionKey, "/v1/Portfolio/Folders", nil); r.status != http.StatusOK {
		t.Errorf("Folders with the confirmed key: %d %s", r.status, r.body)
	}
	wantError(t, "a second code for a full key", h.sendCode(full.SessionKey, code), 400, CodeInvalidParameter)

	// The browser key skips the code; an unknown one is ignored.
	again := h.signIn("secure", full.Key)
	if again.TwoFactorAuthenticationRequired || again.Key != "" {
		t.Fatalf("login with the browser key = %+v, want a full key at once", again)
	}
	if r := h.get(again.SessionKey, "/v1/Portfolio/Folders", nil); r.status != http.StatusOK {
		t.Errorf("Folders after a remembered sign-in: %d", r.status)
	}
	if d := h.signIn("secure", strings.ToLower(full.Key)+"x"); !d.TwoFactorAuthenticationRequired {
		t.Error("an unknown browser key skipped the code")
	}
	h.clock.Advance(browserKeyTTL)
	if d := h.signIn("secure", full.Key); !d.TwoFactorAuthenticationRequired {
		t.Error("a browser key 30 days old skipped the code")
	}
}

func TestTwoFactorWrongCodesLock(t *testing.T) {
	h, _ := twoFactorHarness(t)
	pending := h.signIn("secure", "")
	code := h.otp("secure")
	for left := maxWrongCodes - 1; left > 0; left-- {
		r := h.sendCode(pending.SessionKey, wrongCode(code))
		wantError(t, "wrong code", r, 400, CodeInvalidTwoFactorKey)
		if want := fmt.Sprintf("%d attempt", left); !bytes.Contains(r.body, []byte(want)) {
			t.Errorf("wrong code: %s, want %q", r.body, want)
		}
	}
	wantError(t, "fifth wrong code", h.sendCode(pending.SessionKey, wrongCode(code)), 403, CodeTwoFactorLocked)
	wantError(t, "right code after the lock", h.sendCode(pending.SessionKey, code), 403, CodeTwoFactorLocked)
	wantError(t, "locked key on Folders", h.get(pending.SessionKey, "/v1/Portfolio/Folders", nil), 403, CodeTwoFactorLocked)

	// A new sign-in starts afresh with its own code.
	next := h.signIn("secure", "")
	var d loginData
	wantData(t, "code of the new sign-in", h.sendCode(next.SessionKey, h.otp("secure")), &d)
}

func TestTwoFactorExpiry(t *testing.T) {
	h, _ := twoFactorHarness(t)
	late := h.signIn("secure", "")
	code := h.otp("secure")
	h.clock.Advance(pendingTTL)
	wantError(t, "code after 5 minutes", h.sendCode(late.SessionKey, code), 403, CodeSessionExpired)
	wantError(t, "expired pending key on Folders", h.get(late.SessionKey, "/v1/Portfolio/Folders", nil), 403, CodeSessionExpired)

	// The 60 minutes of a confirmed key start at the code, not the sign-in.
	p := h.signIn("secure", "")
	code = h.otp("secure")
	h.clock.Advance(4 * time.Minute)
	var d loginData
	wantData(t, "code after 4 minutes", h.sendCode(p.SessionKey, code), &d)
	h.clock.Advance(59 * time.Minute)
	if r := h.get(p.SessionKey, "/v1/Portfolio/Folders", nil); r.status != http.StatusOK {
		t.Errorf("63 minutes after sign-in, 59 after the code: %d", r.status)
	}
	h.clock.Advance(time.Minute)
	wantError(t, "60 minutes after the code", h.get(p.SessionKey, "/v1/Portfolio/Folders", nil), 403, CodeSessionExpired)
}

func TestTwoFactorRequestShapes(t *testing.T) {
	h, _ := twoFactorHarness(t)
	p := h.signIn("guard", "")
	code := h.otp("guard")
	wantError(t, "GET 2FAKey", h.get(p.SessionKey, "/v1/Users/2FAKey", nil), 405, CodeMethodNotAllowed)
	wantError(t, "no bearer", h.sendCode("", code), 403, CodeInvalidSessionKey)
	wantError(t, "unknown bearer", h.sendCode("01/01/2025 00:00:00 AAAA", code), 403, CodeInvalidSessionKey)
	wantError(t, "no Key", h.do(http.MethodPost, "/v1/Users/2FAKey", p.SessionKey, nil), 400, CodeMissingParameter)
	wantError(t, "LinkBasedMFA=X", h.do(http.MethodPost, "/v1/Users/Login", "",
		url.Values{"Username": {"guard"}, "Password": {"demo"}, "LinkBasedMFA": {"X"}}), 400, CodeInvalidParameter)

	// Key may come in the query string when the body is empty.
	var d loginData
	wantData(t, "Key in the query", h.do(http.MethodPost, "/v1/Users/2FAKey?Key="+code, p.SessionKey, nil), &d)
	if d.Key != "" {
		t.Errorf("guard has no browser verification, got browser key %q", d.Key)
	}
	// A demo user's Login ignores Key and LinkBasedMFA.
	if d := h.signIn("demo", "whatever"); d.TwoFactorAuthenticationRequired {
		t.Error("demo was asked for a code")
	}

	wantError(t, "otp of a user without codes", h.get("", "/_sim/otp", url.Values{"user": {"demo"}}), 404, CodeNotFound)
	wantError(t, "POST otp", h.do(http.MethodPost, "/_sim/otp", "", nil), 405, CodeMethodNotAllowed)
}

// Sign-in and codes do not count against the hourly limit of an Ordinary user.
func TestTwoFactorNotCounted(t *testing.T) {
	h, _ := twoFactorHarness(t)
	var key string
	for range 12 {
		p := h.signIn("guard", "")
		h.sendCode(p.SessionKey, wrongCode(h.otp("guard")))
		var d loginData
		wantData(t, "2FAKey", h.sendCode(p.SessionKey, h.otp("guard")), &d)
		key = d.SessionKey
	}
	r := h.get(key, "/v1/Portfolio/Folders", nil)
	if r.status != http.StatusOK || r.header.Get("X-RateLimit-Remaining") != "9" {
		t.Errorf("first counted call: %d, %s left; want 200 and 9", r.status, r.header.Get("X-RateLimit-Remaining"))
	}
	if n := h.srv.Requests()["guard"]["/v1/Users/2FAKey"]; n != 24 {
		t.Errorf("2FAKey counted %d times in the counters, want 24", n)
	}
}

func TestTwoFactorXML(t *testing.T) {
	h, _ := twoFactorHarness(t)
	form := url.Values{"Username": {"secure"}, "Password": {"demo"}, "type": {"xml"}}
	root, err := parseXML(h.do(http.MethodPost, "/v1/Users/Login", "", form).body)
	if err != nil || root.child("Data").child("TwoFactorAuthenticationRequired").text != "true" {
		t.Fatalf("pending login as XML: %v", err)
	}
	key := root.child("Data").child("SessionKey").text
	r := h.do(http.MethodPost, "/v1/Users/2FAKey", key, url.Values{"Key": {h.otp("secure")}, "type": {"xml"}})
	if root, err = parseXML(r.body); err != nil || r.status != 200 {
		t.Fatalf("2FAKey as XML: %d %v", r.status, err)
	}
	d := root.child("Data")
	if d.child("SessionKey").text != key || d.child("TwoFactorAuthenticationRequired").text != "false" || len(d.child("Key").text) != 32 {
		t.Errorf("2FAKey XML: %s", r.body)
	}
	r = h.do(http.MethodPost, "/v1/Users/2FAKey", key, url.Values{"Key": {"1"}, "type": {"xml"}})
	if root, err = parseXML(r.body); err != nil || r.status != 400 || root.child("ErrorCode").text != CodeInvalidParameter {
		t.Errorf("refused code as XML: %d %s", r.status, r.body)
	}
}
