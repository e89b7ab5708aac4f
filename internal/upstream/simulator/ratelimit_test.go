package simulator

import (
	"net/http"
	"net/url"
	"strconv"
	"testing"
	"time"
)

func headerInt(t *testing.T, r apiReply, name string) int {
	t.Helper()
	v := r.header.Get(name)
	n, err := strconv.Atoi(v)
	if err != nil {
		t.Fatalf("%s = %q, want a number", name, v)
	}
	return n
}

func TestRateLimitOrdinary(t *testing.T) {
	h := newAPIHarness(t, Options{})
	key := h.login("ordinary")
	for i := 1; i <= 10; i++ {
		r := h.get(key, "/v1/Portfolio/Folders", nil)
		if r.status != 200 {
			t.Fatalf("call %d: status = %d", i, r.status)
		}
		if got := headerInt(t, r, "X-RateLimit-Limit"); got != 10 {
			t.Errorf("call %d: X-RateLimit-Limit = %d, want 10", i, got)
		}
		if got := headerInt(t, r, "X-RateLimit-Remaining"); got != 10-i {
			t.Errorf("call %d: X-RateLimit-Remaining = %d, want %d", i, got, 10-i)
		}
		if got := headerInt(t, r, "X-RateLimit-Reset"); got != 3600 {
			t.Errorf("call %d: X-RateLimit-Reset = %d, want 3600 (the clock stands still)", i, got)
		}
	}
	h.clock.Advance(20 * time.Minute)
	r := h.get(key, "/v1/Portfolio/Folders", nil)
	wantError(t, "11th call", r, http.StatusTooManyRequests, CodeRateLimitExceeded)
	if got := headerInt(t, r, "Retry-After"); got != 2400 {
		t.Errorf("Retry-After = %d, want 2400", got)
	}
	if got := headerInt(t, r, "X-RateLimit-Reset"); got != 2400 {
		t.Errorf("X-RateLimit-Reset = %d, want 2400", got)
	}
	if got := headerInt(t, r, "X-RateLimit-Remaining"); got != 0 {
		t.Errorf("X-RateLimit-Remaining = %d, want 0", got)
	}
	// Signing in again neither counts nor opens a new window.
	key = h.login("ordinary")
	wantError(t, "after a new sign-in", h.get(key, "/v1/Portfolio/Folders", nil), 429, CodeRateLimitExceeded)

	// One hour after the first counted call the quota renews.
	h.clock.Advance(40 * time.Minute)
	r = h.get(key, "/v1/Portfolio/Folders", nil)
	if r.status != 200 {
		t.Fatalf("after the hour: status = %d: %s", r.status, r.body)
	}
	if got := headerInt(t, r, "X-RateLimit-Remaining"); got != 9 {
		t.Errorf("after the hour: X-RateLimit-Remaining = %d, want 9", got)
	}
}

func TestRateLimitCountsFailedCalls(t *testing.T) {
	h := newAPIHarness(t, Options{})
	key := h.login("ordinary")
	r := h.get(key, "/v1/Business/Summary", url.Values{"id": {"abc"}})
	wantError(t, "bad id", r, 400, CodeInvalidParameter)
	if got := headerInt(t, r, "X-RateLimit-Remaining"); got != 9 {
		t.Errorf("after a 400: X-RateLimit-Remaining = %d, want 9", got)
	}
	r = h.get(key, "/v1/Business/Summary", url.Values{"id": {"999999"}})
	if got := headerInt(t, r, "X-RateLimit-Remaining"); got != 8 {
		t.Errorf("after a 404: X-RateLimit-Remaining = %d, want 8", got)
	}
	r = h.get(key, "/v1/Business/Nope", nil)
	wantError(t, "unknown path", r, 404, CodeNotFound)
	if got := headerInt(t, r, "X-RateLimit-Remaining"); got != 7 {
		t.Errorf("after an unknown path: X-RateLimit-Remaining = %d, want 7", got)
	}
}

func TestRateLimitByUserType(t *testing.T) {
	h := newAPIHarness(t, Options{})
	r := h.get(h.login("developer"), "/v1/Portfolio/Folders", nil)
	if got := headerInt(t, r, "X-RateLimit-Limit"); got != 200 {
		t.Errorf("developer: X-RateLimit-Limit = %d, want 200", got)
	}
	key := h.login("demo")
	for range 15 {
		r = h.get(key, "/v1/Portfolio/Folders", nil)
	}
	if r.status != 200 {
		t.Fatalf("demo: status = %d", r.status)
	}
	for _, name := range []string{"X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset", "Retry-After"} {
		if v := r.header.Get(name); v != "" {
			t.Errorf("unlimited user: %s = %q, want none", name, v)
		}
	}
}

func TestResetHookRenewsWindows(t *testing.T) {
	h := newAPIHarness(t, Options{})
	key := h.login("ordinary")
	for range 11 {
		h.get(key, "/v1/Portfolio/Folders", nil)
	}
	if r := h.do(http.MethodPost, "/_sim/reset", "", nil); r.status != 200 {
		t.Fatalf("reset: status = %d", r.status)
	}
	r := h.get(key, "/v1/Portfolio/Folders", nil)
	if r.status != 200 || headerInt(t, r, "X-RateLimit-Remaining") != 9 {
		t.Errorf("after reset: status = %d, remaining = %s", r.status, r.header.Get("X-RateLimit-Remaining"))
	}
}
