package store

import (
	"context"
	"database/sql"
	"math"
	"strings"
	"time"
	"unicode/utf8"
)

// Reviews of the team's accounts (issue 27): each kept, the latest read by
// the schedule, each logged in the audit trail with the one before.

// AuditActionReview is an account reviewed.
const AuditActionReview = "review"

// ReviewOutcomes are what a review may conclude.
var ReviewOutcomes = []string{"keep", "reduce", "hold", "increase"}

// Review is an account's review as kept.
type Review struct {
	Account string
	At      time.Time
	By      string
	Outcome string
	Note    string
	// Band and Over90 are the Risk band (0 none) and the 91+ days share
	// when reviewed.
	Band   int
	Over90 float64
	// StatementYear is the newest statement year known of the business
	// when reviewed (0 none).
	StatementYear int
}

// RecordReview keeps a review of the team's account and logs it with the
// previous outcome; ErrNotFound when the team has no such account.
func (s *Store) RecordReview(ctx context.Context, a Analyst, r Review) (Review, error) {
	ctx, cancel := s.bound(ctx)
	defer cancel()
	a, err := team(a)
	if err != nil {
		return r, err
	}
	r.Account, r.Note, r.By = strings.TrimSpace(r.Account), strings.TrimSpace(r.Note), a.User
	valid := false
	for _, o := range ReviewOutcomes {
		valid = valid || o == r.Outcome
	}
	switch {
	case !valid:
		return r, invalid("outcome", "the outcome is one of keep, reduce, hold or increase")
	case utf8.RuneCountInString(r.Note) > MaxRequestReasonLen || !cleanText(r.Note):
		return r, invalid("note", "the note is text of at most %s characters", grouped(MaxRequestReasonLen))
	case r.Band < 0 || r.Band > 10 || math.IsNaN(r.Over90) || r.Over90 < 0 || r.Over90 > 1e6:
		return r, invalid("band", "not a Risk band and 91+ share")
	case r.StatementYear != 0 && !checkYear(r.StatementYear):
		return r, invalid("statement_year", "not a statement year")
	}
	err = s.teamWriteOf(ctx, a.Service, "record review", touchAccounts(r.Account), func(tx *sql.Tx) error {
		var business int64
		err := tx.QueryRowContext(ctx, "SELECT business_id FROM team_accounts WHERE service = $1 AND account = $2", a.Service, r.Account).Scan(&business)
		if err == sql.ErrNoRows {
			return ErrNotFound
		}
		if err != nil {
			return err
		}
		old := ""
		var at int64
		var outcome string
		err = tx.QueryRowContext(ctx, `SELECT reviewed_at, outcome FROM account_reviews WHERE service = $1 AND account = $2
			ORDER BY reviewed_at DESC, id DESC LIMIT 1`, a.Service, r.Account).Scan(&at, &outcome)
		switch {
		case err == nil:
			old = outcome + " on " + fromStamp(at).Format(DateLayout)
		case err != sql.ErrNoRows:
			return err
		}
		now := s.stamp()
		r.At = fromStamp(now)
		if _, err := tx.ExecContext(ctx, `INSERT INTO account_reviews (id, service, account, reviewed_at, reviewed_by, outcome, note, band, over_90, statement_year)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`, newID(), a.Service, r.Account, now, a.User, r.Outcome, r.Note, r.Band, r.Over90, r.StatementYear); err != nil {
			return err
		}
		_, err = s.appendAuditTx(ctx, tx, a.Service, AuditChange{Actor: a.User, Action: AuditActionReview, Account: r.Account,
			BusinessID: int32(business), OldValue: old, NewValue: r.Outcome, Reason: r.Note})
		return err
	})
	return r, err
}

// LastReviews are the latest review of each of the team's accounts.
func (s *Store) LastReviews(ctx context.Context, a Analyst) (map[string]Review, error) {
	ctx, cancel := s.bound(ctx)
	defer cancel()
	a, err := team(a)
	if err != nil {
		return nil, err
	}
	rows, err := s.r.QueryContext(ctx, `SELECT account, reviewed_at, reviewed_by, outcome, note, band, over_90, statement_year FROM account_reviews
		WHERE service = $1 ORDER BY reviewed_at, id`, a.Service)
	if err != nil {
		return nil, wrap("last reviews", err)
	}
	defer rows.Close()
	out := map[string]Review{}
	for rows.Next() {
		var r Review
		var at int64
		if err := rows.Scan(&r.Account, &at, &r.By, &r.Outcome, &r.Note, &r.Band, &r.Over90, &r.StatementYear); err != nil {
			return nil, wrap("last reviews", err)
		}
		r.At = fromStamp(at)
		out[r.Account] = r // later rows replace earlier ones
	}
	return out, wrap("last reviews", rows.Err())
}

// LastLimitChanges are when each account's credit limit last changed, as
// the team's audit trail records it (set by an import or an approval).
func (s *Store) LastLimitChanges(ctx context.Context, team string) (map[string]time.Time, error) {
	ctx, cancel := s.bound(ctx)
	defer cancel()
	t, err := teamKey(team)
	if err != nil {
		return nil, err
	}
	rows, err := s.r.QueryContext(ctx, `SELECT account, MAX(at) FROM audit_entries WHERE team = $1 AND action = $2 AND account <> ''
		GROUP BY account`, t, AuditActionLimit)
	if err != nil {
		return nil, wrap("limit changes", err)
	}
	defer rows.Close()
	out := map[string]time.Time{}
	for rows.Next() {
		var account string
		var at int64
		if err := rows.Scan(&account, &at); err != nil {
			return nil, wrap("limit changes", err)
		}
		out[account] = fromStamp(at)
	}
	return out, wrap("limit changes", rows.Err())
}
