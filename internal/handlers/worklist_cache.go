package handlers

import (
	"context"
	"time"
	"unsafe"

	"creditdash/internal/credit"
	"creditdash/internal/store"
)

// The worklist is worked out of what the team keeps under its version
// (accounts_cache.go): the newest ledger's figures, in the worklist's
// order, with each account's latest review and statement year, and the
// pending requests. Reviews, statement years, owners, requests and
// decisions are all team writes (they move the version), so a page costs
// the version's one-row query and a pass over the kept accounts: which
// reasons hold depends on today and the reader, so that part is per page.

// workBase is the team's kept worklist input. Its slices are shared by
// every page: read them, never change them.
type workBase struct {
	// figs are the team's kept figures (teamFigures of the newest ledger);
	// order their indexes in the worklist's order (credit.WorkOrder).
	figs  []credit.Figures
	order []int32
	// last and years are per index of figs: the latest review (nil when
	// never reviewed) and the business's newest statement year (0 none).
	last  []*credit.LastReview
	years []int32
	// pending are the team's requests waiting for a decision.
	pending []store.PendingRequest
}

// teamWorkBase is the team's workBase at the version a page read.
func (h *Handler) teamWorkBase(ctx context.Context, ts teamState) (*workBase, error) {
	return keptTeam(ctx, h, ts, "worklist", "", func(ctx context.Context) (*workBase, int, error) {
		figs, err := h.teamFiguresAt(ctx, ts, "")
		if err != nil {
			return nil, 0, err
		}
		reviews, err := h.store.LastReviews(ctx, ts.a)
		if err != nil {
			return nil, 0, err
		}
		years, err := h.store.StatementYears(ctx, ts.a)
		if err != nil {
			return nil, 0, err
		}
		pending, err := h.store.PendingRequests(ctx, ts.a)
		if err != nil {
			return nil, 0, err
		}
		b := &workBase{figs: figs, order: credit.WorkOrder(figs), last: make([]*credit.LastReview, len(figs)),
			years: make([]int32, len(figs)), pending: pending}
		// The figures are weighed under their own key; this weighs the rest.
		bytes := len(figs)*(4+8+4) + len(pending)*int(unsafe.Sizeof(store.PendingRequest{}))
		for i := range figs {
			f := &figs[i]
			if r, ok := reviews[f.Account.Account]; ok {
				b.last[i] = &credit.LastReview{At: r.At, Band: r.Band, Over90: r.Over90, StatementYear: r.StatementYear,
					Outcome: r.Outcome, By: r.By, Note: r.Note}
				bytes += int(unsafe.Sizeof(credit.LastReview{}))
			}
			if f.BusinessID != 0 {
				b.years[i] = int32(years[f.BusinessID])
			}
		}
		for _, p := range pending {
			bytes += len(p.Account) + len(p.RequestedBy)
		}
		return b, bytes, nil
	})
}

// items are the accounts of b that need something as of now for user,
// who may decide pending requests of others up to authority, in the
// worklist's order.
func (b *workBase) items(now time.Time, user string, authority float64) []credit.WorkItem {
	var waiting map[string]int
	for _, p := range b.pending {
		if p.RequestedBy != user && p.Amount <= authority {
			if waiting == nil {
				waiting = map[string]int{}
			}
			waiting[p.Account]++
		}
	}
	var out []credit.WorkItem
	for _, i := range b.order {
		f := &b.figs[i]
		in := credit.WorkInputs{LastReview: b.last[i], StatementYear: int(b.years[i])}
		if waiting != nil {
			in.Waiting = waiting[f.Account.Account]
		}
		if w, ok := credit.NewWorkItem(f, in, now); ok {
			out = append(out, w)
		}
	}
	return out
}
