package shared_test

import (
	"strings"
	"testing"

	"creditdash/internal/shared"
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
