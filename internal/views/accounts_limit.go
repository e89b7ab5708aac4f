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
