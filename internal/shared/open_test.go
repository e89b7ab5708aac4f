package shared_test

import (
	"errors"
	"net/url"
	"strings"
	"testing"
	"time"

	"creditdash/internal/shared"
	"creditdash/internal/shared/redistest"
)

// A REDIS_URL that cannot be read fails at start with what is wrong, never
// with the URL itself, which may hold a password.
func TestOpenRefusesABadURLWithoutQuotingIt(t *testing.T) {
	for _, bad := range []string{
		"redis://user:s3cretPW@127.0.0.1:notaport/0",
		"redis://user:s3cretPW%zz@127.0.0.1:6379/0",
		"ftp://user:s3cretPW@127.0.0.1:6379/0",
	} {
		st, err := shared.Open(bad, shared.Options{})
		if err == nil {
			st.Close()
			t.Errorf("Open(%q) succeeded", bad)
			continue
		}
		if strings.Contains(err.Error(), "s3cretPW") {
			t.Errorf("Open's error quotes the password: %v", err)
		}
		if !strings.Contains(err.Error(), "REDIS_URL") {
			t.Errorf("Open's error does not name REDIS_URL: %v", err)
		}
	}
}

// Credentials the server refuses are a misconfiguration, fatal at start
// and named so, never mistaken for an outage; the password is not quoted.
func TestOpenRefusedCredentialsAreFatal(t *testing.T) {
	u, err := url.Parse(redistest.URL(t))
	if err != nil {
		t.Fatal(err)
	}
	u.User = url.UserPassword("nobody-here", "s3cretPW")
	st, err := shared.Open(u.String(), shared.Options{})
	if err == nil {
		st.Close()
		t.Fatal("Open with refused credentials succeeded")
	}
	if !errors.Is(err, shared.ErrMisconfigured) || !strings.Contains(err.Error(), "REDIS_URL") || strings.Contains(err.Error(), "s3cretPW") {
		t.Errorf("Open error %q; want ErrMisconfigured naming REDIS_URL without the password", err)
	}
}

// Replicas say they are there; the set lists those heard of lately, and
// forgets one that stopped.
func TestReplicasSeen(t *testing.T) {
	url := redistest.URL(t)
	st, err := shared.Open(url, shared.Options{Prefix: "creditdash:test-replicas:" + t.Name() + ":", Timeout: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	ctx := t.Context()
	for _, name := range []string{"web1", "web2"} {
		if err := st.Heartbeat(ctx, name, time.Minute); err != nil {
			t.Fatal(err)
		}
	}
	got, err := st.Replicas(ctx, time.Minute)
	if err != nil || len(got) != 2 {
		t.Fatalf("Replicas = %v, %v; want web1 and web2", got, err)
	}
	time.Sleep(300 * time.Millisecond)
	if err := st.Heartbeat(ctx, "web2", 200*time.Millisecond); err != nil {
		t.Fatal(err)
	}
	got, err = st.Replicas(ctx, 200*time.Millisecond)
	if err != nil || len(got) != 1 || got[0].Name != "web2" || time.Since(got[0].LastSeen) > time.Second {
		t.Errorf("after web1 went quiet: %v, %v; want web2 alone", got, err)
	}
}
