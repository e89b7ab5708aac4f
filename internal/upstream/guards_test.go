package upstream_test

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"creditdash/internal/upstream"
)

func TestParseIDTakesOnlyCanonicalPositiveIDs(t *testing.T) {
	for _, ok := range []string{"1", "1001", "2147483647"} {
		if ref, err := upstream.ParseID(ok); err != nil || ref.String() == "" {
			t.Errorf("ParseID(%q) = %v, %v; want accepted", ok, ref, err)
		}
	}
	for _, bad := range []string{"", "0", "-1", "+1001", "01001", " 1001", "1001 ", "2147483648", "1e3", "0x10"} {
		if _, err := upstream.ParseID(bad); !errors.Is(err, upstream.ErrInvalidReference) {
			t.Errorf("ParseID(%q): err = %v, want ErrInvalidReference", bad, err)
		}
	}
}

func TestPingCountsOnlyAnswersBelow500AsUp(t *testing.T) {
	for status, up := range map[int]bool{200: true, 403: true, 404: true, 500: false, 502: false, 503: false} {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(status) }))
		c, err := upstream.New(srv.URL, upstream.Options{Timeout: time.Second})
		if err != nil {
			t.Fatal(err)
		}
		err = c.Ping(context.Background())
		if (err == nil) != up {
			t.Errorf("Ping against a %d: err = %v, want up = %v", status, err, up)
		}
		if !up && !errors.Is(err, upstream.ErrUnavailable) {
			t.Errorf("Ping against a %d: err = %v, want ErrUnavailable", status, err)
		}
		srv.Close()
	}
}

// A service that trickles an export (a byte now and then, never idle long
// enough for the idle timer) is cut off once a window brings too little.
func TestTricklingDownloadIsAborted(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/csv")
		w.WriteHeader(http.StatusOK)
		for range 200 {
			if _, err := w.Write([]byte("x")); err != nil {
				return
			}
			w.(http.Flusher).Flush()
			time.Sleep(20 * time.Millisecond)
		}
	}))
	defer srv.Close()
	c, err := upstream.New(srv.URL, upstream.Options{Timeout: time.Second, MinDownloadRate: 1000,
		DownloadRateWindow: 200 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	dl, err := c.As("k").Download(context.Background(), upstream.DownloadQuery{})
	if err != nil {
		t.Fatal(err)
	}
	defer dl.Body.Close()
	n, err := io.Copy(io.Discard, dl.Body)
	if !errors.Is(err, upstream.ErrTooSlow) || n >= 200 {
		t.Errorf("trickling export: %d bytes, err %v; want it cut with ErrTooSlow", n, err)
	}
}

// Exports stream through their own connections: a page's call does not
// wait behind a download that holds the service, even with a pool of one.
func TestDownloadsDoNotHoldThePagesPool(t *testing.T) {
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasSuffix(r.URL.Path, "/Download") {
			w.WriteHeader(http.StatusOK)
			w.(http.Flusher).Flush()
			<-release
			return
		}
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"Success":true,"Data":[]}`)
	}))
	defer srv.Close()
	defer close(release)
	c, err := upstream.New(srv.URL, upstream.Options{Timeout: 2 * time.Second, MaxConns: 1, MaxDownloads: 2})
	if err != nil {
		t.Fatal(err)
	}
	for range 2 {
		dl, err := c.As("k").Download(context.Background(), upstream.DownloadQuery{})
		if err != nil {
			t.Fatal(err)
		}
		defer dl.Body.Close()
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	if _, err := c.As("k").Folders(ctx); err != nil {
		t.Errorf("a page's call while downloads hold the service: %v", err)
	}
}

// An absurd X-RateLimit-Reset is not believed past an hour.
func TestResetTimeIsCappedAtAnHour(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("X-RateLimit-Limit", "10")
		w.Header().Set("X-RateLimit-Remaining", "0")
		w.Header().Set("X-RateLimit-Reset", "200376000")
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusTooManyRequests)
		io.WriteString(w, `{"Success":false,"ErrorCode":"RateLimitExceeded","Data":"slow down"}`)
	}))
	defer srv.Close()
	c, err := upstream.New(srv.URL, upstream.Options{Timeout: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	var k lastQuota
	_, err = c.Kept("k", &k).Folders(context.Background())
	var ue *upstream.Error
	if seen := k.last; !errors.As(err, &ue) || ue.RetryAfter != time.Hour || seen.Reset != time.Hour {
		t.Errorf("reset of 200376000 s: RetryAfter %v, observed %v; want both an hour", ue.RetryAfter, seen.Reset)
	}
}
