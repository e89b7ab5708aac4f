package applications

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"errors"
	"net/http"
	"strings"
	"time"

	"creditdash/internal/store"
)

// Link kinds: an application's own link, the team's public link and a
// reference's one-time link.
const (
	KindApplication = 'a'
	KindTeam        = 't'
	KindReference   = 'r'
)

// ErrBadLink: a link that was altered, is of another kind, or expired. A
// stranger learns nothing more from it, so links, teams and applications
// cannot be enumerated.
var ErrBadLink = errors.New("applications: this link is not valid or has expired")

// Signer signs and checks the links with a key derived from the session
// secret (every replica has the same); the purpose string keeps it apart
// from the cookie and digest keys made from that secret.
type Signer struct{ key []byte }

// NewSigner derives the links' key from secret.
func NewSigner(secret string) *Signer {
	m := hmac.New(sha256.New, []byte(secret))
	m.Write([]byte("creditdash application links v1"))
	return &Signer{key: m.Sum(nil)}
}

// Link is what a link names: an application or reference by id with the
// nonce the store keeps, or a team (its service) by its public link's
// nonce; until Expires (zero: while the store says it is on).
type Link struct {
	Kind    byte
	ID      int64
	Team    string
	Nonce   string
	Expires time.Time
}

// Sign makes the token of l: kind, id, expiry, nonce and team, then a
// MAC of them all, in URL-safe base64 (no padding).
func (s *Signer) Sign(l Link) string {
	var head [17]byte
	head[0] = l.Kind
	binary.BigEndian.PutUint64(head[1:9], uint64(l.ID))
	if !l.Expires.IsZero() {
		binary.BigEndian.PutUint64(head[9:17], uint64(l.Expires.Unix()))
	}
	p := base64.RawURLEncoding.EncodeToString(append(head[:], []byte(l.Nonce+"\x00"+l.Team)...))
	return p + "." + base64.RawURLEncoding.EncodeToString(s.mac(p)[:18])
}

func (s *Signer) mac(payload string) []byte {
	m := hmac.New(sha256.New, s.key)
	m.Write([]byte(payload))
	return m.Sum(nil)
}

// Check returns the link a token of kind names, or ErrBadLink: altered,
// of another kind, or expired at now.
func (s *Signer) Check(kind byte, token string, now time.Time) (Link, error) {
	if len(token) > 1024 {
		return Link{}, ErrBadLink
	}
	p, sig, ok := strings.Cut(token, ".")
	if !ok {
		return Link{}, ErrBadLink
	}
	got, err := base64.RawURLEncoding.DecodeString(sig)
	if err != nil || !hmac.Equal(got, s.mac(p)[:18]) {
		return Link{}, ErrBadLink
	}
	b, err := base64.RawURLEncoding.DecodeString(p)
	if err != nil || len(b) < 17 || b[0] != kind {
		return Link{}, ErrBadLink
	}
	l := Link{Kind: b[0], ID: int64(binary.BigEndian.Uint64(b[1:9]))}
	if x := int64(binary.BigEndian.Uint64(b[9:17])); x != 0 {
		l.Expires = time.Unix(x, 0).UTC()
		if !now.Before(l.Expires) {
			return Link{}, ErrBadLink
		}
	}
	l.Nonce, l.Team, _ = strings.Cut(string(b[17:]), "\x00")
	return l, nil
}

// ApplicationLink is the link of an application.
func (s *Signer) ApplicationLink(app store.Application) string {
	return s.Sign(Link{Kind: KindApplication, ID: app.ID, Nonce: app.Nonce, Expires: app.ExpiresAt})
}

// TeamLink is the team's public link with its nonce.
func (s *Signer) TeamLink(service, nonce string) string {
	return s.Sign(Link{Kind: KindTeam, Team: service, Nonce: nonce})
}

// ReferenceLink is a reference's one-time link.
func (s *Signer) ReferenceLink(r store.Reference) string {
	return s.Sign(Link{Kind: KindReference, ID: r.ID, Nonce: r.Nonce, Expires: r.ExpiresAt})
}

// Document types: what a file's first bytes say it is, and the only
// types kept.
var documentTypes = map[string]string{"application/pdf": "PDF", "image/png": "PNG", "image/jpeg": "JPEG"}

// DocumentType is a file's type by its content (net/http's sniffing of its
// first 512 bytes): "application/pdf", "image/png" or "image/jpeg", and
// false for anything else whatever its name says.
func DocumentType(data []byte) (string, bool) {
	t := http.DetectContentType(data)
	if i := strings.IndexByte(t, ';'); i >= 0 {
		t = t[:i]
	}
	_, ok := documentTypes[t]
	return t, ok
}

// DocumentLabel is a kept type as people name it: PDF, PNG or JPEG.
func DocumentLabel(contentType string) string { return documentTypes[contentType] }
