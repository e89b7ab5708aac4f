package handlers

import (
	"context"
	"errors"

	"creditdash/internal/credit"
	"creditdash/internal/teamfigures"
	"creditdash/internal/views"
)

// The newest ledger's figures are kept one set a team (the newest the
// process worked out), weighed in the team's share of the cache. A page at
// a version the set is behind brings it forward: the accounts the writes
// since touched are read and worked out again into a new set, which then
// replaces the kept one (pages still reading the old set keep it whole),
// whichever replica wrote (the store logs every write, team_changes.go);
// imports, restores and writes that touched many accounts work out every
// account again (teamfigures.Next). One bringing-forward runs at a time
// per team, and every page waiting for it takes its result, so a flood of
// writes never works out more than one set at once
// (TestFiguresWorkedOutOnceAtATime).

// newestFigures are the newest ledger's figures at least as new as the
// version the page read. A set newer than the page's version may serve it:
// it holds the page's writes and more.
func (h *Handler) newestFigures(ctx context.Context, ts teamState) ([]credit.Figures, error) {
	set, err := h.newestSet(ctx, ts)
	if err != nil {
		return nil, err
	}
	return set.Figs, nil
}

// newestSet is newestFigures with the set's versions.
func (h *Handler) newestSet(ctx context.Context, ts teamState) (*teamfigures.Set, error) {
	k := latestKey(ts, "figures", "")
	// A second round only when the page joined a bringing-forward that
	// began before the page read its version; one begun after reads a
	// version at least as new, so two rounds suffice (three for safety).
	for range 3 {
		if set := h.figuresKept(k); set != nil && set.Version >= ts.version {
			return set, nil
		}
		// The first page's cancellation must not fail the others waiting;
		// the store bounds each read.
		v, err, _ := h.figuring.Do(ts.a.Service, func() (any, error) {
			return h.bringForward(context.WithoutCancel(ctx), ts, k)
		})
		if err != nil {
			return nil, err
		}
		if set := v.(*teamfigures.Set); set.Version >= ts.version {
			return set, nil
		}
	}
	return nil, errors.New("handlers: the team's figures stayed behind the version read")
}

// bringForward brings the kept set to the team's version now and keeps it.
func (h *Handler) bringForward(ctx context.Context, ts teamState, k teamKey) (*teamfigures.Set, error) {
	now, err := h.teamNow(ctx, ts.a)
	if err != nil {
		return nil, err
	}
	base := h.figuresKept(k)
	if base != nil && base.Version >= now.version {
		return base, nil
	}
	known, err := h.knownScoresAt(ctx, now)
	if err != nil {
		return nil, err
	}
	set, updated, err := teamfigures.Next(ctx, h.store, ts.a, base, now.version, known)
	if err != nil {
		return nil, err
	}
	if updated {
		h.figuresUpdated.Add(1)
	} else {
		h.figuresWorked.Add(1)
	}
	h.teamData.Set(k, teamEntry{v: set, bytes: uint32(min(set.Bytes, 1<<31))})
	return set, nil
}

// keptBridge is the exposure's bridge of arg (its two dates) for the
// version d read: the one kept, when it was worked out at this version or
// at an older one since which neither the newest ledger's lines the bridge
// reads (set.Lines) nor any business's scores moved (a limit decided, an
// owner changed, inputs saved, a review); otherwise load's, kept.
func (h *Handler) keptBridge(ctx context.Context, d *exposureData, arg string, load func(ctx context.Context) (*views.BridgeView, error)) (*views.BridgeView, error) {
	ts := d.team
	if !ts.keep || d.set == nil {
		return load(ctx)
	}
	k := latestKey(ts, "bridge", arg)
	if e, ok := h.teamData.GetIfPresent(k); ok {
		if l, ok := e.v.(latestEntry); ok && l.version <= ts.version {
			if l.version == ts.version {
				return l.v.(*views.BridgeView), nil
			}
			if t, ok, err := h.store.TeamChanges(ctx, ts.a, l.version, ts.version); err == nil && ok && len(t.Businesses) == 0 && d.set.Lines <= l.version {
				h.keepLatest(k, ts, l.v, bridgeBytes)
				return l.v.(*views.BridgeView), nil
			}
		}
	}
	b, err := load(ctx)
	if err != nil {
		return nil, err
	}
	h.keepLatest(k, ts, b, bridgeBytes)
	return b, nil
}

// bridgeBytes is about what a bridge holds: a few lines of figures.
const bridgeBytes = 4096

// figuresKept is the team's kept set, nil when there is none.
func (h *Handler) figuresKept(k teamKey) *teamfigures.Set {
	if e, ok := h.teamData.GetIfPresent(k); ok {
		if set, ok := e.v.(*teamfigures.Set); ok {
			return set
		}
	}
	return nil
}
