package upstream_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
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
