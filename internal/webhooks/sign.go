// Package webhooks delivers the team's events (issue 46) to the endpoints
// a manager registered, as the Standard Webhooks specification has it:
// the outbox the store writes in each change's transaction is turned into
// deliveries, each sent by the job queue, signed with the endpoint's
// whsec_ secret, retried with exponential backoff for 24 hours, logged and
// replayable. Endpoints at private or loopback addresses are refused, at
// registration and again when a delivery dials, unless allowed.
package webhooks

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// secretPrefix starts every signing secret, as the specification names it.
const secretPrefix = "whsec_"

// NewSecret makes an endpoint's signing secret: whsec_ and 32 random bytes
// in standard base64.
func NewSecret() string {
	var b [32]byte
	_, _ = rand.Read(b[:]) // crypto/rand.Read never fails
	return secretPrefix + base64.StdEncoding.EncodeToString(b[:])
}

// key is the HMAC key of a secret: the base64-decoded part after whsec_.
func key(secret string) ([]byte, error) {
	k, err := base64.StdEncoding.DecodeString(strings.TrimPrefix(secret, secretPrefix))
	if err != nil || !strings.HasPrefix(secret, secretPrefix) || len(k) == 0 {
		return nil, errors.New("webhooks: not a whsec_ signing secret")
	}
	return k, nil
}

// Sign is the webhook-signature header of a message: "v1," and the
// base64 HMAC-SHA256 of "id.timestamp.body" keyed by the secret.
func Sign(secret, id string, ts time.Time, body []byte) (string, error) {
	k, err := key(secret)
	if err != nil {
		return "", err
	}
	m := hmac.New(sha256.New, k)
	fmt.Fprintf(m, "%s.%d.", id, ts.Unix())
	m.Write(body)
	return "v1," + base64.StdEncoding.EncodeToString(m.Sum(nil)), nil
}

// Verify checks a received message as a receiver should: its signature
// (any of the space-separated v1 ones) against the secret, and its
// timestamp within tolerance of now, so a captured message cannot be
// replayed much later.
func Verify(secret string, h http.Header, body []byte, now time.Time, tolerance time.Duration) error {
	id, tsText, sigs := h.Get("webhook-id"), h.Get("webhook-timestamp"), h.Get("webhook-signature")
	if id == "" || tsText == "" || sigs == "" {
		return errors.New("webhooks: a webhook-id, webhook-timestamp or webhook-signature header is missing")
	}
	sec, err := strconv.ParseInt(tsText, 10, 64)
	if err != nil {
		return errors.New("webhooks: the webhook-timestamp is not Unix seconds")
	}
	ts := time.Unix(sec, 0)
	if d := now.Sub(ts); d > tolerance || d < -tolerance {
		return errors.New("webhooks: the webhook-timestamp is too far from now")
	}
	want, err := Sign(secret, id, ts, body)
	if err != nil {
		return err
	}
	for _, s := range strings.Fields(sigs) {
		if hmac.Equal([]byte(s), []byte(want)) {
			return nil
		}
	}
	return errors.New("webhooks: no signature matches")
}
