package credit

import (
	"cmp"
	"math"
	"slices"
	"time"

	"creditdash/internal/store"
)

// The refresh plan: which of the team's linked businesses an analyst's
// hourly requests are best spent on. A business's priority is its
// accounts' expected loss × the days since its known scores were fetched ×
// (1 + how far its Risk moved over the last MovementMonths months). The
// "1 +" keeps a steady business in the ranking: without it, a business
// whose Risk never moved would never be refreshed however stale. A
// business never fetched has no expected loss to weigh and comes first,
// largest exposure first: nothing at all is known of it.

// RefreshFresh is how recent a fetch counts toward the plan's coverage.
const RefreshFresh = 7 * 24 * time.Hour

// MovementMonths is how far back "recent movement" looks.
const MovementMonths = 3

// RefreshCandidate is one linked business as the plan weighs it.
type RefreshCandidate struct {
	BusinessID int32
	// Name is its first account's name; Accounts how many of the ledger's
	// accounts link to it.
	Name     string
	Accounts int
	Exposure float64
	// EL is the accounts' expected loss; ELOK false without a Risk band.
	EL   float64
	ELOK bool
	// Fetched is when its newest known score was fetched; zero: never.
	Fetched   time.Time
	StaleDays float64
	// Movement is how many Risk points its score moved over the last
	// MovementMonths months (0 when the team knows no earlier month).
	Movement float64
	Priority float64
}

// Never reports a business whose scores the team never fetched.
func (rc RefreshCandidate) Never() bool { return rc.Fetched.IsZero() }

// newestFetch is when the newest of the account's known scores was
// fetched; zero when none is known.
func newestFetch(f Figures) time.Time {
	var t time.Time
	for _, k := range []*store.KnownScore{f.Risk, f.Pay, f.DBT, f.Z} {
		if k != nil && k.Fetched.After(t) {
			t = k.Fetched
		}
	}
	return t
}

// RankRefresh weighs the linked businesses of a ledger's accounts and
// orders them, the first to refresh first. riskThen is each business's
// Risk MovementMonths months ago as the team knows it.
func RankRefresh(figs []Figures, riskThen map[int32]float64, now time.Time) []RefreshCandidate {
	at := map[int32]int{}
	var out []RefreshCandidate
	for _, f := range figs {
		if !f.Linked() {
			continue
		}
		i, ok := at[f.BusinessID]
		if !ok {
			i = len(out)
			at[f.BusinessID] = i
			rc := RefreshCandidate{BusinessID: f.BusinessID, Name: f.Name, Fetched: newestFetch(f), ELOK: f.ELOK}
			if !rc.Never() {
				rc.StaleDays = max(now.Sub(rc.Fetched).Hours()/24, 0)
			}
			if then, ok := riskThen[f.BusinessID]; ok && f.Risk != nil {
				rc.Movement = math.Abs(f.Risk.Value - then)
			}
			out = append(out, rc)
		}
		rc := &out[i]
		if rc.Name == "" {
			// The first account may have no name in the ledger; another
			// of the same business may.
			rc.Name = f.Name
		}
		rc.Accounts++
		rc.Exposure += Exposure(f.Balance)
		rc.EL += f.EL
	}
	for i := range out {
		if rc := &out[i]; rc.ELOK {
			rc.Priority = rc.EL * rc.StaleDays * (1 + rc.Movement)
		}
	}
	slices.SortStableFunc(out, func(a, b RefreshCandidate) int {
		if a.Never() != b.Never() {
			if a.Never() {
				return -1
			}
			return 1
		}
		if a.Never() {
			return cmp.Or(cmp.Compare(b.Exposure, a.Exposure), cmp.Compare(a.BusinessID, b.BusinessID))
		}
		return cmp.Or(cmp.Compare(b.Priority, a.Priority), cmp.Compare(b.EL, a.EL),
			cmp.Compare(b.StaleDays, a.StaleDays), cmp.Compare(a.BusinessID, b.BusinessID))
	})
	return out
}

// ScoreCoverage is the share of a ledger's exposure whose scores were fetched
// within RefreshFresh.
type ScoreCoverage struct {
	Total, Fresh, Unlinked  float64
	Accounts, FreshAccounts int
}

// Share is Fresh over Total (0 with no exposure).
func (c ScoreCoverage) Share() float64 {
	if c.Total <= 0 {
		return 0
	}
	return c.Fresh / c.Total
}

// NewScoreCoverage counts a ledger's exposure by how recently its scores were
// fetched. Unlinked accounts count in the total (the team is owed their
// money too) but can never be fresh until linked.
func NewScoreCoverage(figs []Figures, now time.Time) ScoreCoverage {
	var c ScoreCoverage
	for _, f := range figs {
		e := Exposure(f.Balance)
		c.Total += e
		c.Accounts++
		switch t := newestFetch(f); {
		case !f.Linked():
			c.Unlinked += e
		case !t.IsZero() && now.Sub(t) <= RefreshFresh:
			c.Fresh += e
			c.FreshAccounts++
		}
	}
	return c
}
