// Package policy validates credit models on the team's own history
// (issue 45): month-end ledgers and the scores known at each month-end
// go in, store-agnostic; each model's ranking of the accounts against
// the defaults of the next twelve months comes out (AUC, Gini, KS, bad
// rate per class, with bootstrap intervals).
package policy

import (
	"errors"
	"math"
)

// Missing marks a score not known at a month-end (Risk, Pay, DBT).
const Missing int8 = -1

// Line is one account at one month-end: its ledger line and the scores
// known then. A missing amount or Z″ is NaN.
type Line struct {
	// Account indexes History.Accounts.
	Account int32
	// Balance is what the account owes; the buckets are its aging.
	Balance, Current, Days1to30, Days31to60, Days61to90, Over90 float64
	// Limit is the limit in force then, from the team's dated
	// decisions (never from the ledger): NaN when none is known.
	Limit float64
	// Z is the business's Z″ known then, NaN when none.
	Z float32
	// Risk and Pay are 1–10 (10 safest), DBT is days beyond terms; each
	// is Missing when not known.
	Risk, Pay int8
	DBT       int16
}

// History is the team's month-end ledgers, consecutive months oldest
// first.
type History struct {
	// Months are YYYYMM, one a month with none skipped.
	Months []int
	// Accounts are the team's account numbers.
	Accounts []string
	// Lines[m] are the lines of month m, an account at most once.
	Lines [][]Line
	// Filed is the month index of a bankruptcy or insolvency filing per
	// account (-1: none known); nil when no filing is known at all.
	Filed []int
}

// Definition is the team's definition of a default.
type Definition struct {
	// Over90 is the share of the balance over 90 days past due above
	// which an account is in default at a month-end (0.25 is 25 %).
	Over90 float64
	// Horizon is how many months after a month-end a default counts
	// against it.
	Horizon int
}

// StandardDefinition is the default definition of a policy that names
// no share (Policy.Definition): over 25 % of the balance past 90 days,
// within 12 months.
var StandardDefinition = Definition{Over90: 0.25, Horizon: 12}

// ErrShortHistory: fewer months than the horizon plus one, so no
// month-end has a whole window after it.
var ErrShortHistory = errors.New("policy: the history is shorter than the default window plus one month")

// check refuses a history the validation cannot read.
func (h *History) check(def Definition) error {
	if def.Horizon < 1 || def.Over90 < 0 || def.Over90 > 1 || math.IsNaN(def.Over90) {
		return errors.New("policy: a default needs a window of at least a month and a share from 0 to 100 %")
	}
	if len(h.Lines) != len(h.Months) {
		return errors.New("policy: one set of lines per month")
	}
	for i := 1; i < len(h.Months); i++ {
		if monthIndex(h.Months[i]) != monthIndex(h.Months[i-1])+1 {
			return errors.New("policy: the months must follow each other with none missing")
		}
	}
	if h.Filed != nil && len(h.Filed) != len(h.Accounts) {
		return errors.New("policy: one filing month per account")
	}
	if len(h.Months) < def.Horizon+1 {
		return ErrShortHistory
	}
	if len(h.Months) > math.MaxInt16 || len(h.Accounts) > math.MaxInt32/len(h.Months) {
		return errors.New("policy: the history is too long to hold")
	}
	for _, lines := range h.Lines {
		for i := range lines {
			if a := lines[i].Account; a < 0 || int(a) >= len(h.Accounts) {
				return errors.New("policy: a line names no account")
			}
		}
	}
	return nil
}

// monthIndex counts months from year 0, so months subtract.
func monthIndex(m int) int { return m/100*12 + m%100 - 1 }

// InDefault reports whether a line is in default by the ledger alone:
// more than def.Over90 of a positive balance over 90 days past due.
func (def Definition) InDefault(l *Line) bool {
	return l.Balance > 0 && l.Over90 > def.Over90*l.Balance
}

// grid places every line: at[a*months+m] is the index in Lines[m] of
// account a's line plus one, 0 when the ledger of month m does not list
// it.
type grid struct {
	months int
	at     []int32
	// bad[a*months+m]: account a is in default at month m (the ledger's
	// share, or a filing at or before m).
	bad []bool
}

// place builds the grid of a checked history.
func place(h *History, def Definition) grid {
	g := grid{months: len(h.Months), at: make([]int32, len(h.Accounts)*len(h.Months)), bad: make([]bool, len(h.Accounts)*len(h.Months))}
	for m, lines := range h.Lines {
		for i := range lines {
			k := int(lines[i].Account)*g.months + m
			g.at[k] = int32(i) + 1
			g.bad[k] = def.InDefault(&lines[i])
		}
	}
	if h.Filed != nil {
		for a, f := range h.Filed {
			if f < 0 {
				continue
			}
			for m := max(f, 0); m < g.months; m++ {
				g.bad[a*g.months+m] = true
			}
		}
	}
	return g
}

// outcome says whether account a, not in default at month m, defaults
// at any month-end m+1 .. m+horizon.
func (g *grid) outcome(a, m, horizon int) bool {
	row := g.bad[a*g.months : (a+1)*g.months]
	for k := m + 1; k <= m+horizon && k < g.months; k++ {
		if row[k] {
			return true
		}
	}
	return false
}
