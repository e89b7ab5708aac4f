package views

import (
	"math"
	"strconv"
	"strings"

	"creditdash/internal/policy"
)

// PolicyPath is the team's credit policy page.
const PolicyPath = "/policy"

// FactorLabels name the scorecard's factors on the page, in its order.
var FactorLabels = []struct{ Kind, Label, Unit string }{
	{policy.FactorRisk, "Risk score", "1–10, 10 safest"},
	{policy.FactorPay, "Pay score", "1–10, 10 safest"},
	{policy.FactorDBT, "DBT", "days beyond terms, the service's"},
	{policy.FactorZ, "Z″", "the service's Z-Score"},
	{policy.FactorDaysBeyond, "Days beyond terms", "the ledger's, from its aging"},
	{policy.FactorOver90, "Share over 90 days", "of the balance, 0.1 is 10 %"},
	{policy.FactorUtilisation, "Utilisation", "balance over the limit in force, 1 is 100 %"},
	{policy.FactorYears, "Years as customer", "since the first ledger listing it"},
	{policy.FactorTrend, "Balance trend", "against three months before, −0.2 is 20 % lower"},
}

// FactorField is one factor's row of the policy form, as typed.
type FactorField struct {
	Kind, Label, Unit string
	Use               bool
	Edges, Points     string
	Missing           string
}

// RuleField is one class's limit rule and at-once amount, as typed.
type RuleField struct {
	Class                          string
	Cap, Share, Max, Table, AtOnce string
}

// PolicyForm is the editing form, as typed or from a version.
type PolicyForm struct {
	Note string
	// Default is the default share in percent, as typed.
	Default string
	Factors []FactorField
	Classes string
	Rules   []RuleField
	// Errors are the refusals, field name to sentence; Error a general
	// one.
	Errors map[string]string
	Error  string
}

// Err is the refusal of a field ("" none).
func (f PolicyForm) Err(field string) string { return f.Errors[field] }

// CapLabels word the limit rule's figures.
var CapLabels = map[string]string{
	policy.CapRecommended: "the calculator's recommended limit",
	policy.CapTrade:       "the trade cap",
	policy.CapLoss:        "the loss cap",
	policy.CapSheet:       "the balance-sheet cap",
	policy.CapTable:       "a table by monthly sales",
}

// numbers writes a list as the form takes it: "3; 5; 6; 8".
func numbers[T int | float64](vs []T) string {
	parts := make([]string, len(vs))
	for i, v := range vs {
		parts[i] = strconv.FormatFloat(float64(v), 'f', -1, 64)
	}
	return strings.Join(parts, "; ")
}

// typedAmount writes an amount as a person types it: "250,000".
func typedAmount(v float64) string {
	return strings.TrimPrefix(Amount(v), "$")
}

// NewPolicyForm is the form filled with a policy.
func NewPolicyForm(p policy.Policy) PolicyForm {
	f := PolicyForm{Errors: map[string]string{}, Default: strconv.FormatFloat(p.DefaultPercent(), 'f', -1, 64)}
	for _, l := range FactorLabels {
		ff := FactorField{Kind: l.Kind, Label: l.Label, Unit: l.Unit}
		for _, fac := range p.Scorecard.Factors {
			if fac.Kind == l.Kind {
				ff.Use, ff.Edges, ff.Points, ff.Missing = true, numbers(fac.Edges), numbers(fac.Points), strconv.Itoa(fac.Missing)
			}
		}
		f.Factors = append(f.Factors, ff)
	}
	var cs []string
	for _, c := range p.Scorecard.Classes {
		if c.Min == math.MinInt32 {
			cs = append(cs, c.Name)
		} else {
			cs = append(cs, c.Name+" "+strconv.Itoa(c.Min))
		}
	}
	f.Classes = strings.Join(cs, "; ")
	for _, r := range p.Limits {
		rf := RuleField{Class: r.Class, Cap: r.Cap, Share: strconv.FormatFloat(r.Share*100, 'f', -1, 64), AtOnce: typedAmount(r.AtOnce)}
		if r.Max > 0 {
			rf.Max = typedAmount(r.Max)
		}
		var steps []string
		for i := range r.Upto {
			steps = append(steps, typedAmount(r.Upto[i])+" = "+typedAmount(r.Limits[i]))
		}
		rf.Table = strings.Join(steps, "; ")
		f.Rules = append(f.Rules, rf)
	}
	return f
}

// PolicyVersionRow is one saved version on the page.
type PolicyVersionRow struct {
	ID, Version, Note, Saved, Activated string
	Active                              bool
	// ActivateURL is the activation form's action, "" when the reader may
	// not put it in force (not a manager, its editor, already in force).
	ActivateURL string
	// Why says why the reader may not, when they are a manager.
	Why string
	// EditURL starts a new version from this one.
	EditURL string
}

// share writes a percentage as the policy keeps it: "25 %", "12.5 %".
func share(pct float64) string { return strconv.FormatFloat(pct, 'f', -1, 64) + " %" }

// DefaultRule is the version's default definition in words.
func DefaultRule(p *policy.Policy) string {
	return "over 90 days above " + share(p.DefaultPercent()) + " at a month-end within " +
		strconv.Itoa(p.Definition().Horizon) + " months, or a filing"
}

// PolicySummary is a policy in words, class by class.
type PolicySummary struct {
	// Default is the default definition ("over 90 days above 25 % …").
	Default string
	Factors []string
	Classes []PolicyClassLine
}

// PolicyClassLine is one class: its scores, limit rule and at-once rule.
type PolicyClassLine struct {
	Class, Scores, Limit, AtOnce string
}

// NewPolicySummary words a policy.
func NewPolicySummary(p policy.Policy) PolicySummary {
	s := PolicySummary{Default: DefaultRule(&p)}
	for _, fac := range p.Scorecard.Factors {
		label := fac.Kind
		for _, l := range FactorLabels {
			if l.Kind == fac.Kind {
				label = l.Label
			}
		}
		s.Factors = append(s.Factors, label+": edges "+numbers(fac.Edges)+" give "+numbers(fac.Points)+" points; missing "+strconv.Itoa(fac.Missing))
	}
	cs := p.Scorecard.Classes
	for i, c := range cs {
		line := PolicyClassLine{Class: c.Name}
		switch {
		case i == 0 && len(cs) == 1:
			line.Scores = "every score"
		case i == 0:
			line.Scores = strconv.Itoa(c.Min) + " and above"
		case c.Min == math.MinInt32:
			line.Scores = "below " + strconv.Itoa(cs[i-1].Min)
		default:
			line.Scores = strconv.Itoa(c.Min) + " to " + strconv.Itoa(cs[i-1].Min-1)
		}
		if i < len(p.Limits) {
			r := p.Limits[i]
			if r.Cap == policy.CapTable {
				var steps []string
				for k := range r.Upto {
					steps = append(steps, "sales up to "+Amount(r.Upto[k])+": "+Amount(r.Limits[k]))
				}
				line.Limit = strings.Join(steps, "; ") + "; above: the last"
			} else {
				line.Limit = strconv.FormatFloat(r.Share*100, 'f', -1, 64) + " % of " + CapLabels[r.Cap]
				if r.Max > 0 {
					line.Limit += ", at most " + Amount(r.Max)
				}
			}
			line.AtOnce = "four eyes for every limit"
			if r.AtOnce > 0 {
				line.AtOnce = "at once up to " + Amount(r.AtOnce) + " (within the requester's authority), four eyes above"
			}
		}
		s.Classes = append(s.Classes, line)
	}
	return s
}

// PolicyPage is the team's credit policy: the version in force, every
// version kept, and the form a manager saves a new version with.
type PolicyPage struct {
	Base
	// Active is the version in force in words; ActiveLabel "Version 3,
	// put in force by bob on …", "" when none is.
	Active      *PolicySummary
	ActiveLabel string
	Versions    []PolicyVersionRow
	// Manager shows the form; FormFrom says what it starts from.
	Manager  bool
	FormFrom string
	Form     PolicyForm
	Caps     []string
	// Notice is a refusal of an activation (four eyes).
	Notice string
}
