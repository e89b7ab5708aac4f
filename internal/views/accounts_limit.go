package views

import (
	"math"
	"strconv"

	"creditdash/internal/credit"
	"creditdash/internal/upstream"
)

// LimitPage is the limit calculator of one business: a GET form, so a
// result can be linked, and a form that saves the inputs for the team's
// account.
type LimitPage struct {
	Base
	Name, ReportURL, Action string
	// The inputs as typed, and why each is refused ("" when it is not).
	MonthlySales, MonthsAllowed, LossBudget string
	SalesError, MonthsError, BudgetError    string
	// Accounts are the team's accounts of the business; Account the one
	// the inputs are for.
	Accounts []Choice
	Account  string
	// SavedNote says when and by whom the inputs shown were saved.
	SavedNote                        string
	Result                           *LimitResult
	ScoresProblem, StatementsProblem *Problem
	PDNote                           string
	// RequestAction is where a limit request for the business posts; ""
	// when the business's id is unknown.
	RequestAction string
	// Policy is the credit policy's limit for the account beside the
	// caps; nil when no policy is in force or no account is chosen.
	Policy *PolicyLimitLine
}

// PolicyLimitLine is the policy's limit for one account, named and traced.
type PolicyLimitLine struct {
	// Limit is the amount, or why there is none.
	Limit string
	// Rationale names the version, class, rule and figures.
	Rationale string
	// AtOnce says what may be decided at once in the class.
	AtOnce string
	// Saved, when not "", says the request is held against the inputs
	// saved for the account, whose policy limit differs.
	Saved string
}

// NewPolicyLimitLine words a policy limit.
func NewPolicyLimitLine(pl credit.PolicyLimit) *PolicyLimitLine {
	l := &PolicyLimitLine{Limit: "none worked out", Rationale: pl.Rationale, AtOnce: "Class " + pl.Class + ": every limit needs a second person (four eyes)."}
	if pl.Known {
		l.Limit = Amount(pl.Limit)
	}
	if pl.AtOnce > 0 {
		l.AtOnce = "Class " + pl.Class + ": a limit up to " + Amount(pl.AtOnce) + " and at most the policy limit is decided at once within the requester's authority; above either, a second person decides (four eyes)."
	}
	return l
}

// LimitResult is the calculator's answer as the page shows it.
type LimitResult struct {
	Caps        []credit.Cap
	Recommended string
	Available   bool
	Warnings    []string
	Risk        string
}

// CapValue is a cap's amount, or "skipped".
func CapValue(c credit.Cap) string {
	if !c.Available {
		return "skipped"
	}
	return Amount(c.Value)
}

// NewLimitResult formats the calculator's answer.
func NewLimitResult(l credit.Limit, band int) *LimitResult {
	r := &LimitResult{Caps: l.Caps, Available: l.Available, Warnings: l.Warnings, Recommended: "no cap applies: give the inputs above"}
	if l.Available {
		r.Recommended = Amount(l.Recommended)
	}
	if band > 0 {
		pd, _ := credit.PD(band)
		r.Risk = "Risk band " + strconv.Itoa(band) + " (" + RiskZone(band).Label + "), PD " + PDText(pd)
	} else {
		r.Risk = "no Risk score known"
	}
	return r
}

// LatestStatement reads the balance-sheet cap's figures from the latest
// fiscal year of statements (newest first).
func LatestStatement(stmts []upstream.AnnualFinancials) credit.Statement {
	if len(stmts) == 0 {
		return credit.Statement{Problem: "no annual statements are on file"}
	}
	s := stmts[0]
	st := credit.Statement{}
	if dp, ok := s.Values[keyFiscalYear]; ok && dp.Value.OK && !math.IsNaN(dp.Value.V) {
		st.Year = int(dp.Value.V)
	}
	get := func(k string) *float64 {
		if dp, ok := s.Values[k]; ok && dp.Value.OK && !math.IsNaN(dp.Value.V) && !math.IsInf(dp.Value.V, 0) {
			v := dp.Value.V
			return &v
		}
		return nil
	}
	st.Equity, st.WorkingCapital = get("ShareholdersEquity"), get("WorkingCapital")
	return st
}
