package handlers

import (
	"crypto/rand"
	"encoding/hex"
	"time"

	"github.com/maypok86/otter/v2"

	"creditdash/internal/store"
)

// A ledger file is previewed before it is imported; the preview's forms
// (a new column mapping, the import itself) name the upload by a token
// instead of sending the file again. Each analyst has at most one upload
// waiting, for uploadLife, and all of them together at most uploadBytes:
// past that the least recently used go, and their preview asks for the
// file again. Uploads live in this process: behind several replicas
// without sticky sessions, a preview's import may land on another replica
// and ask for the file again, which costs a click, never a wrong import.

// Bounds of the waiting uploads.
const (
	uploadLife  = 30 * time.Minute
	uploadBytes = 200 << 20
)

// upload is one analyst's file awaiting import.
type upload struct {
	token string
	name  string
	data  []byte
}

// uploads keeps each analyst's waiting upload.
type uploads struct {
	c *otter.Cache[store.Analyst, *upload]
}

func newUploads() (*uploads, error) {
	c, err := otter.New(&otter.Options[store.Analyst, *upload]{
		MaximumWeight:    uploadBytes,
		Weigher:          func(_ store.Analyst, u *upload) uint32 { return uint32(len(u.data) + len(u.name) + 64) },
		ExpiryCalculator: otter.ExpiryWriting[store.Analyst, *upload](uploadLife),
	})
	if err != nil {
		return nil, err
	}
	return &uploads{c: c}, nil
}

// keep replaces the analyst's waiting upload and returns its token.
func (u *uploads) keep(a store.Analyst, name string, data []byte) *upload {
	var b [16]byte
	_, _ = rand.Read(b[:])
	up := &upload{token: hex.EncodeToString(b[:]), name: name, data: data}
	u.c.Set(a, up)
	return up
}

// get is the analyst's waiting upload if token names it.
func (u *uploads) get(a store.Analyst, token string) (*upload, bool) {
	up, ok := u.c.GetIfPresent(a)
	if !ok || token == "" || up.token != token {
		return nil, false
	}
	return up, true
}

// drop forgets the analyst's upload once imported.
func (u *uploads) drop(a store.Analyst) { u.c.Invalidate(a) }
