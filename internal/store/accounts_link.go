package store

import (
	"context"
	"database/sql"
	"errors"
	"strconv"
)

// ErrAlreadyLinked refuses a link by hand to an account that has one: a
// link is changed by no one silently, and this form only fills a gap.
var ErrAlreadyLinked = errors.New("store: the account is already linked to a business")

// LinkAccountByHand links a not-linked account to the business an analyst
// chose (issue 43.3: a name the import could not link for sure), audited
// with who, which account and business, and when. ErrNotFound when the
// team has no such account; ErrAlreadyLinked when it is linked already.
// name is the business's name as the service gave it, kept in the audit.
func (s *Store) LinkAccountByHand(ctx context.Context, a Analyst, account string, business int32, name string) error {
	ctx, cancel := s.bound(ctx)
	defer cancel()
	a, err := team(a)
	if err != nil {
		return err
	}
	if err := checkBusiness(business); err != nil {
		return err
	}
	return s.teamWriteOf(ctx, a.Service, "link account by hand", touchAccounts(account), func(tx *sql.Tx) error {
		var current int64
		err := tx.QueryRowContext(ctx, `SELECT business_id FROM team_accounts WHERE service = $1 AND account = $2`,
			a.Service, account).Scan(&current)
		if errors.Is(err, sql.ErrNoRows) {
			return ErrNotFound
		}
		if err != nil {
			return err
		}
		if current != 0 {
			return ErrAlreadyLinked
		}
		// business_id = 0 again: another analyst linking it meanwhile wins.
		res, err := tx.ExecContext(ctx, `UPDATE team_accounts SET business_id = $3, updated_at = $4, updated_by = $5
			WHERE service = $1 AND account = $2 AND business_id = 0`, a.Service, account, int64(business), s.stamp(), a.User)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return ErrAlreadyLinked
		}
		reason := "linked by hand"
		if name = tidyName(name); name != "" {
			reason += " to " + name
		}
		_, err = s.appendAuditTx(ctx, tx, a.Service, AuditChange{Actor: a.User, Action: AuditActionLink, Account: account,
			BusinessID: business, NewValue: strconv.FormatInt(int64(business), 10), Reason: reason})
		return err
	})
}
