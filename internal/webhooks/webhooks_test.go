package webhooks

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"creditdash/internal/store"
)

// TestSignMatchesTheSpecification: the Standard Webhooks specification's
// own example signs to its published signature, and Verify accepts it
// within the tolerance and refuses it outside or altered.
func TestSignMatchesTheSpecification(t *testing.T) {
	const secret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"
	ts := time.Unix(1614265330, 0)
	body := []byte(`{"test": 2432232314}`)
	sig, err := Sign(secret, "msg_p5jXN8AQM9LWM0D4loKWxJek", ts, body)
	if err != nil || sig != "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=" {
		t.Fatalf("Sign = %q, %v", sig, err)
	}
	h := http.Header{}
	h.Set("webhook-id", "msg_p5jXN8AQM9LWM0D4loKWxJek")
	h.Set("webhook-timestamp", "1614265330")
	h.Set("webhook-signature", "v1,bm9ldmVu "+sig)
	if err := Verify(secret, h, body, ts.Add(time.Minute), 5*time.Minute); err != nil {
		t.Errorf("Verify: %v", err)
	}
	if Verify(secret, h, body, ts.Add(time.Hour), 5*time.Minute) == nil {
		t.Error("an old message verified")
	}
	if Verify(secret, h, []byte(`{"test": 1}`), ts, 5*time.Minute) == nil {
		t.Error("an altered body verified")
	}
	if s := NewSecret(); !strings.HasPrefix(s, "whsec_") || len(s) != len("whsec_")+44 || s == NewSecret() {
		t.Errorf("NewSecret = %q", s)
	}
}

// resolver answers every name with its addresses.
type resolver []netip.Addr

func (r resolver) LookupNetIP(context.Context, string, string) ([]netip.Addr, error) { return r, nil }

// TestCheckURL: public https addresses pass; a name resolving to any
// private address is refused, as are private literals, credentials and
// plain http; allowing private addresses lets loopback and http through.
func TestCheckURL(t *testing.T) {
	ctx := t.Context()
	public := resolver{netip.MustParseAddr("93.184.215.14")}
	mixed := resolver{netip.MustParseAddr("93.184.215.14"), netip.MustParseAddr("10.0.0.7")}
	for _, c := range []struct {
		url   string
		r     resolver
		allow bool
		ok    bool
	}{
		{"https://erp.example.com/hooks", public, false, true},
		{"https://93.184.215.14:8443/h", nil, false, true},
		{"https://erp.example.com/hooks", mixed, false, false},
		{"https://100.64.1.1/", nil, false, false},
		{"https://[fd00::1]/", nil, false, false},
		{"https://[fe80::1]/", nil, false, false},
		{"https://user:pw@erp.example.com/", public, false, false},
		{"http://erp.example.com/", public, false, false},
		{"ftp://erp.example.com/", public, true, false},
		{"/relative", public, true, false},
		{"http://127.0.0.1:8080/h", nil, true, true},
	} {
		_, err := CheckURL(ctx, c.url, c.allow, c.r)
		if (err == nil) != c.ok {
			t.Errorf("CheckURL(%q, allow %v) = %v, want ok %v", c.url, c.allow, err, c.ok)
		}
	}
}

// TestDialRefusesPrivate: a delivery to an address that is private when
// dialled (a name rebound after registration) is refused by the dialer
// and never reaches it; allowed, it does.
func TestDialRefusesPrivate(t *testing.T) {
	var hits atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		hits.Add(1)
		w.WriteHeader(http.StatusOK)
	}))
	defer srv.Close()
	d := store.Send{Delivery: store.Delivery{EventID: 7, URL: srv.URL}, Secret: NewSecret(), Body: []byte(`{}`)}
	_, err := New(Config{}).send(t.Context(), d)
	if !errors.Is(err, ErrPrivate) || hits.Load() != 0 {
		t.Fatalf("send to loopback: %v, %d hits", err, hits.Load())
	}
	code, err := New(Config{AllowPrivate: true}).send(t.Context(), d)
	if err != nil || code != http.StatusOK || hits.Load() != 1 {
		t.Fatalf("allowed: %d, %v, %d hits", code, err, hits.Load())
	}
}

// TestNoRedirectsAndBoundedAnswer: a redirect is a failed try (not
// followed), and a huge answer is not read to its end.
func TestNoRedirectsAndBoundedAnswer(t *testing.T) {
	var followed atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/moved":
			http.Redirect(w, r, "/elsewhere", http.StatusTemporaryRedirect)
		case "/elsewhere":
			followed.Add(1)
		default:
			w.WriteHeader(http.StatusAccepted)
			chunk := []byte(strings.Repeat("x", 1<<16))
			for range 1 << 10 { // 64 MiB, if anyone read it all
				if _, err := w.Write(chunk); err != nil {
					return
				}
			}
		}
	}))
	defer srv.Close()
	s := New(Config{AllowPrivate: true})
	d := store.Send{Delivery: store.Delivery{EventID: 7, URL: srv.URL + "/moved"}, Secret: NewSecret(), Body: []byte(`{}`)}
	if code, err := s.send(t.Context(), d); err == nil || code != http.StatusTemporaryRedirect || followed.Load() != 0 {
		t.Errorf("redirect: %d, %v, followed %d", code, err, followed.Load())
	}
	d.URL = srv.URL + "/big"
	if code, err := s.send(t.Context(), d); err != nil || code != http.StatusAccepted {
		t.Errorf("big answer: %d, %v", code, err)
	}
}

// TestBackoff doubles from the base up to the cap, and a 24-hour window
// holds over a dozen tries.
func TestBackoff(t *testing.T) {
	s := New(Config{})
	if s.backoff(1) != 5*time.Second || s.backoff(2) != 10*time.Second || s.backoff(30) != maxRetryWait {
		t.Fatalf("backoff 1, 2, 30 = %v, %v, %v", s.backoff(1), s.backoff(2), s.backoff(30))
	}
	var total time.Duration
	tries := 1
	for total+s.backoff(tries) <= DefaultWindow {
		total += s.backoff(tries)
		tries++
	}
	if tries < 12 || tries > maxTries {
		t.Errorf("%d tries in 24 hours", tries)
	}
}
