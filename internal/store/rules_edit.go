package store

import (
	"context"
	"database/sql"
)

// EditRule changes one of the analyst's rules in place, checked as AddRule
// checks a new one; another analyst's rule is ErrNotFound. The alerts the
// rule raised under its old terms are deleted with the change: the alerts
// list describes each alert by its rule, and would otherwise say that a
// Risk of 4 fell "below 3".
func (s *Store) EditRule(ctx context.Context, a Analyst, rule int64, spec RuleSpec) (Rule, error) {
	ctx, cancel := s.bound(ctx)
	defer cancel()
	spec, err := checkRule(spec)
	if err != nil {
		return Rule{}, err
	}
	var r Rule
	err = s.write(ctx, a, "edit rule", func(tx *sql.Tx, id int64) error {
		var at int64
		err := tx.QueryRowContext(ctx, "SELECT created_at FROM rules WHERE id = $1 AND analyst_id = $2", rule, id).Scan(&at)
		if err == sql.ErrNoRows {
			return ErrNotFound
		}
		if err != nil {
			return err
		}
		var same int
		if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM rules WHERE analyst_id = $1 AND id <> $2 AND scope = $3
			AND business_id = $4 AND folder_id = $5 AND score = $6 AND cond = $7 AND threshold = $8 AND category = $9 AND steady = $10`,
			id, rule, string(spec.Scope), spec.BusinessID, spec.FolderID, string(spec.Score), string(spec.Condition), spec.Threshold,
			spec.Category, spec.Steady).Scan(&same); err != nil {
			return err
		}
		if same > 0 {
			return invalid("rule", "you already have this rule")
		}
		if _, err := tx.ExecContext(ctx, "DELETE FROM alerts WHERE rule_id = $1 AND analyst_id = $2", rule, id); err != nil {
			return err
		}
		// Its alerts are gone with its old terms, and so is the memory of
		// the ones pruned from it: the new terms start afresh.
		if _, err := tx.ExecContext(ctx, `UPDATE rules SET scope = $1, business_id = $2, folder_id = $3, target_name = $4,
			score = $5, cond = $6, threshold = $7, category = $8, steady = $9, pruned_month = 0 WHERE id = $10 AND analyst_id = $11`,
			string(spec.Scope), spec.BusinessID, spec.FolderID, spec.TargetName,
			string(spec.Score), string(spec.Condition), spec.Threshold, spec.Category, spec.Steady, rule, id); err != nil {
			return err
		}
		r = Rule{ID: rule, RuleSpec: spec, Created: fromStamp(at)}
		return nil
	})
	if err != nil {
		return Rule{}, err
	}
	return r, nil
}
