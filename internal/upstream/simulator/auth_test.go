package simulator

import (
	"encoding/json"
	"net/http"
	"net/url"
	"regexp"
	"testing"
	"time"
)

var keyShape = regexp.MustCompile(`^\d\d/\d\d/\d{4} \d\d:\d\d:\d\d [A-Za-z0-9]{32}$`)

func TestLoginSuccessShape(t *testing.T) {
	h := newAPIHarness(t, Options{})
	r := h.do(http.MethodPost, "/v1/Users/Login", "", url.Values{"Username": {"demo"}, "Password": {"demo"}})
	var d map[string]any
	wantData(t, "login", r, &d)
	wantKeys(t, "login", d, "SessionKey", "Username", "SessionId", "TwoFactorAuthenticationRequired", "Key")
	key, _ := d["SessionKey"].(string)
	if !keyShape.MatchString(key) {
		t.Errorf("SessionKey = %q, want date, time and 32 letters and digits", key)
	}
	if key[:19] != "07/15/2025 09:15:02" {
		t.Errorf("SessionKey = %q, want it to start with the sign-in time", key)
	}
	if d["Username"] != "demo" || d["TwoFactorAuthenticationRequired"] != false || d["Key"] != "" {
		t.Errorf("login Data = %v", d)
	}
	if _, ok := d["SessionId"].(float64); !ok {
		t.Errorf("SessionId = %v, want a number", d["SessionId"])
	}
	if other := h.login("demo"); other == key {
		t.Errorf("two sign-ins gave the same key %q", key)
	}
}

func TestLoginErrors(t *testing.T) {
	h := newAPIHarness(t, Options{})
	post := func(form url.Values) apiReply { return h.do(http.MethodPost, "/v1/Users/Login", "", form) }
	wantError(t, "wrong password", post(url.Values{"Username": {"demo"}, "Password": {"nope"}}), 403, CodeInvalidCredentials)
	wantError(t, "unknown user", post(url.Values{"Username": {"nobody"}, "Password": {"demo"}}), 403, CodeInvalidCredentials)
	wantError(t, "no password", post(url.Values{"Username": {"demo"}}), 400, CodeMissingParameter)
	wantError(t, "no fields", post(nil), 400, CodeMissingParameter)
	wantError(t, "GET login", h.get("", "/v1/Users/Login", nil), 405, CodeMethodNotAllowed)
}

func TestBearerKeyRequired(t *testing.T) {
	h := newAPIHarness(t, Options{})
	q := url.Values{"id": {"1001"}}
	wantError(t, "no key", h.get("", "/v1/Business/Summary", q), 403, CodeInvalidSessionKey)
	wantError(t, "unknown key", h.get("01/01/2025 00:00:00 AAAA", "/v1/Business/Summary", q), 403, CodeInvalidSessionKey)
	req, _ := http.NewRequest(http.MethodGet, h.ts.URL+"/v1/Business/Summary?id=1001", nil)
	req.Header.Set("Authorization", "Basic "+h.login("demo"))
	resp, err := h.ts.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusForbidden {
		t.Errorf("Basic scheme: status = %d, want 403", resp.StatusCode)
	}
	// A key with spaces and slashes works as a whole.
	key := h.login("demo")
	if r := h.get(key, "/v1/Business/Summary", q); r.status != 200 {
		t.Errorf("valid key: status = %d: %s", r.status, r.body)
	}
}

func TestSessionExpires(t *testing.T) {
	h := newAPIHarness(t, Options{SessionTTL: 30 * time.Minute})
	key := h.login("demo")
	q := url.Values{"id": {"1001"}}
	h.clock.Advance(29 * time.Minute)
	if r := h.get(key, "/v1/Business/Summary", q); r.status != 200 {
		t.Fatalf("before expiry: status = %d: %s", r.status, r.body)
	}
	h.clock.Advance(time.Minute)
	wantError(t, "at expiry", h.get(key, "/v1/Business/Summary", q), 403, CodeSessionExpired)
	// Signing in again gives a working key.
	if r := h.get(h.login("demo"), "/v1/Business/Summary", q); r.status != 200 {
		t.Errorf("new key: status = %d", r.status)
	}
}

func TestSessionDefaultTTLIsAnHour(t *testing.T) {
	h := newAPIHarness(t, Options{})
	key := h.login("demo")
	h.clock.Advance(59 * time.Minute)
	if r := h.get(key, "/v1/Portfolio/Folders", nil); r.status != 200 {
		t.Fatalf("after 59m: status = %d", r.status)
	}
	h.clock.Advance(2 * time.Minute)
	wantError(t, "after 61m", h.get(key, "/v1/Portfolio/Folders", nil), 403, CodeSessionExpired)
}

func TestSessionsAreBounded(t *testing.T) {
	h := newAPIHarness(t, Options{SessionTTL: time.Minute})
	first := h.login("demo")
	for range maxSessionsPerUser + 20 {
		h.srv.newSession("demo")
	}
	h.srv.mu.Lock()
	n := len(h.srv.sessions)
	h.srv.mu.Unlock()
	if n > maxSessionsPerUser+1 { // +1: the one key of the first login
		t.Errorf("sessions = %d, want at most %d", n, maxSessionsPerUser)
	}
	wantError(t, "oldest key dropped", h.get(first, "/v1/Portfolio/Folders", nil), 403, CodeInvalidSessionKey)

	// Long-expired keys are swept at the next sign-in.
	h.clock.Advance(time.Hour)
	h.login("ordinary")
	h.srv.mu.Lock()
	n = len(h.srv.sessions)
	h.srv.mu.Unlock()
	if n != 1 {
		t.Errorf("after the sweep: sessions = %d, want 1", n)
	}
}

// wantKeys checks that an object has exactly the given field names.
func wantKeys(t *testing.T, what string, obj map[string]any, keys ...string) {
	t.Helper()
	if len(obj) != len(keys) {
		b, _ := json.Marshal(obj)
		t.Errorf("%s: fields %s, want exactly %v", what, b, keys)
	}
	for _, k := range keys {
		if _, ok := obj[k]; !ok {
			t.Errorf("%s: field %q missing", what, k)
		}
	}
}
