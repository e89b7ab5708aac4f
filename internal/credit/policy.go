package credit

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strconv"

	"creditdash/internal/policy"
	"creditdash/internal/store"
)

// The limit the team's credit policy in force gives an account (issue 45,
// point 3): the account's class by the policy's scorecard, and that
// class's rule applied to the calculator's figures. The calculator page
// shows it beside the caps, a limit request above it waits for a second
// person, and an application's approval starts from it.

// PolicyLimit is one account's limit by the policy in force, with what it
// was worked out from.
type PolicyLimit struct {
	Version int
	Class   string
	Score   int
	Rule    policy.LimitRule
	// Limit is the class's limit; Known is false when the figure its rule
	// reads is not worked out (then Limit is 0).
	Limit float64
	Known bool
	// AtOnce is the largest limit of the class decided at once.
	AtOnce float64
	// Rationale names the version, the class, the rule and its figures.
	Rationale string
}

// PolicyValues are an account's factor values today, as the scorecard
// reads them: the team's known scores and the newest ledger.
func PolicyValues(f *Figures) policy.Values {
	nan := math.NaN()
	known := func(k *store.KnownScore) float64 {
		if k == nil {
			return nan
		}
		return k.Value
	}
	v := policy.Values{Risk: known(f.Risk), Pay: known(f.Pay), DBT: known(f.DBT), Z: known(f.Z), Balance: f.Balance,
		Days1to30: f.Days1to30, Days31to60: f.Days31to60, Days61to90: f.Days61to90, Over90: f.DaysOver90, Limit: nan, Before: nan, Years: nan}
	if f.Account.Limit != nil {
		v.Limit = *f.Account.Limit
	}
	return v
}

// calcFigures are the calculator's answer as the limit rules read it:
// its caps in Calculate's order (trade, loss, balance sheet), NaN when not
// worked out; sales are the monthly sales typed (0 or less: unknown).
func calcFigures(l Limit, sales float64) policy.CalcFigures {
	nan := math.NaN()
	f := policy.CalcFigures{Recommended: nan, Trade: nan, Loss: nan, Sheet: nan, MonthlySales: nan}
	if l.Available {
		f.Recommended = l.Recommended
	}
	for i, dst := range []*float64{&f.Trade, &f.Loss, &f.Sheet} {
		if i < len(l.Caps) && l.Caps[i].Available {
			*dst = l.Caps[i].Value
		}
	}
	if sales > 0 {
		f.MonthlySales = sales
	}
	return f
}

// FiguresAsOf are the calculator's figures a limit rule reads, rebuilt
// for a past day from the inputs saved by then and the Risk score known
// then (NaN unknown): the same figures the calculator showed that day on
// those scores (Z″ only words warnings, never a figure). The replay of
// past decisions applies the policy's rules to them.
func FiguresAsOf(in *store.LimitInputs, risk float64) policy.CalcFigures {
	return calcFigures(savedCalc(in, Band(risk), nil), in.MonthlySales)
}

// ApplyPolicy works out the limit of policy version for the account of
// f, from the calculator's answer calc and the monthly sales it was given.
func ApplyPolicy(p *policy.Policy, version int, f *Figures, calc Limit, sales float64) PolicyLimit {
	score, class := p.Scorecard.Classify(PolicyValues(f))
	r := p.Limits[class]
	pl := PolicyLimit{Version: version, Class: r.Class, Score: score, Rule: r, AtOnce: r.AtOnce}
	figs := calcFigures(calc, sales)
	pl.Limit, pl.Known = p.Limit(class, figs)
	head := fmt.Sprintf("Policy version %d, class %s (score %d): ", version, r.Class, score)
	if f.InDefault() {
		head = fmt.Sprintf("Policy version %d, class %s (score %d; the account is in default, which the scorecard does not read): ", version, r.Class, score)
	}
	var read float64
	var what string
	switch r.Cap {
	case policy.CapTable:
		if !pl.Known {
			pl.Rationale = head + "a table by monthly sales, and no monthly sales are given, so no policy limit."
			return pl
		}
		k := 0
		for k < len(r.Upto)-1 && figs.MonthlySales > r.Upto[k] {
			k++
		}
		step := "up to " + money(r.Upto[k])
		if figs.MonthlySales > r.Upto[k] {
			step = "above " + money(r.Upto[k])
		}
		pl.Rationale = fmt.Sprintf("%smonthly sales of %s fall in the table's step %s: %s.", head, money(figs.MonthlySales), step, money(pl.Limit))
		return pl
	case policy.CapTrade:
		read, what = figs.Trade, "the trade cap"
	case policy.CapLoss:
		read, what = figs.Loss, "the loss cap"
	case policy.CapSheet:
		read, what = figs.Sheet, "the balance-sheet cap"
	default:
		read, what = figs.Recommended, "the calculator's recommended limit"
	}
	share := strconv.FormatFloat(r.Share*100, 'f', -1, 64) + " %"
	if !pl.Known {
		pl.Rationale = head + share + " of " + what + ", which is not worked out (see the calculator), so no policy limit."
		return pl
	}
	pl.Rationale = fmt.Sprintf("%s%s of %s (%s)", head, share, what, money(read))
	if r.Max > 0 {
		pl.Rationale += ", at most " + money(r.Max)
	}
	pl.Rationale += " = " + money(pl.Limit) + "."
	return pl
}

// Within says amount is at most the policy limit (never when the limit
// is not known).
func (pl PolicyLimit) Within(amount float64) bool { return pl.Known && amount <= pl.Limit }

// Request is the policy limit as a limit request keeps it and decides by.
func (pl PolicyLimit) Request() *store.PolicyAtOnce {
	return &store.PolicyAtOnce{Version: pl.Version, Class: pl.Class, Max: pl.AtOnce, Limit: pl.Limit, LimitKnown: pl.Known, Note: pl.Rationale}
}

// RequestRule is the policy's rule for a limit request of the team's
// account, read from the store the way the pages read it: the account's
// class today and its class's limit from the calculator inputs saved for
// it (the team's audited record, never what a request merely sends). Nil
// when no policy is in force; an account the store does not know gets
// empty figures (the store refuses the request itself).
func RequestRule(ctx context.Context, s *store.Store, a store.Analyst, account string) (*store.PolicyAtOnce, error) {
	v, err := s.ActivePolicy(ctx, a)
	if err != nil || v == nil {
		return nil, err
	}
	p, err := policy.Parse(v.Body)
	if err != nil {
		return nil, err
	}
	acc, err := s.Account(ctx, a, account)
	if err != nil && !errors.Is(err, store.ErrNotFound) {
		return nil, err
	}
	known, err := s.KnownScores(ctx, a)
	if err != nil {
		return nil, err
	}
	f := NewFigures(acc, known[acc.BusinessID])
	return ApplyPolicy(&p, v.Version, &f, f.Calc, SavedSales(&f)).Request(), nil
}

// SavedSales are the monthly sales saved for the account (0 none).
func SavedSales(f *Figures) float64 {
	if f.Inputs == nil {
		return 0
	}
	return f.Inputs.MonthlySales
}
