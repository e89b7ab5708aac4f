package upstream_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"

	"creditdash/internal/upstream"
	"creditdash/internal/upstream/simulator"
)

// otp reads the code the stand-in last sent to user through its /_sim hook,
// as a browser test would.
func (s *stand) otp(t *testing.T, user string) string {
	t.Helper()
	resp, err := http.Get(s.url + "/_sim/otp?user=" + user)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var got struct{ Code string }
	if resp.StatusCode != http.StatusOK || json.NewDecoder(resp.Body).Decode(&got) != nil {
		t.Fatalf("GET /_sim/otp?user=%s: status %d", user, resp.StatusCode)
	}
	return got.Code
}

// pending signs secure in up to the code.
func (s *stand) pending(t *testing.T) upstream.LoginResult {
	t.Helper()
	res, err := s.client.SignIn(context.Background(), upstream.Credentials{User: "secure", Password: "demo"})
	if err != nil || !res.TwoFactorAuthenticationRequired {
		t.Fatalf("SignIn secure = %+v, %v; want a pending key", res, err)
	}
	return res
}

func wrong(code string) string {
	if code == "999999" {
		return "999998"
	}
	return "999999"
}

func TestContractTwoFactorSignIn(t *testing.T) {
	ctx := context.Background()
	s := newStand(t, 2*time.Second)
	_, err := s.client.Login(ctx, "secure", "demo")
	expectKind(t, "Login of a two-factor account", err, upstream.ErrTwoFactorRequired, "")

	p := s.pending(t)
	if p.Username != "secure" || p.BrowserKey != "" {
		t.Errorf("pending sign-in = %+v", p)
	}
	_, err = s.client.As(p.SessionKey).Folders(ctx)
	expectKind(t, "pending key on Folders", err, upstream.ErrTwoFactorRequired, "TwoFactorRequired")

	code := s.otp(t, "secure")
	if !regexp.MustCompile(`^\d{6}$`).MatchString(code) {
		t.Fatalf("code %q, want six digits", code)
	}
	_, err = s.client.TwoFactorKey(ctx, p.SessionKey, wrong(code))
	if ue := expectKind(t, "wrong code", err, upstream.ErrTwoFactorCode, "InvalidTwoFactorKey"); ue != nil &&
		!strings.Contains(ue.Message, "4 attempts left") {
		t.Errorf("wrong code: message %q, want the attempts left", ue.Message)
	}
	full, err := s.client.TwoFactorKey(ctx, p.SessionKey, code)
	if err != nil || full.SessionKey != p.SessionKey || full.TwoFactorAuthenticationRequired || len(full.BrowserKey) != 32 {
		t.Fatalf("TwoFactorKey = %+v, %v; want the same key, full, with a browser key", full, err)
	}
	if _, err := s.client.As(full.SessionKey).Folders(ctx); err != nil {
		t.Fatalf("Folders after the code: %v", err)
	}

	again, err := s.client.SignIn(ctx, upstream.Credentials{User: "secure", Password: "demo", BrowserKey: full.BrowserKey})
	if err != nil || again.TwoFactorAuthenticationRequired {
		t.Fatalf("SignIn with the browser key = %+v, %v; want no code", again, err)
	}
	if _, err := s.client.As(again.SessionKey).Folders(ctx); err != nil {
		t.Errorf("Folders after a remembered sign-in: %v", err)
	}
	if res, err := s.client.Login(ctx, "demo", "demo"); err != nil || res.BrowserKey != "" {
		t.Errorf("Login of demo = %+v, %v", res, err)
	}
	for _, key := range []string{"not-a-browser-key", strings.Repeat("A", 32)} {
		if res, err := s.client.SignIn(ctx, upstream.Credentials{User: "secure", Password: "demo", BrowserKey: key}); err != nil || !res.TwoFactorAuthenticationRequired {
			t.Errorf("SignIn with browser key %q = %+v, %v; want the code asked for", key, res, err)
		}
	}
	s.clock.Add(upstream.BrowserKeyLifetime)
	if res := s.pending(t); res.BrowserKey != "" {
		t.Errorf("pending answer carries a browser key: %+v", res)
	}
	expired, err := s.client.SignIn(ctx, upstream.Credentials{User: "secure", Password: "demo", BrowserKey: full.BrowserKey})
	if err != nil || !expired.TwoFactorAuthenticationRequired {
		t.Errorf("SignIn with a 30-day-old browser key = %+v, %v; want the code asked for", expired, err)
	}
}

func TestContractTwoFactorLockAndExpiry(t *testing.T) {
	ctx := context.Background()
	s := newStand(t, 2*time.Second)
	p := s.pending(t)
	code := s.otp(t, "secure")
	for i := 1; i < upstream.TwoFactorMaxAttempts; i++ {
		_, err := s.client.TwoFactorKey(ctx, p.SessionKey, wrong(code))
		expectKind(t, "wrong code", err, upstream.ErrTwoFactorCode, "InvalidTwoFactorKey")
	}
	_, err := s.client.TwoFactorKey(ctx, p.SessionKey, wrong(code))
	expectKind(t, "last wrong code", err, upstream.ErrTwoFactorLocked, "TwoFactorLocked")
	_, err = s.client.TwoFactorKey(ctx, p.SessionKey, code)
	expectKind(t, "right code after the lock", err, upstream.ErrTwoFactorLocked, "TwoFactorLocked")

	late := s.pending(t)
	code = s.otp(t, "secure")
	s.clock.Add(upstream.TwoFactorPendingLifetime)
	_, err = s.client.TwoFactorKey(ctx, late.SessionKey, code)
	expectKind(t, "code after five minutes", err, upstream.ErrTwoFactorExpired, "SessionExpired")
	_, err = s.client.TwoFactorKey(ctx, "01/01/2026 00:00:00 unknown", code)
	expectKind(t, "unknown pending key", err, upstream.ErrTwoFactorExpired, "InvalidSessionKey")
	if errors.Is(err, upstream.ErrSessionExpired) {
		t.Error("an expired sign-in is also ErrSessionExpired")
	}
}

func TestContractTwoFactorFailuresOnTheWire(t *testing.T) {
	ctx := context.Background()
	s := newStand(t, 150*time.Millisecond)
	p := s.pending(t)
	code := s.otp(t, "secure")

	s.sim.SetFaults(simulator.Faults{ErrorRate: 1, ErrorStatus: 500})
	_, err := s.client.TwoFactorKey(ctx, p.SessionKey, code)
	expectKind(t, "injected 500 on 2FAKey", err, upstream.ErrUnavailable, "")
	_, err = s.client.SignIn(ctx, upstream.Credentials{User: "secure", Password: "demo"})
	expectKind(t, "injected 500 on Login", err, upstream.ErrUnavailable, "")
	s.sim.SetFaults(simulator.Faults{Latency: 400 * time.Millisecond, ErrorStatus: 500})
	_, err = s.client.TwoFactorKey(ctx, p.SessionKey, code)
	expectKind(t, "timeout on 2FAKey", err, upstream.ErrUnavailable, "")
	s.sim.SetFaults(simulator.Faults{ErrorStatus: 500})

	truncate := func(b []byte) []byte { return b[:len(b)/2] }
	s.corrupt.Store(&truncate)
	_, err = s.client.SignIn(ctx, upstream.Credentials{User: "secure", Password: "demo"})
	expectKind(t, "truncated Login answer", err, upstream.ErrMalformed, "")
	// The stand-in (which never saw the timed-out call: the client gave
	// up first) takes the code; only its answer is lost on the way.
	_, err = s.client.TwoFactorKey(ctx, p.SessionKey, code)
	expectKind(t, "truncated 2FAKey answer", err, upstream.ErrMalformed, "")
	s.corrupt.Store(nil)
	if _, err := s.client.As(p.SessionKey).Folders(ctx); err != nil {
		t.Errorf("the key whose code was taken: %v", err)
	}
}
