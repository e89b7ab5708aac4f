// Package teamfigures works out the team's figures (every account of the
// record with its newest ledger line and the team's known scores, worked
// out into credit.Figures) whole, or, after a few writes, again for only
// the accounts those writes touched (store.TeamChanges). The handlers keep
// the result per team; see docs/team.md.
package teamfigures

import (
	"context"
	"maps"
	"slices"
	"strings"
	"unsafe"

	"creditdash/internal/credit"
	"creditdash/internal/store"
)

// maxReread is how many accounts an update reads again at most (a score
// of a business many accounts are linked to touches them all): past it,
// Whole is about as quick.
const maxReread = 2000

// Known are the team's known scores by business, as store.KnownScores
// reads them.
type Known = map[int32]map[store.Score]store.KnownScore

// Set is a team's figures at one version of its data, in account order
// (the pages' default and every sort's tie-break). A Set is shared by
// every page: read it, never change it; Next builds a new one.
type Set struct {
	// Version is the team's version read before the data, so the data
	// is at least as new.
	Version int64
	Figs    []credit.Figures
	// Bytes is about what the set holds, to weigh it in the cache.
	Bytes int
	// Lines is the version since which every account's line as the
	// exposure's bridge reads it (account, name, business, balance) is
	// the same: a bridge worked out at Lines or later still holds, if no
	// business's scores moved meanwhile.
	Lines int64
}

// Whole reads a ledger's accounts (the newest, with every account of the
// record, when asOf is "") and works out every account's figures.
func Whole(ctx context.Context, st *store.Store, a store.Analyst, asOf string, version int64, known Known) (*Set, error) {
	accts, err := st.Accounts(ctx, a, asOf)
	if err != nil {
		return nil, err
	}
	// Sorting small indexes is cheaper than sorting the large Figures.
	order := make([]int32, len(accts))
	for i := range order {
		order[i] = int32(i)
	}
	slices.SortFunc(order, func(x, y int32) int { return strings.Compare(accts[x].Account, accts[y].Account) })
	s := &Set{Version: version, Lines: version, Figs: make([]credit.Figures, len(accts))}
	s.Bytes = len(s.Figs) * int(unsafe.Sizeof(credit.Figures{}))
	for i, j := range order {
		s.Figs[i] = credit.NewFigures(accts[j], known[accts[j].BusinessID])
		s.Bytes += Weight(&s.Figs[i])
	}
	return s, nil
}

// Next is the newest ledger's figures at version (read before known and
// before this call), built from base: when the store can say what the
// writes since base touched, only those accounts are read and worked out
// again, into a new Set (base is left as it is, for the pages reading it);
// otherwise every account is (Whole). updated reports which. known must
// be at least as new as version.
func Next(ctx context.Context, st *store.Store, a store.Analyst, base *Set, version int64, known Known) (s *Set, updated bool, err error) {
	if base == nil || base.Version > version {
		s, err = Whole(ctx, st, a, "", version, known)
		return s, false, err
	}
	touched, ok, err := st.TeamChanges(ctx, a, base.Version, version)
	if err != nil {
		return nil, false, err
	}
	if !ok {
		s, err = Whole(ctx, st, a, "", version, known)
		return s, false, err
	}
	s, err = update(ctx, st, a, base, version, touched, known)
	return s, err == nil, err
}

// update is base with the touched accounts read and worked out again: an
// account a write touched by name, or by the business it was linked to.
// Reading the account's state now, rather than applying what changed, is
// what makes it safe to read an account twice.
func update(ctx context.Context, st *store.Store, a store.Analyst, base *Set, version int64, t store.Touched, known Known) (*Set, error) {
	keys := map[string]bool{}
	for _, k := range t.Accounts {
		keys[k] = true
	}
	if len(t.Businesses) > 0 {
		of := make(map[int32]bool, len(t.Businesses))
		for _, b := range t.Businesses {
			of[b] = true
		}
		for _, f := range base.Figs {
			if f.BusinessID != 0 && of[f.BusinessID] {
				keys[f.Account.Account] = true
			}
		}
	}
	if len(keys) > maxReread {
		return Whole(ctx, st, a, "", version, known)
	}
	s := &Set{Version: version, Figs: base.Figs, Bytes: base.Bytes, Lines: base.Lines}
	if len(keys) == 0 {
		return s, nil // nothing of the figures moved: the same slice serves
	}
	accts, err := st.AccountsByKey(ctx, a, slices.Collect(maps.Keys(keys)))
	if err != nil {
		return nil, err
	}
	fresh := make(map[string]credit.Figures, len(accts))
	for _, acct := range accts {
		fresh[acct.Account] = credit.NewFigures(acct, known[acct.BusinessID])
	}
	// The new slice: untouched accounts copied, touched ones replaced or
	// left out (gone from the record), new ones added in account order.
	figs := make([]credit.Figures, 0, len(base.Figs)+len(fresh))
	for _, f := range base.Figs {
		if !keys[f.Account.Account] {
			figs = append(figs, f)
			continue
		}
		s.Bytes -= int(unsafe.Sizeof(f)) + Weight(&f)
		g, ok := fresh[f.Account.Account]
		if !ok || !sameLine(&f, &g) {
			s.Lines = version
		}
		if ok {
			figs = append(figs, g)
			s.Bytes += int(unsafe.Sizeof(g)) + Weight(&g)
			delete(fresh, f.Account.Account)
		}
	}
	for _, g := range fresh {
		s.Lines = version
		i, _ := slices.BinarySearchFunc(figs, g.Account.Account, func(f credit.Figures, k string) int { return strings.Compare(f.Account.Account, k) })
		figs = slices.Insert(figs, i, g)
		s.Bytes += int(unsafe.Sizeof(g)) + Weight(&g)
	}
	s.Figs = figs
	return s, nil
}

// sameLine reports whether the bridge reads f and g alike.
func sameLine(f, g *credit.Figures) bool {
	return f.Account.Account == g.Account.Account && f.Name == g.Name && f.BusinessID == g.BusinessID && f.Balance == g.Balance
}

// Weight is about what one account's figures hold beyond their struct:
// texts, scores, saved inputs and the calculator's lines.
func Weight(f *credit.Figures) int {
	n := len(f.Account.Account) + len(f.Name) + len(f.CustomerID) + len(f.SupplierID) + len(f.Owner)
	for _, k := range []*store.KnownScore{f.Risk, f.Pay, f.DBT, f.Z} {
		if k != nil {
			n += int(unsafe.Sizeof(*k))
		}
	}
	if f.Inputs != nil {
		n += int(unsafe.Sizeof(*f.Inputs)) + len(f.Inputs.SavedBy) + 8
	}
	for _, c := range f.Calc.Caps {
		n += int(unsafe.Sizeof(c)) + len(c.Name) + len(c.Rationale)
	}
	for _, w := range f.Calc.Warnings {
		n += 16 + len(w)
	}
	if f.Account.Limit != nil {
		n += 8
	}
	if f.Terms != nil {
		n += 8
	}
	return n
}
