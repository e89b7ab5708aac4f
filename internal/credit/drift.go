package credit

import (
	"cmp"
	"slices"
)

// Drift is an account whose limit and implied limit part: Gap is how far
// the limit exceeds the implied limit (at risk) or falls short of it
// (unused headroom), always positive.
type Drift struct {
	Account, Name       string
	BusinessID          int32
	Limit, Implied, Gap float64
}

// MaxAtRisk and MaxHeadroom bound the two lists of NewDrift.
const (
	MaxAtRisk   = 20
	MaxHeadroom = 10
)

// NewDrift lists accounts whose limit exceeds their implied limit (limit
// at risk) and those with the most unused implied headroom, MaxAtRisk and
// MaxHeadroom at most, largest gap first.
func NewDrift(fs []Figures) (atRisk, headroom []Drift) {
	for _, f := range fs {
		if !f.ImpliedOK || f.Account.Limit == nil {
			continue
		}
		d := Drift{Account: f.Account.Account, Name: f.Name, BusinessID: f.BusinessID, Limit: *f.Account.Limit, Implied: f.Implied}
		switch gap := d.Limit - d.Implied; {
		case gap > 0:
			d.Gap = gap
			atRisk = append(atRisk, d)
		case gap < 0:
			d.Gap = -gap
			headroom = append(headroom, d)
		}
	}
	slices.SortFunc(atRisk, func(a, b Drift) int { return cmp.Compare(b.Gap, a.Gap) })
	slices.SortFunc(headroom, func(a, b Drift) int { return cmp.Compare(b.Gap, a.Gap) })
	return atRisk[:min(len(atRisk), MaxAtRisk)], headroom[:min(len(headroom), MaxHeadroom)]
}
