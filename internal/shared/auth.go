package shared

import (
	"errors"
	"strings"
)

// ErrMisconfigured marks a start-up failure no retry mends: the server
// refused REDIS_URL's credentials.
var ErrMisconfigured = errors.New("shared: misconfigured")

// authRefused tells whether a connection failed on the credentials (a
// wrong or missing password, an unknown user) rather than on the network.
func authRefused(err error) bool {
	msg := err.Error()
	for _, s := range []string{"WRONGPASS", "NOAUTH", "invalid password", "called without any password configured", "invalid username-password"} {
		if strings.Contains(msg, s) {
			return true
		}
	}
	return false
}
