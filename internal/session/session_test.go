package session

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// seal saves s with store and returns the cookies a browser would send back.
func seal(t *testing.T, store *Store, s Session) []*http.Cookie {
	t.Helper()
	rec := httptest.NewRecorder()
	if err := store.Save(rec, httptest.NewRequest(http.MethodGet, "/", nil), s); err != nil {
		t.Fatal(err)
	}
	return rec.Result().Cookies()
}

// with is a new request carrying cookies: the session library caches what
// it decoded on the request, so each reading needs a request of its own.
func with(cookies []*http.Cookie) *http.Request {
	r := httptest.NewRequest(http.MethodGet, "/", nil)
	for _, c := range cookies {
		r.AddCookie(c)
	}
	return r
}

func TestSessionSecretsRotate(t *testing.T) {
	old, next := strings.Repeat("o", 40), strings.Repeat("n", 40)
	before, _ := NewStore([]string{old}, true, time.Hour)
	after, _ := NewStore([]string{next, old}, true, time.Hour)
	retired, _ := NewStore([]string{next}, true, time.Hour)
	want := Session{Key: "11/21/2026 09:15:02 abc/def", User: "demo", SignedInAt: time.Unix(1_800_000_000, 0), CSRF: "per-session secret"}

	sealed := seal(t, before, want)
	got, ok := after.Load(with(sealed))
	if !ok || got != want {
		t.Errorf("a cookie sealed with the old secret, read with [new, old]: %+v, %v", got, ok)
	}
	if _, ok := retired.Load(with(sealed)); ok {
		t.Error("a cookie sealed with a retired secret still opens")
	}
	if _, ok := before.Load(with(seal(t, after, want))); ok {
		t.Error("new cookies must be sealed with the newest secret")
	}
}

func TestSessionCookieIsEncrypted(t *testing.T) {
	store, _ := NewStore([]string{strings.Repeat("s", 40)}, true, time.Hour)
	for _, c := range seal(t, store, Session{Key: "SECRET-SESSION-KEY", User: "demo", SignedInAt: time.Now()}) {
		if strings.Contains(c.Value, "SECRET") || strings.Contains(c.Value, "demo") {
			t.Errorf("the cookie shows its contents: %q", c.Value)
		}
	}
}

func TestShortSecretsAreRefused(t *testing.T) {
	if _, err := NewStore([]string{"short"}, true, time.Hour); err == nil {
		t.Error("a short secret was accepted")
	}
	if _, err := NewStore(nil, true, time.Hour); err == nil {
		t.Error("no secret was accepted")
	}
}
