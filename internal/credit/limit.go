package credit

import (
	"fmt"
	"math"
)

// LimitInputs are the calculator's inputs.
type LimitInputs struct {
	MonthlySales  float64
	MonthsAllowed float64
	// LossBudget is what the team accepts to lose on the customer in a
	// year.
	LossBudget float64
}

// DefaultMonths is months_allowed's default for payment terms in days:
// the terms in months plus the month being sold in.
func DefaultMonths(terms *int) float64 {
	if terms == nil {
		return 2
	}
	return math.Round((float64(*terms)/30+1)*100) / 100
}

// Statement is what the balance-sheet cap reads from the latest annual
// statement; nil fields are missing or withheld.
type Statement struct {
	Year           int
	Equity         *float64
	WorkingCapital *float64
	// Problem says why there is no statement to read ("" when there is).
	Problem string
}

// Cap is one cap on the limit and the line of rationale naming its
// figures.
type Cap struct {
	Name      string
	Value     float64
	Available bool
	Rationale string
	// Binds marks the lowest available cap, the one that sets the limit.
	Binds bool
}

// Limit is the calculator's answer.
type Limit struct {
	Caps []Cap
	// Recommended is the lowest available cap rounded down to a whole
	// 1,000; Available is false when no cap is.
	Recommended float64
	Available   bool
	Warnings    []string
}

// SheetCap is the balance-sheet cap: the lower of 10 % of
// ShareholdersEquity and 20 % of WorkingCapital, never below zero.
func SheetCap(st Statement) Cap {
	c := Cap{Name: "Balance-sheet cap"}
	switch {
	case st.Problem != "":
		c.Rationale = "Skipped: " + st.Problem + "."
	case st.Equity == nil && st.WorkingCapital == nil:
		c.Rationale = fmt.Sprintf("Skipped: the %d statement gives neither ShareholdersEquity nor WorkingCapital (missing or withheld).", st.Year)
	case st.Equity == nil:
		c.Rationale = fmt.Sprintf("Skipped: the %d statement gives no ShareholdersEquity (missing or withheld).", st.Year)
	case st.WorkingCapital == nil:
		c.Rationale = fmt.Sprintf("Skipped: the %d statement gives no WorkingCapital (missing or withheld).", st.Year)
	default:
		e, w := 0.10**st.Equity, 0.20**st.WorkingCapital
		c.Value, c.Available = max(min(e, w), 0), true
		c.Rationale = fmt.Sprintf("Lower of 10 %% of ShareholdersEquity (%s) = %s and 20 %% of WorkingCapital (%s) = %s, from the %d statement",
			money(*st.Equity), money(e), money(*st.WorkingCapital), money(w), st.Year)
		if min(e, w) < 0 {
			c.Rationale += "; negative, so no room at all"
		}
		c.Rationale += "."
	}
	return c
}

// Calculate works out the three caps and the recommended limit. band is
// the Risk band (0 unknown); z the latest Z″ (nil unknown); sheet the
// balance-sheet cap (from SheetCap, or as saved).
func Calculate(in LimitInputs, band int, z *float64, sheet Cap) Limit {
	var l Limit
	trade := Cap{Name: "Trade cap"}
	if in.MonthlySales > 0 && in.MonthsAllowed > 0 {
		trade.Value, trade.Available = in.MonthlySales*in.MonthsAllowed, true
		trade.Rationale = fmt.Sprintf("Monthly sales %s × %s months allowed = %s.", money(in.MonthlySales), trimFloat(in.MonthsAllowed), money(trade.Value))
	} else {
		trade.Rationale = "Skipped: give monthly sales and months allowed above zero."
	}
	loss := Cap{Name: "Loss cap"}
	pd, ok := PD(band)
	switch {
	case !ok:
		loss.Rationale = "Skipped: no Risk score is known, so there is no PD to divide by."
	case in.LossBudget <= 0:
		loss.Rationale = "Skipped: give a loss budget above zero."
	default:
		loss.Value, loss.Available = in.LossBudget/pd, true
		lo, hi := PDRange(band)
		loss.Rationale = fmt.Sprintf("Loss budget %s ÷ PD %s (Risk band %d, midpoint of %s–%s) = %s.",
			money(in.LossBudget), percent(pd), band, percent(lo), percent(hi), money(loss.Value))
	}
	l.Caps = []Cap{trade, loss, sheet}
	bind := -1
	for i, c := range l.Caps {
		if c.Available && (bind < 0 || c.Value < l.Caps[bind].Value) {
			bind = i
		}
	}
	if bind >= 0 {
		l.Caps[bind].Binds = true
		l.Recommended, l.Available = RoundDown(l.Caps[bind].Value), true
	}
	if band == 1 || band == 2 {
		l.Warnings = append(l.Warnings, fmt.Sprintf("Risk band %d is severe: a 12-month bankruptcy probability of %s–%s. The limit above does not discount it further; decide with that in view.",
			band, percent(bandRanges[band][0]), percent(bandRanges[band][1])))
	}
	if z != nil && *z < 1.10 {
		l.Warnings = append(l.Warnings, fmt.Sprintf("Z″ %.2f is in the distress zone (below 1.10). The limit above does not discount it; decide with that in view.", *z))
	}
	return l
}

// RoundDown rounds an amount down to a whole 1,000.
func RoundDown(v float64) float64 { return math.Floor(v/1000) * 1000 }

func trimFloat(v float64) string { return fmt.Sprintf("%g", math.Round(v*100)/100) }
