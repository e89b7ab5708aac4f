package upstream

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// fakeService answers every request with handler and counts them.
func fakeService(t *testing.T, handler http.HandlerFunc) (*Client, *atomic.Int32) {
	t.Helper()
	var n atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n.Add(1)
		handler(w, r)
	}))
	t.Cleanup(srv.Close)
	c, err := New(srv.URL, Options{Timeout: 2 * time.Second, MaxBodyBytes: 1 << 16})
	if err != nil {
		t.Fatal(err)
	}
	return c, &n
}

func answer(status int, body string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		io.WriteString(w, body)
	}
}

func TestNewRefusesBadURLs(t *testing.T) {
	for _, u := range []string{"", "ftp://x", "localhost:8080", "http://", "::"} {
		if _, err := New(u, Options{}); err == nil {
			t.Errorf("New(%q): no error", u)
		}
	}
}

func TestLoginAcceptsObjectOrBareString(t *testing.T) {
	const key = "11/21/2026 09:15:02 Q3v9abcdefghijklmnopqrstuvwxyz12"
	for name, body := range map[string]string{
		"object": `{"Success":true,"Data":{"SessionKey":"` + key + `","Username":"demo","SessionId":7,"TwoFactorAuthenticationRequired":false,"Key":""}}`,
		"string": `{"Success":true,"Data":"` + key + `"}`,
	} {
		t.Run(name, func(t *testing.T) {
			c, _ := fakeService(t, func(w http.ResponseWriter, r *http.Request) {
				if r.Method != http.MethodPost || r.FormValue("Username") != "demo" || r.FormValue("Password") != "pw" {
					t.Errorf("login request: %s Username=%q", r.Method, r.FormValue("Username"))
				}
				answer(200, body)(w, r)
			})
			res, err := c.Login(context.Background(), "demo", "pw")
			if err != nil || res.SessionKey != key || res.Username != "demo" {
				t.Errorf("Login = %+v, %v", res, err)
			}
		})
	}
}

func TestLoginTwoFactorIsRefusedClearly(t *testing.T) {
	c, _ := fakeService(t, answer(200, `{"Success":true,"Data":{"SessionKey":"k","TwoFactorAuthenticationRequired":true}}`))
	_, err := c.Login(context.Background(), "a", "b")
	if !errors.Is(err, ErrTwoFactorRequired) {
		t.Errorf("err = %v, want ErrTwoFactorRequired", err)
	}
}

func TestBearerKeyWithSpacesAndSlashesIsSentVerbatim(t *testing.T) {
	const key = "11/21/2026 09:15:02 Q3v9/x+y=="
	c, _ := fakeService(t, func(w http.ResponseWriter, r *http.Request) {
		if got := r.Header.Get("Authorization"); got != "Bearer "+key {
			t.Errorf("Authorization = %q", got)
		}
		if r.URL.Query().Get("type") != "json" || r.URL.Query().Get("id") != "1001" {
			t.Errorf("query = %q", r.URL.RawQuery)
		}
		answer(200, `{"Success":true,"Data":{"Text":"hello"}}`)(w, r)
	})
	got, err := c.As(key).WordFill(context.Background(), ByID(1001))
	if err != nil || got.Text != "hello" {
		t.Errorf("WordFill = %+v, %v", got, err)
	}
}

func TestErrorsAreTyped(t *testing.T) {
	cases := []struct {
		name    string
		status  int
		body    string
		header  map[string]string
		kind    error
		code    string
		message string
		retry   time.Duration
	}{
		{"bad request", 400, `{"Success":false,"Data":"id is not a number","ErrorCode":"InvalidParameter"}`, nil, ErrBadRequest, "InvalidParameter", "id is not a number", 0},
		{"expired", 403, `{"Success":false,"Data":"Session expired.","ErrorCode":"SessionExpired"}`, nil, ErrSessionExpired, "SessionExpired", "Session expired.", 0},
		{"invalid key", 403, `{"Success":false,"Data":"Unknown key.","ErrorCode":"InvalidSessionKey"}`, nil, ErrSessionExpired, "InvalidSessionKey", "Unknown key.", 0},
		{"not found", 404, `{"Success":false,"Data":"No business 999999.","ErrorCode":"BusinessNotFound"}`, nil, ErrNotFound, "BusinessNotFound", "No business 999999.", 0},
		{"rate limited", 429, `{"Success":false,"Data":"Limit reached.","ErrorCode":"RateLimitExceeded"}`, map[string]string{"Retry-After": "1380", "X-RateLimit-Reset": "1380"}, ErrRateLimited, "RateLimitExceeded", "Limit reached.", 23 * time.Minute},
		{"rate limited, reset only", 429, `{}`, map[string]string{"X-RateLimit-Reset": "60"}, ErrRateLimited, "", "", time.Minute},
		{"server error", 500, `{"Success":false,"Data":"Boom.","ErrorCode":"InternalError"}`, nil, ErrUnavailable, "InternalError", "Boom.", 0},
		{"bad gateway html", 502, `<html>proxy</html>`, nil, ErrUnavailable, "", "", 0},
		{"success false on 200, known code", 200, `{"Success":false,"Data":"No such business.","ErrorCode":"BusinessNotFound"}`, nil, ErrNotFound, "BusinessNotFound", "No such business.", 0},
		{"success false on 200, unknown code", 200, `{"Success":false,"Data":"Odd.","ErrorCode":"Weird"}`, nil, ErrMalformed, "Weird", "Odd.", 0},
		{"malformed body", 200, `{"Success":tru`, nil, ErrMalformed, "", "", 0},
		{"data of the wrong shape", 200, `{"Success":true,"Data":"not an object"}`, nil, ErrMalformed, "", "", 0},
		{"too large", 200, `{"Success":true,"Data":{"Text":"` + strings.Repeat("x", 1<<17) + `"}}`, nil, ErrMalformed, "", "", 0},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c, _ := fakeService(t, func(w http.ResponseWriter, r *http.Request) {
				for k, v := range tc.header {
					w.Header().Set(k, v)
				}
				answer(tc.status, tc.body)(w, r)
			})
			_, err := c.As("key").WordFill(context.Background(), ByID(1))
			var ue *Error
			if !errors.As(err, &ue) || !errors.Is(err, tc.kind) {
				t.Fatalf("err = %v, want an *Error of kind %v", err, tc.kind)
			}
			if ue.Op != "Business/WordFill" || ue.Code != tc.code || ue.Message != tc.message || ue.RetryAfter != tc.retry {
				t.Errorf("err = %+v", ue)
			}
			if !strings.Contains(err.Error(), "Business/WordFill") {
				t.Errorf("error %q does not name the operation", err)
			}
		})
	}
}

func TestWrongCredentialsAreTheirOwnKind(t *testing.T) {
	c, _ := fakeService(t, answer(403, `{"Success":false,"Data":"The user name or password is wrong.","ErrorCode":"InvalidCredentials"}`))
	_, err := c.Login(context.Background(), "a", "b")
	var ue *Error
	if !errors.Is(err, ErrInvalidCredentials) || !errors.As(err, &ue) || ue.Message != "The user name or password is wrong." {
		t.Errorf("err = %v", err)
	}
}

func TestTimeoutAndRefusedConnectionAreUnavailable(t *testing.T) {
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-release:
		case <-r.Context().Done():
		}
	}))
	defer srv.Close()
	defer close(release)
	c, _ := New(srv.URL, Options{Timeout: 100 * time.Millisecond})
	start := time.Now()
	_, err := c.As("k").Summary(context.Background(), ByID(1))
	if !errors.Is(err, ErrUnavailable) {
		t.Errorf("slow service: err = %v, want ErrUnavailable", err)
	}
	if time.Since(start) > 5*time.Second {
		t.Errorf("the timeout did not stop the call")
	}

	ln, _ := net.Listen("tcp", "127.0.0.1:0")
	addr := ln.Addr().String()
	ln.Close()
	c, _ = New("http://"+addr, Options{Timeout: time.Second})
	if _, err := c.As("k").Summary(context.Background(), ByID(1)); !errors.Is(err, ErrUnavailable) {
		t.Errorf("refused connection: err = %v, want ErrUnavailable", err)
	}
}

func TestInvalidReferencesAreRefusedBeforeAnyRequest(t *testing.T) {
	c, n := fakeService(t, answer(200, `{"Success":true,"Data":[]}`))
	refs := []BusinessRef{{}, ByID(0), ByID(-5), ByCustomerID(""), BySupplierID("a b"), BySupplierID(strings.Repeat("x", 65)), ByCustomerID("x\n")}
	for _, ref := range refs {
		if _, err := c.As("k").Officers(context.Background(), ref); !errors.Is(err, ErrInvalidReference) {
			t.Errorf("Officers(%v): err = %v, want ErrInvalidReference", ref, err)
		}
	}
	if n.Load() != 0 {
		t.Errorf("%d requests were sent for invalid references", n.Load())
	}
}

func TestQuotaHeadersReachTheKeeper(t *testing.T) {
	c, _ := fakeService(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("X-RateLimit-Limit", "10")
		w.Header().Set("X-RateLimit-Remaining", "7")
		w.Header().Set("X-RateLimit-Reset", "1380")
		answer(200, `{"Success":true,"Data":[]}`)(w, r)
	})
	keep := &quotaKeeper{}
	if _, err := c.Kept("k", keep).Folders(context.Background()); err != nil {
		t.Fatal(err)
	}
	got := keep.seen
	if len(got) != 1 || got[0].Limit != 10 || got[0].Remaining != 7 || got[0].Reset != 23*time.Minute {
		t.Fatalf("observed %+v", got)
	}
	if d := time.Until(got[0].RenewsAt()); d < 22*time.Minute || d > 24*time.Minute {
		t.Errorf("RenewsAt in %v, want about 23 min", d)
	}
}

// quotaKeeper is a keeper that keeps nothing and notes the quotas the
// answers reported.
type quotaKeeper struct {
	mu   sync.Mutex
	seen []RateLimit
}

func (k *quotaKeeper) Read(ctx context.Context, _ Request, _ any, fetch Fetch) error {
	a, err := fetch.Do(ctx, false)
	k.note(a)
	return err
}

func (k *quotaKeeper) Spend(ctx context.Context, _ string, call func(context.Context) (Answer, error)) error {
	a, err := call(ctx)
	k.note(a)
	return err
}

func (k *quotaKeeper) note(a Answer) {
	if a.HasQuota {
		k.mu.Lock()
		k.seen = append(k.seen, a.Quota)
		k.mu.Unlock()
	}
}

func TestNoQuotaHeadersMeansNoReport(t *testing.T) {
	c, _ := fakeService(t, answer(200, `{"Success":true,"Data":[]}`))
	keep := &quotaKeeper{}
	_, err := c.Kept("k", keep).Folders(context.Background())
	if called := len(keep.seen) > 0; err != nil || called {
		t.Errorf("err %v, observer called %v; want no report for an unlimited account", err, called)
	}
}

func TestRedirectsAreNotFollowed(t *testing.T) {
	var hits atomic.Int32
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
	}))
	defer other.Close()
	c, _ := fakeService(t, func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, other.URL, http.StatusFound)
	})
	if _, err := c.As("k").Folders(context.Background()); err == nil {
		t.Error("a redirect was taken as success")
	}
	if hits.Load() != 0 {
		t.Error("the client followed a redirect with the session key")
	}
}
