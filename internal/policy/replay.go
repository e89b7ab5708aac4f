package policy

import (
	"errors"
	"math"
)

// The replay (issue 45, point 4): the team's past limit decisions put
// through a policy as it would have seen them, at the month-end before
// each, with the calculator's figures of their day rebuilt from what the
// team kept then: which it would have changed, and the expected loss of
// the difference.

// Decision is one past approved limit decision.
type Decision struct {
	ID      int64
	Account string
	// Month indexes the history's month-end the decision followed (the
	// newest at or before it), -1 when it came before the history.
	Month int
	// Approved is the limit it put in force.
	Approved float64
	// AtOnce says the requester approved it alone, within their own
	// authority.
	AtOnce bool
}

// Replayed is a decision as the policy would have taken it.
type Replayed struct {
	Decision
	// Score and Class (an index into the scorecard's classes) are the
	// account's at the month-end before the decision.
	Score, Class int
	// Ceiling is the most the class's limit rule gives whatever the
	// calculator's figures: 0 for a class whose share is 0, the rule's
	// maximum, a table's largest limit; +Inf when the rule sets none.
	Ceiling float64
	// Kept says the calculator's figures of the decision's day were
	// rebuilt (FiguresAt); false: they were not kept (no calculator
	// inputs saved by then), and only Ceiling bounds the limit.
	Kept bool
	// PolicyLimit is the class's limit on those figures; Worked is false
	// when the figure its rule reads was not worked out then (the policy
	// gave no limit, so a second person decides).
	PolicyLimit float64
	Worked      bool
	// Limit is what the policy would have let stand: the approved amount,
	// at most PolicyLimit when worked out, else at most Ceiling.
	Limit float64
	// FourEyes: approved by the requester alone where the policy would
	// have sent it to a second person, as the decision path does: above
	// the class's at-once amount, above the policy's limit, or with no
	// limit worked out from figures kept.
	FourEyes bool
	// PD is the class's bad rate in the validation (the share of its
	// account-months followed by a default within the horizon), NaN when
	// the class scored none.
	PD float64
	// ExpectedLoss is the difference (Approved − Limit) × PD × the loss
	// given default.
	ExpectedLoss float64
	// Defaulted: the account was in default at a month-end within the
	// horizon after; Avoided is then the balance above Limit at the first
	// such month-end, at most the difference, × the loss given default.
	Defaulted bool
	Avoided   float64
}

// Reduced says the policy would have set a lower limit.
func (r *Replayed) Reduced() bool { return r.Limit < r.Approved }

// Changed says the policy would have decided differently: a lower limit
// or a second person.
func (r *Replayed) Changed() bool { return r.Reduced() || r.FourEyes }

// Ceiling is the most class i's limit rule can give, whatever the
// calculator's figures: what the replay applies to a decision whose
// day's figures were not kept.
func (p *Policy) Ceiling(i int) float64 {
	r := p.Limits[i]
	if r.Cap == CapTable {
		top := 0.0
		for _, l := range r.Limits {
			top = math.Max(top, l)
		}
		return top
	}
	switch {
	case r.Share == 0:
		return 0
	case r.Max > 0:
		return r.Max
	}
	return math.Inf(1)
}

// FiguresAt rebuilds the calculator's figures of decision d's day from
// what the team kept then; l is its account's line at the month-end the
// decision followed (the scores known then). ok is false when they were
// not kept.
type FiguresAt func(d *Decision, l *Line) (f CalcFigures, ok bool)

// Replay puts decisions through policy p on history h: each scored by
// p's scorecard at the month-end before it, limited by its class's rule
// on the calculator's figures of its day (figures; nil: none kept, so by
// the class's ceiling), sent to a second person where the decision path
// would have sent it.
// rates are the validation's bad rates of p's classes (Result.Classes of
// p's scorecard), lgd the team's loss given default. Decisions before
// the history, or of an account the month-end's ledger does not list,
// are left out.
func Replay(h *History, def Definition, p *Policy, rates []ClassRate, lgd float64, ds []Decision, figures FiguresAt) ([]Replayed, error) {
	if err := h.check(def); err != nil && !errors.Is(err, ErrShortHistory) {
		return nil, err
	}
	if err := p.Check(); err != nil {
		return nil, err
	}
	if len(rates) != len(p.Scorecard.Classes) {
		return nil, errors.New("policy: a bad rate per class of the policy's scorecard")
	}
	g := place(h, def)
	index := make(map[string]int, len(h.Accounts))
	for a, acct := range h.Accounts {
		index[acct] = a
	}
	model := p.Scorecard.Model("replay", "")
	var out []Replayed
	for _, d := range ds {
		a, ok := index[d.Account]
		if !ok || d.Month < 0 || d.Month >= g.months {
			continue
		}
		at := g.at[a*g.months+d.Month]
		if at == 0 {
			continue
		}
		l := &h.Lines[d.Month][at-1]
		first := 0 // the first month any ledger lists the account
		for g.at[a*g.months+first] == 0 {
			first++
		}
		var before *Line
		if d.Month >= trendMonths {
			if b := g.at[a*g.months+d.Month-trendMonths]; b > 0 {
				before = &h.Lines[d.Month-trendMonths][b-1]
			}
		}
		f := featuresOf(l, before, d.Month, first)
		score, _ := model.score(&f)
		r := Replayed{Decision: d, Score: score, Class: classOf(p.Scorecard.Classes, score)}
		r.Ceiling = p.Ceiling(r.Class)
		bound := r.Ceiling
		if figures != nil {
			if f, kept := figures(&d, l); kept {
				r.Kept = true
				if r.PolicyLimit, r.Worked = p.Limit(r.Class, f); r.Worked {
					bound = r.PolicyLimit
				}
			}
		}
		r.Limit = math.Min(d.Approved, bound)
		ok, _ = p.AtOnce(r.Class, d.Approved)
		r.FourEyes = d.AtOnce && (!ok || r.Reduced() || r.Kept && !r.Worked)
		r.PD = rates[r.Class].Rate()
		diff := d.Approved - r.Limit
		if diff > 0 {
			r.ExpectedLoss = diff * r.PD * lgd
		}
		for k := d.Month + 1; k <= d.Month+def.Horizon && k < g.months; k++ {
			if g.bad[a*g.months+k] {
				r.Defaulted = true
				if b := g.at[a*g.months+k]; b > 0 && diff > 0 {
					r.Avoided = math.Min(math.Max(h.Lines[k][b-1].Balance-r.Limit, 0), diff) * lgd
				}
				break
			}
		}
		out = append(out, r)
	}
	return out, nil
}
