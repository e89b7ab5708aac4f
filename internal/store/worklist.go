package store

import (
	"context"
	"database/sql"
	"time"
)

// The worklist's candidates (issue 27). The worklist names every account
// that needs something: over its limit, a limit the calculator no longer
// supports, a review overdue or due, a hold advised, a decision waiting.
// The exact reasons are worked out in Go (internal/credit, with the same
// functions /reviews and /accounts use); this query only keeps the
// database from handing over the accounts that cannot have any, with
// conditions that are each looser than the rule they stand for, so it
// never drops an account that needs something.

// WorkCandidate is an account of the newest ledger that may need
// something, with what deciding that takes.
type WorkCandidate struct {
	Account, Name, Owner string
	BusinessID           int32
	Balance, DaysOver90  float64
	// Limit is the credit limit, nil when the ledger gives none.
	Limit *float64
	// Inputs are the calculator inputs saved, nil when none were.
	Inputs *LimitInputs
	// Risk and Z are the latest known scores, nil when none are known.
	Risk, Z *float64
	// LastReview is the account's latest review, nil when never reviewed.
	LastReview *Review
	// StatementYear is the newest statement year known of the business (0
	// none).
	StatementYear int
	// Waiting is how many of the account's pending requests the reader may
	// decide.
	Waiting int
}

// WorklistQuery is whom the candidates are read for.
type WorklistQuery struct {
	// ReviewedBefore: an account last reviewed before it may be due (the
	// shortest interval before the end of the week ahead).
	ReviewedBefore time.Time
	// HoldBelow is the Risk score under which a hold may be advised
	// (scores round to bands); OverdueShare the 91+ share above which it
	// is.
	HoldBelow, OverdueShare float64
	// Authority is the reader's: pending requests of others within it
	// are theirs to decide (none when 0).
	Authority float64
}

// worklistSQL reads the newest ledger's candidates. The latest review of
// each account is the one with the largest reviewed_at (stamps of one
// team's writes only move forward). What is known per business (scores,
// statement year), per account (latest review, calculator inputs) and the
// requests waiting are each read once into a derived table, so each line
// costs one lookup in each (and none where SQLite's Bloom filter knows
// there is no row) instead of two per score and per review.
const worklistSQL = `SELECT t.account, t.name, t.owner, t.business_id, l.balance, l.days_over_90, l.credit_limit,
	i.monthly_sales, i.months_allowed, i.loss_budget, i.sheet_cap,
	k.risk, k.z, r.reviewed_at, r.reviewed_by, r.outcome, r.band, r.over_90, r.statement_year,
	COALESCE(k.year, 0), COALESCE(w.n, 0)
	FROM ledger_lines l CROSS JOIN team_accounts t
	LEFT JOIN (SELECT i.account_id, i.monthly_sales, i.months_allowed, i.loss_budget, i.sheet_cap FROM limit_inputs i
		JOIN team_accounts ta ON ta.id = i.account_id WHERE ta.service = $1) i ON i.account_id = t.id
	LEFT JOIN (SELECT b.business_id, MAX(b.risk) AS risk, MAX(b.z) AS z, MAX(b.year) AS year FROM (
			SELECT business_id, CASE WHEN score = 'risk' THEN value END AS risk, CASE WHEN score = 'z' THEN value END AS z, 0 AS year
				FROM team_scores WHERE service = $1 AND score IN ('risk', 'z')
			UNION ALL SELECT business_id, NULL, NULL, year FROM team_statement_years WHERE service = $1) b
		GROUP BY b.business_id) k ON k.business_id = t.business_id AND t.business_id <> 0
	LEFT JOIN (SELECT r.account, r.reviewed_at, r.reviewed_by, r.outcome, r.band, r.over_90, r.statement_year FROM account_reviews r
		JOIN (SELECT account, MAX(reviewed_at) AS at FROM account_reviews WHERE service = $1 GROUP BY account) m
			ON m.account = r.account AND m.at = r.reviewed_at
		WHERE r.service = $1) r ON r.account = t.account
	LEFT JOIN (SELECT account, COUNT(*) AS n FROM limit_requests WHERE service = $1 AND status = 'pending' AND requested_by <> $3 AND amount <= $4
		GROUP BY account) w ON w.account = t.account
	WHERE ` + ledgerDate + ` AND (
		r.reviewed_at IS NULL OR r.reviewed_at < $5
		OR (l.credit_limit IS NOT NULL AND (l.balance > l.credit_limit OR i.account_id IS NOT NULL))
		OR (l.balance > 0 AND l.days_over_90 > $7 * l.balance)
		OR k.risk < $6
		OR (k.risk IS NOT NULL AND r.band > 0 AND k.risk < r.band)
		OR k.year > r.statement_year
		OR w.n > 0)`

// Worklist reads the candidates of the team's newest ledger, in no
// particular order; none when the team has no ledger.
func (s *Store) Worklist(ctx context.Context, a Analyst, q WorklistQuery) ([]WorkCandidate, error) {
	ctx, cancel := s.bound(ctx)
	defer cancel()
	a, err := team(a)
	if err != nil {
		return nil, err
	}
	rows, err := s.r.QueryContext(ctx, worklistSQL, a.Service, "", a.User, q.Authority, q.ReviewedBefore.UnixMicro(), q.HoldBelow, q.OverdueShare)
	if err != nil {
		return nil, wrap("worklist", err)
	}
	defer rows.Close()
	var out []WorkCandidate
	for rows.Next() {
		var w WorkCandidate
		var business int64
		var limit, sales, months, budget, sheet, risk, z, over90 sql.NullFloat64
		var at, band, year sql.NullInt64
		var by, outcome sql.NullString
		if err := rows.Scan(&w.Account, &w.Name, &w.Owner, &business, &w.Balance, &w.DaysOver90, &limit,
			&sales, &months, &budget, &sheet, &risk, &z, &at, &by, &outcome, &band, &over90, &year,
			&w.StatementYear, &w.Waiting); err != nil {
			return nil, wrap("worklist", err)
		}
		w.BusinessID = int32(business)
		w.Limit, w.Risk, w.Z = nullable(limit), nullable(risk), nullable(z)
		if sales.Valid {
			w.Inputs = &LimitInputs{MonthlySales: sales.Float64, MonthsAllowed: months.Float64, LossBudget: budget.Float64, SheetCap: nullable(sheet)}
		}
		if at.Valid {
			w.LastReview = &Review{Account: w.Account, At: fromStamp(at.Int64), By: by.String, Outcome: outcome.String,
				Band: int(band.Int64), Over90: over90.Float64, StatementYear: int(year.Int64)}
		}
		out = append(out, w)
	}
	return out, wrap("worklist", rows.Err())
}

// nullable is a read number, nil when NULL.
func nullable(v sql.NullFloat64) *float64 {
	if !v.Valid {
		return nil
	}
	return &v.Float64
}
