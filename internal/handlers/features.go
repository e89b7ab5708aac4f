package handlers

import (
	"context"
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
	featureSearch  = "search"
	featureIdent   = "ident"   // IdentificationGroup
	featureMembers = "members" // Portfolio/Businesses
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
	noIdent, noMembers := !b.offered(user, featureIdent), !b.offered(user, featureMembers)
	if !noIdent && !noMembers {
		return func(r *cache.Reader) Source { return r }
	}
	return func(r *cache.Reader) Source { return gatedSource{Source: r, noIdent: noIdent, noMembers: noMembers} }
}

// gatedSource answers the operations a user's service lacks without a call.
type gatedSource struct {
	Source
	noIdent, noMembers bool
}

// errNotOffered stands for the service's 404 of an operation it lacks.
func errNotOffered(op string) error {
	return &upstream.Error{Op: op, Status: 404, Kind: upstream.ErrNotFound, Message: "not offered (remembered)"}
}

func (g gatedSource) IdentificationGroup(ctx context.Context, ref upstream.BusinessRef) (upstream.Identification, error) {
	if g.noIdent {
		return upstream.Identification{}, errNotOffered("Business/IdentificationGroup")
	}
	return g.Source.IdentificationGroup(ctx, ref)
}

func (g gatedSource) PortfolioBusinesses(ctx context.Context, folderID int) ([]upstream.PortfolioBusiness, error) {
	if g.noMembers {
		return nil, errNotOffered("Portfolio/Businesses")
	}
	return g.Source.PortfolioBusinesses(ctx, folderID)
}
