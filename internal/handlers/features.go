package handlers

import (
	"time"

	"github.com/maypok86/otter/v2"

	"creditdash/internal/upstream"
	"creditdash/internal/upstream/cache"
)

// featureBook remembers, per user, the optional operations the service
// answered 404 for (Search, say), so the page stops offering them for a
// while. It is per user because access models differ, and it forgets, so
// one transient 404 hides nothing for long.
type featureBook struct {
	missing *otter.Cache[string, bool]
}

// Bounds of the book: how long a 404 is believed, and how many are kept.
const (
	featureMemory   = 10 * time.Minute
	maxFeatureMarks = 100_000
)

// The optional operations the book knows.
const (
	featureSearch  = upstream.OpSearch
	featureIdent   = upstream.OpIdentificationGroup
	featureMembers = upstream.OpPortfolioBusinesses
)

func newFeatureBook() *featureBook {
	c := otter.Must(&otter.Options[string, bool]{
		MaximumSize:      maxFeatureMarks,
		ExpiryCalculator: otter.ExpiryWriting[string, bool](featureMemory),
	})
	return &featureBook{missing: c}
}

// markMissing notes that the service said it lacks op for user.
func (b *featureBook) markMissing(user, op string) { b.missing.Set(user+"\x00"+op, true) }

// offered reports whether op may be offered to user.
func (b *featureBook) offered(user, op string) bool {
	_, missing := b.missing.GetIfPresent(user + "\x00" + op)
	return !missing
}

// gate returns how a page's reads are made for user: straight through the
// cache, or, for an operation the service lately said it lacks, answered
// "not found" without asking again.
func (b *featureBook) gate(user string) func(*cache.Reader) Source {
	var absent []string
	for _, op := range []string{featureIdent, featureMembers} {
		if !b.offered(user, op) {
			absent = append(absent, op)
		}
	}
	return func(r *cache.Reader) Source { return r.User.Without(absent...) }
}
