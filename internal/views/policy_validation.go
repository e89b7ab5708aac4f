package views

import (
	"math"
	"strconv"

	"creditdash/internal/policy"
	"creditdash/internal/validation"
)

// PolicyValidationPage is /policy/validation: how well each model ranked
// the team's accounts against the defaults that followed.
type PolicyValidationPage struct {
	Base
	// Empty says why nothing is validated ("" when something is).
	Empty string
	// Definition is the default definition in words.
	Definition string
	// Ledgers names the month-ends read; Scored the ones scored.
	Ledgers, Scored string
	// Gap says the older ledgers were left out for a missing month.
	Gap string
	// RiskKnown and PayKnown are how many linked businesses' Risk and Pay
	// the team knows at the newest month-end, of Linked.
	RiskKnown, PayKnown, Linked int
	Models                      []ValidationModel
	// Scorecard names the scorecard validated; Others are the team's
	// other versions, each a link to validate it.
	Scorecard string
	Others    []ValidationVersion
	// Replay is the team's past limit decisions put through the policy.
	Replay PolicyReplay
	// Demo offers the demo history's import (demo mode only).
	Demo bool
}

// ValidationVersion is a link to validate one version of the policy.
type ValidationVersion struct {
	Label, Href string
}

// NewPolicyValidationPage words a validation run, against the default
// definition of the version it validated.
func NewPolicyValidationPage(run *validation.Run) PolicyValidationPage {
	def := run.Scorecard.Policy.Definition()
	page := PolicyValidationPage{Scorecard: run.Scorecard.Label(),
		Definition: DefaultRule(&run.Scorecard.Policy) + ": an account is in default at a month-end when more than " + share(run.Scorecard.Policy.DefaultPercent()) +
			" of its balance is over 90 days past due, or its business has filed for bankruptcy; each month-end is judged by whether a default follows within the next " +
			strconv.Itoa(def.Horizon) + " month-ends."}
	for _, v := range run.Versions {
		if v != run.Scorecard.Version {
			page.Others = append(page.Others, ValidationVersion{Label: "version " + strconv.Itoa(v), Href: "/policy/validation?version=" + strconv.Itoa(v)})
		}
	}
	if run.Scorecard.Version != 0 && !run.Scorecard.Active {
		page.Others = append(page.Others, ValidationVersion{Label: "the version in force", Href: "/policy/validation"})
	}
	page.Replay = NewPolicyReplay(run)
	th, rep := run.History, run.Report
	switch {
	case th == nil:
		page.Empty = "The team has no ledger yet."
	case rep == nil:
		page.Empty = "Validation needs at least " + strconv.Itoa(def.Horizon+1) + " month-end ledgers in a row (a month-end and the " +
			strconv.Itoa(def.Horizon) + " after it); the team has " + Plural(len(th.Months), "month") + " in a row."
	}
	if th != nil {
		page.RiskKnown, page.PayKnown, page.Linked = th.RiskKnown, th.PayKnown, th.Linked
		if th.Gap != 0 {
			page.Gap = MonthName(th.Gap)
		}
		if n := len(th.Months); n > 0 {
			page.Ledgers = MonthName(th.Months[0]) + " to " + MonthName(th.Months[n-1]) + " (" + Plural(n, "month-end") + ")"
		}
	}
	if rep != nil {
		n := len(rep.Scored)
		page.Scored = MonthName(rep.Scored[0]) + " to " + MonthName(rep.Scored[n-1]) + " (" + Plural(n, "month-end") + ")"
		for _, r := range rep.Results {
			page.Models = append(page.Models, NewValidationModel(r))
		}
	}
	return page
}

// ValidationModel is one model's figures in words.
type ValidationModel struct {
	Name, Label string
	// Empty says why the model has no figures ("" when it has).
	Empty                string
	AUC, Gini, KS        string
	AUCRange, GiniRange  string
	KSRange              string
	Accounts, Defaults   string
	Observations         string
	InWords              string
	Classes              []ValidationClass
	BootstrapDraws, Seed int
}

// ValidationClass is one class's bad rate, with its bootstrap range.
type ValidationClass struct {
	Name, Observations, Bads, Rate, Range string
}

// NewValidationModel words a model's result.
func NewValidationModel(r policy.Result) ValidationModel {
	f := r.Figures
	v := ValidationModel{Name: r.Model.Name, Label: r.Model.Label, Accounts: Int(int64(f.Accounts)), Defaults: Int(int64(f.Defaults)),
		Observations: Int(int64(f.Observations)), BootstrapDraws: r.Intervals.Draws, Seed: policy.BootstrapSeed}
	switch {
	case f.Observations == 0:
		v.Empty = "No account had this score at any month-end scored, so there is nothing to rank."
		return v
	case f.Defaults == 0:
		v.Empty = "No account it scored defaulted afterwards, so there is nothing to tell apart."
		return v
	case f.Bads == f.Observations:
		v.Empty = "Every account it scored defaulted afterwards, so there is nothing to tell apart."
		return v
	}
	v.AUC, v.Gini, v.KS = fixed(f.AUC, 3), fixed(f.Gini, 3), fixed(f.KS, 3)
	v.AUCRange, v.GiniRange, v.KSRange = span(r.Intervals.AUC), span(r.Intervals.Gini), span(r.Intervals.KS)
	v.InWords = "Of an account that went on to default and one that did not, it scored the defaulter lower " +
		strconv.Itoa(int(math.Round(f.AUC*100))) + " times in 100 (ties counted as half)."
	for _, c := range r.Classes {
		vc := ValidationClass{Name: c.Class, Observations: Int(int64(c.Observations)), Bads: Int(int64(c.Bads)), Rate: "–", Range: "–"}
		if c.Observations > 0 {
			vc.Rate = Percent(c.Rate() * 100)
		}
		if !math.IsNaN(c.Interval.Low) {
			vc.Range = Percent(c.Interval.Low*100) + " to " + Percent(c.Interval.High*100)
		}
		v.Classes = append(v.Classes, vc)
	}
	return v
}

// fixed writes v with n decimals, or "–" when it is not a number.
func fixed(v float64, n int) string {
	if math.IsNaN(v) {
		return "–"
	}
	return strconv.FormatFloat(v, 'f', n, 64)
}

// span writes a bootstrap interval.
func span(i policy.Interval) string {
	if math.IsNaN(i.Low) {
		return "–"
	}
	return fixed(i.Low, 3) + " to " + fixed(i.High, 3)
}

// MonthName writes YYYYMM as "Oct 2026".
func MonthName(m int) string { return Month(m/100, m%100) }
