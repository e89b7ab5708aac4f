package store

import (
	"context"
	"database/sql"
	"strings"
	"unicode/utf8"
)

// Owners of the team's accounts (issue 27): who works each account on the
// worklist. Assigned one account or several at once; every change is
// appended to the team's audit trail in the transaction that makes it.

// AuditActionOwner is an account's owner assigned or cleared.
const AuditActionOwner = "owner"

// MaxOwnerBatch bounds the accounts one assignment names: a page of the
// worklist and then some.
const MaxOwnerBatch = 200

// maxAssignedOwnerLen bounds an owner assigned here: a user name as the
// sign-in form accepts it.
const maxAssignedOwnerLen = 64

// ValidUserName reports whether name is a user name as one signs in with:
// 1 to 64 letters, digits and . _ - @ +. An account's owner is one,
// whether assigned on the worklist or read from a ledger.
func ValidUserName(name string) bool {
	if name == "" || len(name) > maxAssignedOwnerLen {
		return false
	}
	for _, r := range name {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("._-@+", r)) {
			return false
		}
	}
	return true
}

// AssignOwner makes owner ("" clears it) the owner of each named account
// of the team and logs each change with the previous owner and reason;
// accounts that already had that owner are left alone. It reports how
// many changed; ErrNotFound when an account is not the team's (nothing
// changes then).
func (s *Store) AssignOwner(ctx context.Context, a Analyst, accounts []string, owner, reason string) (int, error) {
	ctx, cancel := s.bound(ctx)
	defer cancel()
	a, err := team(a)
	if err != nil {
		return 0, err
	}
	owner, reason = strings.TrimSpace(owner), strings.TrimSpace(reason)
	switch {
	case len(accounts) == 0:
		return 0, invalid("account", "name at least one account")
	case len(accounts) > MaxOwnerBatch:
		return 0, invalid("account", "at most %s accounts at once", grouped(MaxOwnerBatch))
	case owner != "" && !ValidUserName(owner):
		return 0, invalid("owner", "an owner is a user name of at most %d characters", maxAssignedOwnerLen)
	case utf8.RuneCountInString(reason) > MaxRequestReasonLen || !cleanText(reason):
		return 0, invalid("reason", "the reason is text of at most %s characters", grouped(MaxRequestReasonLen))
	}
	changed := 0
	touched := touchNone()
	err = s.teamWriteOf(ctx, a.Service, "assign owner", touched, func(tx *sql.Tx) error {
		seen := make(map[string]bool, len(accounts))
		var entries []AuditChange
		for _, acct := range accounts {
			acct = strings.TrimSpace(acct)
			if seen[acct] {
				continue
			}
			seen[acct] = true
			var business int64
			var was string
			err := tx.QueryRowContext(ctx, "SELECT business_id, owner FROM team_accounts WHERE service = $1 AND account = $2",
				a.Service, acct).Scan(&business, &was)
			if err == sql.ErrNoRows {
				return ErrNotFound
			}
			if err != nil {
				return err
			}
			if was == owner {
				continue
			}
			if _, err := tx.ExecContext(ctx, "UPDATE team_accounts SET owner = $3, updated_at = $4, updated_by = $5 WHERE service = $1 AND account = $2",
				a.Service, acct, owner, s.stamp(), a.User); err != nil {
				return err
			}
			touched.Accounts = append(touched.Accounts, acct)
			entries = append(entries, AuditChange{Actor: a.User, Action: AuditActionOwner, Account: acct, BusinessID: int32(business),
				OldValue: was, NewValue: owner, Reason: reason})
		}
		changed = len(entries)
		if len(entries) == 0 {
			return nil
		}
		_, err := s.appendAuditTx(ctx, tx, a.Service, entries...)
		return err
	})
	if err != nil {
		return 0, err
	}
	return changed, nil
}
