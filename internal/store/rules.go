package store

import (
	"context"
	"database/sql"
	"math"
	"slices"
	"time"
)

// MaxRules is how many alert rules one analyst can keep.
const MaxRules = 200

// Scope is what a rule watches.
type Scope string

// The scopes.
const (
	ScopeBusiness  Scope = "business"  // one business (RuleSpec.BusinessID)
	ScopeFolder    Scope = "folder"    // the businesses of one portfolio folder (RuleSpec.FolderID)
	ScopePortfolio Scope = "portfolio" // every business in the portfolio
	// ScopeAccounts watches the team's accounts in the newest ledger, by
	// their balance and limit (the account conditions); it has no score.
	ScopeAccounts Scope = "accounts"
)

// Condition is when a rule fires.
type Condition string

// The conditions.
const (
	// Below fires when the score is below Threshold.
	Below Condition = "below"
	// Above fires when the score is above Threshold.
	Above Condition = "above"
	// Fall fires when the score worsens by at least Threshold points from
	// one month to the next (for DBT, a rise of that many days).
	Fall Condition = "fall"
	// WorseZone fires when the score enters a worse zone; it has no
	// threshold.
	WorseZone Condition = "worse_zone"
	// Divergence fires when the DBT toward one supplier category
	// (RuleSpec.Category) rose by at least Threshold days over the last
	// three reported months while the overall DBT moved by less than
	// RuleSpec.Steady days: a buyer paying the suppliers it cannot do
	// without and letting the others wait. Its score is always DBT.
	Divergence Condition = "divergence"
	// OverLimit fires on an account whose balance is above its limit in
	// force; it has no threshold.
	OverLimit Condition = "over_limit"
	// Over90Above fires on an account whose share of balance over 90 days
	// is above Threshold percent.
	Over90Above Condition = "over90_above"
	// UtilAbove fires on an account whose utilisation (balance / limit) is
	// above Threshold percent.
	UtilAbove Condition = "util_above"
)

// MaxUtilThreshold is the highest utilisation a rule may watch for, in
// percent: ten times the limit is already far past any review.
const MaxUtilThreshold = 1000

// IsAccountCondition reports a condition on an account's balance and
// limit, which only a rule of ScopeAccounts can have.
func IsAccountCondition(c Condition) bool {
	return c == OverLimit || c == Over90Above || c == UtilAbove
}

// Divergence rules' defaults: a rise of 10 days toward the category while
// the overall DBT moves less than 3.
const (
	DefaultDivergenceRise   = 10
	DefaultDivergenceSteady = 3
)

// RuleSpec is a rule as the form describes it.
type RuleSpec struct {
	Scope      Scope
	BusinessID int32 // set for ScopeBusiness only
	FolderID   int   // set for ScopeFolder only
	// TargetName is the business's or folder's name as the form showed it,
	// so /alerts can name what the rule is on without a service call.
	TargetName string
	Score      Score
	Condition  Condition
	// Threshold is the score value for Below and Above, the number of
	// points for Fall, the days of rise for Divergence, and zero for
	// WorseZone.
	Threshold float64
	// Category is a Divergence rule's supplier SIC code; "" means the
	// analyst's own category, as set in settings when the rule is checked.
	Category string
	// Steady is how many days the overall DBT must move less than for a
	// Divergence rule to fire; zero for the other conditions.
	Steady float64
}

// Rule is a stored alert rule.
type Rule struct {
	ID int64
	RuleSpec
	Created time.Time
}

// AppliesTo reports whether the rule watches a business that sits in the
// given folders of the portfolio (none if it is not in the portfolio).
func (r RuleSpec) AppliesTo(business int32, folders ...int) bool {
	switch r.Scope {
	case ScopeBusiness:
		return r.BusinessID == business
	case ScopeFolder:
		return slices.Contains(folders, r.FolderID)
	case ScopePortfolio:
		return len(folders) > 0
	}
	// An accounts rule watches ledgers, not businesses' scores.
	return false
}

// AddRule validates and stores a rule; a threshold outside the score's
// range is a *ValidationError on "threshold".
func (s *Store) AddRule(ctx context.Context, a Analyst, spec RuleSpec) (Rule, error) {
	ctx, cancel := s.bound(ctx)
	defer cancel()
	spec, err := checkRule(spec)
	if err != nil {
		return Rule{}, err
	}
	now := s.stamp()
	r := Rule{ID: newID(), RuleSpec: spec, Created: fromStamp(now)}
	err = s.write(ctx, a, "add rule", func(tx *sql.Tx, id int64) error {
		n, err := count(ctx, tx, "rules", id)
		if err != nil {
			return err
		}
		if n >= MaxRules {
			return ErrRulesFull
		}
		// A second click, or the same rule from two tabs, would fire every
		// alert twice.
		var same int
		if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM rules WHERE analyst_id = $1 AND scope = $2
			AND business_id = $3 AND folder_id = $4 AND score = $5 AND cond = $6 AND threshold = $7 AND category = $8 AND steady = $9`,
			id, string(spec.Scope), spec.BusinessID, spec.FolderID, string(spec.Score), string(spec.Condition), spec.Threshold,
			spec.Category, spec.Steady).Scan(&same); err != nil {
			return err
		}
		if same > 0 {
			return invalid("rule", "you already have this rule")
		}
		_, err = tx.ExecContext(ctx, `INSERT INTO rules (id, analyst_id, scope, business_id, folder_id, target_name, score, cond, threshold, created_at, category, steady)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)`,
			r.ID, id, string(spec.Scope), spec.BusinessID, spec.FolderID, spec.TargetName,
			string(spec.Score), string(spec.Condition), spec.Threshold, now, spec.Category, spec.Steady)
		return err
	})
	if err != nil {
		return Rule{}, err
	}
	return r, nil
}

// Rules are the analyst's rules, newest first.
func (s *Store) Rules(ctx context.Context, a Analyst) ([]Rule, error) {
	ctx, cancel := s.bound(ctx)
	defer cancel()
	a, err := a.key()
	if err != nil {
		return nil, err
	}
	rows, err := s.r.QueryContext(ctx, `SELECT id, scope, business_id, folder_id, target_name, score, cond, threshold, created_at, category, steady
		FROM rules WHERE analyst_id = `+analystID+` ORDER BY created_at DESC, id DESC`, a.Service, a.User)
	if err != nil {
		return nil, wrap("rules", err)
	}
	defer rows.Close()
	var out []Rule
	for rows.Next() {
		var r Rule
		var at int64
		if err := rows.Scan(&r.ID, &r.Scope, &r.BusinessID, &r.FolderID, &r.TargetName,
			&r.Score, &r.Condition, &r.Threshold, &at, &r.Category, &r.Steady); err != nil {
			return nil, wrap("rules", err)
		}
		r.Created = fromStamp(at)
		out = append(out, r)
	}
	return out, wrap("rules", rows.Err())
}

// DeleteRule deletes one of the analyst's rules and the alerts it raised;
// another analyst's rule is ErrNotFound.
func (s *Store) DeleteRule(ctx context.Context, a Analyst, rule int64) error {
	ctx, cancel := s.bound(ctx)
	defer cancel()
	return s.write(ctx, a, "delete rule", func(tx *sql.Tx, id int64) error {
		// Explicit rather than relying on the foreign key's cascade, which
		// SQLite honours only with foreign_keys on.
		if _, err := tx.ExecContext(ctx, "DELETE FROM alerts WHERE rule_id = $1 AND analyst_id = $2", rule, id); err != nil {
			return err
		}
		return deleteOwned(ctx, tx, "rules", rule, id)
	})
}

// CheckRule validates a rule as AddRule would, without storing it (a
// back-test replays only what could be saved), and returns it tidied.
func CheckRule(spec RuleSpec) (RuleSpec, error) { return checkRule(spec) }

// checkRule refuses a rule that is incomplete or could never fire and
// clears the fields its scope and condition do not use.
func checkRule(r RuleSpec) (RuleSpec, error) {
	r.TargetName = tidyName(r.TargetName)
	switch r.Scope {
	case ScopeBusiness:
		if err := checkBusiness(r.BusinessID); err != nil {
			return r, err
		}
		r.FolderID = 0
	case ScopeFolder:
		if r.FolderID <= 0 {
			return r, invalid("folder", "choose a folder")
		}
		r.BusinessID = 0
	case ScopePortfolio:
		r.BusinessID, r.FolderID = 0, 0
	case ScopeAccounts:
		return checkAccountRule(r)
	default:
		return r, invalid("scope", "choose a business, a folder, the whole portfolio or the team's accounts")
	}
	if IsAccountCondition(r.Condition) {
		return r, invalid("condition", "over limit, share over 90 days and utilisation are conditions on the team's accounts: choose that scope")
	}
	if r.Condition == Divergence {
		return checkDivergence(r)
	}
	r.Category, r.Steady = "", 0
	if !r.Score.Valid() {
		return r, invalid("score", "choose Risk, Pay, DBT or Z″")
	}
	return r, checkThreshold(&r)
}

// checkThreshold holds the threshold to the score's range.
func checkThreshold(r *RuleSpec) error {
	lo, hi := r.Score.Range()
	t := r.Threshold
	if math.IsNaN(t) || math.IsInf(t, 0) {
		return invalid("threshold", "the threshold is not a number")
	}
	if r.Score.Whole() && !isWhole(t) && r.Condition != WorseZone {
		return invalid("threshold", "%s scores are whole numbers", r.Score.Name())
	}
	// Z″ is shown with two decimals: a threshold of 1.105 would read "below
	// 1.10" and fire on a value shown as 1.10.
	if c := t * 100; !r.Score.Whole() && math.Abs(c-math.Round(c)) > 1e-6 && r.Condition != WorseZone {
		return invalid("threshold", "%s has two decimals: give the threshold with at most two", r.Score.Name())
	}
	switch r.Condition {
	case Below, Above:
		if t < lo || t > hi {
			return invalid("threshold", "%s runs from %v to %v", r.Score.Name(), lo, hi)
		}
		if (r.Condition == Below && t == lo) || (r.Condition == Above && t == hi) {
			return invalid("threshold", "%s is never %s %v, so the rule would never fire", r.Score.Name(), r.Condition, t)
		}
	case Fall:
		if t <= 0 || t > hi-lo {
			return invalid("threshold", "a fall is more than 0 and at most %v points for %s", hi-lo, r.Score.Name())
		}
	case WorseZone:
		r.Threshold = 0
	default:
		return invalid("condition", "choose below, above, a fall or a worse zone")
	}
	return nil
}

// checkDivergence holds a divergence rule to whole days within DBT's range
// and a supplier category that is a SIC code (or the analyst's own).
func checkDivergence(r RuleSpec) (RuleSpec, error) {
	r.Score = ScoreDBT
	_, hi := r.Score.Range()
	for _, f := range []struct {
		v          float64
		field, say string
	}{{r.Threshold, "threshold", "the rise toward the category"}, {r.Steady, "steady", "the overall DBT's move"}} {
		if math.IsNaN(f.v) || !isWhole(f.v) || f.v < 1 || f.v > hi {
			return r, invalid(f.field, "%s is a whole number of days from 1 to %v", f.say, hi)
		}
	}
	if r.Category != "" && !IsSICCode(r.Category) {
		return r, invalid("category", "a supplier category is a SIC code of 2 to 4 digits, such as 36")
	}
	return r, nil
}

// IsSICCode reports a SIC code: 2 to 4 digits (a major group, an industry
// group or an industry).
func IsSICCode(s string) bool {
	if len(s) < 2 || len(s) > 4 {
		return false
	}
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}

// checkAccountRule holds a rule on the team's accounts to an account
// condition and a percentage it can cross, and clears the score fields.
func checkAccountRule(r RuleSpec) (RuleSpec, error) {
	r.BusinessID, r.FolderID, r.TargetName, r.Score, r.Category, r.Steady = 0, 0, "", "", "", 0
	t := r.Threshold
	switch r.Condition {
	case OverLimit:
		r.Threshold = 0
		return r, nil
	case Over90Above:
		if math.IsNaN(t) || t < 0 || t >= 100 {
			return r, invalid("threshold", "the share over 90 days is a percentage from 0 to below 100")
		}
	case UtilAbove:
		if math.IsNaN(t) || t < 0 || t >= MaxUtilThreshold {
			return r, invalid("threshold", "utilisation is a percentage from 0 to below %d", MaxUtilThreshold)
		}
	default:
		return r, invalid("condition", "choose over limit, share over 90 days above, or utilisation above")
	}
	if c := t * 10; math.Abs(c-math.Round(c)) > 1e-6 {
		return r, invalid("threshold", "give the percentage with at most one decimal, such as 25 or 87.5")
	}
	return r, nil
}
