// Package alerts checks the analysts' alert rules where fresh scores
// arrive: a report's score history, a payments tab's summaries, the
// portfolio's histories. The handlers call it from a page's read step,
// right after the service answered, never from building a view. Firings
// are stored once per rule, business and month by the store, so checking
// the same data again records nothing new.
package alerts

import (
	"context"
	"fmt"
	"slices"
	"time"

	"creditdash/internal/credit"
	"creditdash/internal/store"
	"creditdash/internal/upstream"
)

// Store keeps the rules and the alerts they raised (internal/store).
type Store interface {
	Rules(ctx context.Context, a store.Analyst) ([]store.Rule, error)
	RecordAlerts(ctx context.Context, a store.Analyst, fired []store.Triggered) (int, error)
}

// Members maps each business of the portfolio to the folders holding it;
// ok is false when the memberships could not be had. Asked only when a
// rule needs them.
type Members func() (folders map[int32][]int, ok bool)

// Result is what a check did.
type Result struct {
	// Recorded is how many new alerts were stored.
	Recorded int
	// NoRules says the analyst has no rule at all (Scores only).
	NoRules bool
	// Complete says every rule was checked: false when the memberships a
	// folder or portfolio rule needs could not be had, so a later check
	// must repeat this one.
	Complete bool
}

// Applies reports whether rule r is about business id: a rule on the
// business itself, on a folder holding it, or on the portfolio when a
// folder holds it (or, fromPortfolio, when the series are the portfolio's
// own histories, where every business is in the portfolio).
func Applies(r store.RuleSpec, id int32, folders map[int32][]int, fromPortfolio bool) bool {
	switch r.Scope {
	case store.ScopeBusiness:
		return r.BusinessID == id
	case store.ScopeFolder:
		return slices.Contains(folders[id], r.FolderID)
	case store.ScopePortfolio:
		return fromPortfolio || len(folders[id]) > 0
	}
	return false
}

// NeedsMembers reports a rule that needs the folders' memberships: one on
// a folder, or one on the portfolio checked against a report's scores.
func NeedsMembers(rules []store.Rule, fromPortfolio bool) bool {
	return slices.ContainsFunc(rules, func(r store.Rule) bool {
		return r.Scope == store.ScopeFolder || (r.Scope == store.ScopePortfolio && !fromPortfolio)
	})
}

// Evaluate returns the firings of rules on series; folders and
// fromPortfolio say which rules are about which business (see Applies).
func Evaluate(rules []store.Rule, series []credit.ScoreSeries, folders map[int32][]int, fromPortfolio bool) []store.Triggered {
	var out []store.Triggered
	for _, r := range rules {
		for _, s := range series {
			if !Applies(r.RuleSpec, s.BusinessID, folders, fromPortfolio) || !credit.Fires(r.RuleSpec, s) {
				continue
			}
			t := store.Triggered{RuleID: r.ID, BusinessID: s.BusinessID, BusinessName: s.BusinessName,
				Year: s.Latest.Year, Month: time.Month(s.Latest.Month), New: s.Latest.Value}
			if s.Latest.Prev != nil {
				old := *s.Latest.Prev
				t.Old = &old
			}
			out = append(out, t)
		}
	}
	return out
}

// Scores checks the analyst's rules against score series that just
// arrived and records what fires. fromPortfolio says the series are the
// portfolio's own histories.
func Scores(ctx context.Context, st Store, a store.Analyst, series []credit.ScoreSeries, fromPortfolio bool, members Members) (Result, error) {
	if len(series) == 0 {
		return Result{Complete: true}, nil
	}
	rules, err := st.Rules(ctx, a)
	if err != nil {
		return Result{}, fmt.Errorf("alerts: rules: %w", err)
	}
	if len(rules) == 0 {
		return Result{NoRules: true, Complete: true}, nil
	}
	res := Result{Complete: true}
	var folders map[int32][]int
	if NeedsMembers(rules, fromPortfolio) {
		folders, res.Complete = members()
	}
	return record(ctx, st, a, Evaluate(rules, series, folders, fromPortfolio), res)
}

// EvaluateDivergence returns the firings of the divergence rules on one
// business's payment summaries; own is the analyst's own supplier
// category for rules that follow it ("" when not set: those rules wait).
func EvaluateDivergence(rules []store.Rule, id int32, name, own string, monthly, sic []upstream.PaymentSummaryRow, folders map[int32][]int) []store.Triggered {
	var out []store.Triggered
	for _, r := range rules {
		if r.Condition != store.Divergence || !Applies(r.RuleSpec, id, folders, false) {
			continue
		}
		code := r.Category
		if code == "" {
			code = own
		}
		cat := credit.MatchCategory(sic, code)
		if cat == "" {
			continue
		}
		ch, ok := credit.NewDivergence(monthly, sic, cat).Change()
		if !ok || !credit.Diverges(r.RuleSpec, ch) {
			continue
		}
		old := float64(ch.CategoryFrom)
		year, month := ch.ToMonth()
		out = append(out, store.Triggered{RuleID: r.ID, BusinessID: id, BusinessName: name,
			Year: year, Month: month, Old: &old, New: float64(ch.CategoryTo)})
	}
	return out
}

// Payments checks the analyst's divergence rules against a payments tab's
// monthly and SIC summaries that just arrived, and records what fires.
// own is asked for the analyst's own supplier category only when a rule
// follows it.
func Payments(ctx context.Context, st Store, a store.Analyst, id int32, name string, monthly, sic []upstream.PaymentSummaryRow, own func() string, members Members) (Result, error) {
	rules, err := st.Rules(ctx, a)
	if err != nil {
		return Result{}, fmt.Errorf("alerts: rules: %w", err)
	}
	res := Result{Complete: true}
	rules = slices.DeleteFunc(rules, func(r store.Rule) bool { return r.Condition != store.Divergence })
	if len(rules) == 0 {
		return res, nil
	}
	code := ""
	if slices.ContainsFunc(rules, func(r store.Rule) bool { return r.Category == "" }) {
		code = own()
	}
	var folders map[int32][]int
	if NeedsMembers(rules, false) {
		folders, res.Complete = members()
	}
	return record(ctx, st, a, EvaluateDivergence(rules, id, name, code, monthly, sic, folders), res)
}

// record stores the firings; a failing store loses this check only.
func record(ctx context.Context, st Store, a store.Analyst, fired []store.Triggered, res Result) (Result, error) {
	if len(fired) == 0 {
		return res, nil
	}
	n, err := st.RecordAlerts(ctx, a, fired)
	if err != nil {
		return Result{}, fmt.Errorf("alerts: record: %w", err)
	}
	res.Recorded = n
	return res, nil
}
