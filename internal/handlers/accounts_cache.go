package handlers

import (
	"context"
	"unsafe"

	"github.com/maypok86/otter/v2"

	"creditdash/internal/credit"
	"creditdash/internal/store"
	"creditdash/internal/teamfigures"
)

// What the team's pages work out of its data (every account's figures, the
// bridge, the drift, the linked businesses) is kept per team under the
// team's version, which every team write in the store moves forward
// (store.TeamVersion). A page then costs one query of a single row plus
// its own sorting, filtering and paging over the kept figures, instead of
// reading and working out 50,000 accounts again: at that size the read
// alone was most of /accounts' 460 ms. A write on any replica moves the
// version, so no replica serves figures older than the data. Keys of older
// versions are never asked for again and go as the bound needs room.

// DefaultTeamCacheBytes bounds the team's kept figures when Config leaves
// it out: room for one 50,000-account ledger's figures and its bridge.
const DefaultTeamCacheBytes = 64 << 20

// teamKey names one kept result: the team, its version, what it is and
// of which ledger date(s).
type teamKey struct {
	team    string
	version int64
	kind    string
	arg     string
}

// teamEntry is a kept result and its weight.
type teamEntry struct {
	v     any
	bytes uint32
}

func newTeamCache(maxBytes uint64) (*otter.Cache[teamKey, teamEntry], error) {
	return otter.New(&otter.Options[teamKey, teamEntry]{
		MaximumWeight: maxBytes,
		Weigher:       func(_ teamKey, e teamEntry) uint32 { return e.bytes + 128 },
	})
}

// teamState is the team's version as one page read it, so every kept
// result the page uses is of the same version. keep is false when the
// handlers have no version to key by: every result is then worked out.
type teamState struct {
	a       store.Analyst
	version int64
	keep    bool
}

// teamNow reads the team's version for a page.
func (h *Handler) teamNow(ctx context.Context, a store.Analyst) (teamState, error) {
	v, err := h.store.TeamVersion(ctx, a)
	if err != nil {
		return teamState{}, err
	}
	return teamState{a: a, version: v, keep: true}, nil
}

// keptTeam is the result of load kept for the team's version, loaded once
// (concurrent pages wait for the same load) when not kept yet. load
// returns the result and its weight in bytes; a failed load is not kept.
// What load returns is shared by every page: read it, never change it.
func keptTeam[T any](ctx context.Context, h *Handler, ts teamState, kind, arg string, load func(ctx context.Context) (T, int, error)) (T, error) {
	if !ts.keep {
		v, _, err := load(ctx)
		return v, err
	}
	k := teamKey{team: ts.a.Service, version: ts.version, kind: kind, arg: arg}
	e, err := h.teamData.Get(ctx, k, otter.LoaderFunc[teamKey, teamEntry](func(ctx context.Context, _ teamKey) (teamEntry, error) {
		v, n, err := load(ctx)
		if err != nil {
			return teamEntry{}, err
		}
		return teamEntry{v: v, bytes: uint32(min(n, 1<<31))}, nil
	}))
	if err != nil {
		var zero T
		return zero, err
	}
	return e.v.(T), nil
}

// teamFigures are a ledger's accounts (the newest when asOf is "") with
// the team's known scores worked out into their figures, in account
// order: the pages' default and every sort's tie-break. The slice is
// shared: callers filter into a slice of their own.
func (h *Handler) teamFigures(ctx context.Context, a store.Analyst, asOf string) ([]credit.Figures, error) {
	ts, err := h.teamNow(ctx, a)
	if err != nil {
		return nil, err
	}
	return h.teamFiguresAt(ctx, ts, asOf)
}

// teamFiguresAt is teamFigures at the version a page read: the newest
// ledger's are kept one set a team and brought forward after writes
// (newestFigures); an older ledger's are worked out whole per version.
func (h *Handler) teamFiguresAt(ctx context.Context, ts teamState, asOf string) ([]credit.Figures, error) {
	if asOf == "" && ts.keep {
		return h.newestFigures(ctx, ts)
	}
	return keptTeam(ctx, h, ts, "figures", asOf, func(ctx context.Context) ([]credit.Figures, int, error) {
		h.figuresWorked.Add(1)
		known, err := h.store.KnownScores(ctx, ts.a)
		if err != nil {
			return nil, 0, err
		}
		set, err := teamfigures.Whole(ctx, h.store, ts.a, asOf, ts.version, known)
		if err != nil {
			return nil, 0, err
		}
		return set.Figs, set.Bytes, nil
	})
}

// knownScoresAt are the team's known scores by business, kept for the
// version a page read. The map is shared: read it, never change it.
func (h *Handler) knownScoresAt(ctx context.Context, ts teamState) (map[int32]map[store.Score]store.KnownScore, error) {
	return keptTeam(ctx, h, ts, "known", "", func(ctx context.Context) (map[int32]map[store.Score]store.KnownScore, int, error) {
		known, err := h.store.KnownScores(ctx, ts.a)
		// About a map of a few scores per business, and its entry.
		return known, len(known) * 256, err
	})
}

// accountsWeight is about what a few accounts hold: their structs, texts
// and saved inputs (a report's account tile keeps one business's).
func accountsWeight(accts []store.Account) int {
	n := len(accts) * int(unsafe.Sizeof(store.Account{}))
	for _, a := range accts {
		n += len(a.Account) + len(a.Name) + len(a.CustomerID) + len(a.SupplierID) + len(a.Owner) + len(a.AsOf)
		if a.Limit != nil {
			n += 8
		}
		if a.Terms != nil {
			n += 8
		}
		if a.Inputs != nil {
			n += int(unsafe.Sizeof(*a.Inputs)) + len(a.Inputs.SavedBy) + 8
		}
	}
	return n
}

// A report's small reads of the team (a business's accounts, a decider's
// requests waiting, a business found linked to no account) are kept under
// one key each, with the version they were read at: a newer version
// replaces the entry instead of adding one, so a team whose version moves
// often (every first statement year recorded moves it) does not pile up
// copies of older versions. They share the team's bound.

// latestEntry is a small read and the team's version it was read at.
type latestEntry struct {
	version int64
	v       any
}

// smallReadBytes is the weight of a small read beyond its own bytes: its
// key, entry and the cache's node.
const smallReadBytes = 256

// keptLatest is load's result for the team's version ts, read once per
// version; it is worked out each time when ts has no version.
func keptLatest[T any](ctx context.Context, h *Handler, ts teamState, kind, arg string, load func(ctx context.Context) (T, int, error)) (T, error) {
	if !ts.keep {
		v, _, err := load(ctx)
		return v, err
	}
	k := latestKey(ts, kind, arg)
	if v, ok := h.latestAt(k, ts); ok {
		return v.(T), nil
	}
	v, n, err := load(ctx)
	if err != nil {
		return v, err
	}
	h.keepLatest(k, ts, v, n)
	return v, nil
}

// latestKey keys a small read's latest entry: version -1, apart from
// keptTeam's entries per version.
func latestKey(ts teamState, kind, arg string) teamKey {
	return teamKey{team: ts.a.Service, version: -1, kind: kind, arg: arg}
}

// latestAt is the small read kept under k when it was read at the team's
// version ts.
func (h *Handler) latestAt(k teamKey, ts teamState) (any, bool) {
	if e, ok := h.teamData.GetIfPresent(k); ok {
		if l, ok := e.v.(latestEntry); ok && l.version == ts.version {
			return l.v, true
		}
	}
	return nil, false
}

// keepLatest keeps v, of about n bytes, as read at the team's version ts.
func (h *Handler) keepLatest(k teamKey, ts teamState, v any, n int) {
	h.teamData.Set(k, teamEntry{v: latestEntry{version: ts.version, v: v}, bytes: uint32(min(n+smallReadBytes, 1<<31))})
}
