package store

import (
	"context"
	"database/sql"
	"sort"
	"time"
)

// InputVersions are the calculator inputs an account was given, every
// version oldest first (migration 00030): the calculator's figures of a
// past day are rebuilt from the version in force then.
type InputVersions []LimitInputs

// At is the version in force at instant t, the newest saved by then; nil
// when none was saved by then.
func (vs InputVersions) At(t time.Time) *LimitInputs {
	i := sort.Search(len(vs), func(i int) bool { return vs[i].SavedAt.After(t) })
	if i == 0 {
		return nil
	}
	return &vs[i-1]
}

// LimitInputHistory is every version of the calculator inputs saved for
// the team's accounts, by account.
func (s *Store) LimitInputHistory(ctx context.Context, a Analyst) (map[string]InputVersions, error) {
	ctx, cancel := s.bound(ctx)
	defer cancel()
	a, err := team(a)
	if err != nil {
		return nil, err
	}
	rows, err := s.r.QueryContext(ctx, `SELECT t.account, i.monthly_sales, i.months_allowed, i.loss_budget, i.sheet_cap, i.saved_at, i.saved_by
		FROM limit_input_versions i JOIN team_accounts t ON t.id = i.account_id
		WHERE t.service = $1 ORDER BY t.account, i.version`, a.Service)
	if err != nil {
		return nil, wrap("limit input history", err)
	}
	defer rows.Close()
	out := map[string]InputVersions{}
	for rows.Next() {
		var account string
		var in LimitInputs
		var sheet sql.NullFloat64
		var saved int64
		if err := rows.Scan(&account, &in.MonthlySales, &in.MonthsAllowed, &in.LossBudget, &sheet, &saved, &in.SavedBy); err != nil {
			return nil, wrap("limit input history", err)
		}
		if sheet.Valid {
			in.SheetCap = &sheet.Float64
		}
		in.SavedAt = fromStamp(saved)
		out[account] = append(out[account], in)
	}
	return out, wrap("limit input history", rows.Err())
}
