package digest

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"strings"
	"time"

	"creditdash/internal/store"
)

// Link kinds: a verification link proves the address reaches the
// analyst; an unsubscribe link turns the digest off without signing in.
const (
	KindVerify      = "verify"
	KindUnsubscribe = "unsubscribe"
)

// How long each link works.
const (
	VerifyLinkLife      = 24 * time.Hour
	UnsubscribeLinkLife = 60 * 24 * time.Hour
)

// ErrBadLink: a link that was altered, is of another kind, or expired.
var ErrBadLink = errors.New("digest: this link is not valid or has expired")

// ErrEarlierAddress: an unsubscribe link sent to an address the digest no
// longer goes to; it changes nothing.
var ErrEarlierAddress = errors.New("digest: this link was sent to an earlier address")

// Signer signs and checks links with a key derived from the session
// secret, so every replica checks what another signed.
type Signer struct{ key []byte }

// NewSigner derives the links' key from secret; a different purpose
// string keeps it apart from the cookie keys made from the same secret.
func NewSigner(secret string) *Signer {
	m := hmac.New(sha256.New, []byte(secret))
	m.Write([]byte("creditdash digest links v1"))
	return &Signer{key: m.Sum(nil)}
}

// claim is what a link carries: who, what for, until when.
type claim struct {
	Kind    string `json:"k"`
	Service string `json:"s"`
	User    string `json:"u"`
	Email   string `json:"e"`
	Expires int64  `json:"x"`
}

// Sign makes a link token of kind for the analyst and address, valid
// until expires.
func (s *Signer) Sign(kind string, a store.Analyst, email string, expires time.Time) string {
	b, _ := json.Marshal(claim{Kind: kind, Service: a.Service, User: a.User, Email: email, Expires: expires.Unix()})
	p := base64.RawURLEncoding.EncodeToString(b)
	return p + "." + base64.RawURLEncoding.EncodeToString(s.mac(p))
}

func (s *Signer) mac(payload string) []byte {
	m := hmac.New(sha256.New, s.key)
	m.Write([]byte(payload))
	return m.Sum(nil)
}

// Check returns the analyst and address a token of kind names, or
// ErrBadLink.
func (s *Signer) Check(kind, token string, now time.Time) (store.Analyst, string, error) {
	if len(token) > 4096 {
		return store.Analyst{}, "", ErrBadLink
	}
	p, sig, ok := strings.Cut(token, ".")
	if !ok {
		return store.Analyst{}, "", ErrBadLink
	}
	got, err := base64.RawURLEncoding.DecodeString(sig)
	if err != nil || !hmac.Equal(got, s.mac(p)) {
		return store.Analyst{}, "", ErrBadLink
	}
	b, err := base64.RawURLEncoding.DecodeString(p)
	if err != nil {
		return store.Analyst{}, "", ErrBadLink
	}
	var c claim
	if json.Unmarshal(b, &c) != nil || c.Kind != kind || now.Unix() > c.Expires {
		return store.Analyst{}, "", ErrBadLink
	}
	return store.Analyst{Service: c.Service, User: c.User}, c.Email, nil
}
