package validation

import (
	"context"
	"math"
	"sort"
	"time"

	"creditdash/internal/credit"
	"creditdash/internal/policy"
	"creditdash/internal/store"
)

// limitBook is each account's dated limits: what the team's decisions put
// in force and when, and the limit its record holds now.
type limitBook struct {
	// changes are an account's approved decisions, oldest first.
	changes map[string][]store.LimitRequest
	// now is the limit each account's record holds (absent: none).
	now map[string]float64
	// all are the approved decisions, oldest first.
	all []store.LimitRequest
	// inputs are every version of each account's calculator inputs.
	inputs map[string]store.InputVersions
}

// readLimits reads the team's approved decisions, its accounts' limits in
// force now and every version of their calculator inputs.
func readLimits(ctx context.Context, st *store.Store, a store.Analyst) (*limitBook, error) {
	rs, err := st.ApprovedLimits(ctx, a)
	if err != nil {
		return nil, err
	}
	accts, err := st.Accounts(ctx, a, "")
	if err != nil {
		return nil, err
	}
	b := newLimitBook(rs, accts)
	if b.inputs, err = st.LimitInputHistory(ctx, a); err != nil {
		return nil, err
	}
	return b, nil
}

// newLimitBook files approved decisions (oldest first) by account.
func newLimitBook(rs []store.LimitRequest, accts []store.Account) *limitBook {
	b := &limitBook{changes: map[string][]store.LimitRequest{}, now: map[string]float64{}}
	for _, r := range rs {
		if r.Approved != nil {
			b.changes[r.Account] = append(b.changes[r.Account], r)
			b.all = append(b.all, r)
		}
	}
	for _, ac := range accts {
		if ac.Limit != nil {
			b.now[ac.Account] = *ac.Limit
		}
	}
	return b
}

// at is the limit in force on account at instant t, NaN when none was:
// the amount of the last decision approved by then; before the first
// decision, the limit that decision replaced (none when it replaced
// none); with no decision at all, the limit the record holds, which no
// decision has changed. Never simply today's limit when a decision came
// after t.
func (b *limitBook) at(account string, t time.Time) float64 {
	cs := b.changes[account]
	// The first decision after t.
	i := sort.Search(len(cs), func(i int) bool { return cs[i].DecidedAt.After(t) })
	switch {
	case i > 0:
		return *cs[i-1].Approved
	case len(cs) > 0:
		if cs[0].OldLimit == nil {
			return math.NaN()
		}
		return *cs[0].OldLimit
	}
	if v, ok := b.now[account]; ok {
		return v
	}
	return math.NaN()
}

// decisions are the approved decisions, oldest first, as the replay reads
// them: each at the month-end of months (YYYYMM, consecutive) it followed.
func (b *limitBook) decisions(months []int) []policy.Decision {
	out := make([]policy.Decision, 0, len(b.all))
	for _, r := range b.all {
		m := monthsBetween(months[0], monthOf(r.DecidedAt)) - 1
		out = append(out, policy.Decision{ID: r.ID, Account: r.Account, Month: min(max(m, -1), len(months)-1),
			Approved: *r.Approved, AtOnce: r.DecidedBy == r.RequestedBy})
	}
	return out
}

// figuresAt rebuilds the calculator's figures of each decision's day, as
// the replay reads them: the inputs saved for its account in force when it
// was decided, and the Risk known at the month-end it followed (the
// line's). Not kept when no inputs were saved by then.
func (b *limitBook) figuresAt() policy.FiguresAt {
	decided := make(map[int64]time.Time, len(b.all))
	for _, r := range b.all {
		decided[r.ID] = r.DecidedAt
	}
	return func(d *policy.Decision, l *policy.Line) (policy.CalcFigures, bool) {
		in := b.inputs[d.Account].At(decided[d.ID])
		if in == nil {
			return policy.CalcFigures{}, false
		}
		risk := math.NaN()
		if l.Risk != policy.Missing {
			risk = float64(l.Risk)
		}
		return credit.FiguresAsOf(in, risk), true
	}
}
