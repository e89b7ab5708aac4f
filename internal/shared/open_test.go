package shared_test

import (
	"errors"
	"net/url"
	"strings"
	"testing"

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
