package store

import (
	"context"
	"database/sql"
	"fmt"
	"iter"
	"strconv"
	"strings"
	"unicode/utf8"
)

// The account's record (issue 43): identity, link, limit in force, owner,
// status, with the calculator inputs, reviews and known scores keyed by
// it. Ledgers only add dated lines to it; an account is never dropped
// with a ledger, and one can be added by hand for a customer no ledger
// holds yet.

// NewAccount is an account added by hand.
type NewAccount struct {
	// Account is the team's own customer number, unique in the team.
	Account    string
	Name       string
	BusinessID int32
	Owner      string
	// Reason is why it is added, kept in the audit trail.
	Reason string
}

// AddAccount adds an account to the team's record by hand, linked to a
// business, with no ledger line and no limit: a request for a new
// customer then has an account. Audited. A number the record already
// holds is refused (ValidationError), as is a team at MaxAccounts.
func (s *Store) AddAccount(ctx context.Context, a Analyst, n NewAccount) error {
	ctx, cancel := s.bound(ctx)
	defer cancel()
	a, err := team(a)
	if err != nil {
		return err
	}
	l := LedgerLine{Account: n.Account, Name: n.Name, BusinessID: n.BusinessID, Owner: n.Owner}
	if err := checkLine(&l); err != nil {
		return err
	}
	switch {
	case l.Name == "":
		return invalid("name", "the customer's name is required")
	case utf8.RuneCountInString(l.Name) > 200:
		return invalid("name", "the name is longer than 200 characters")
	}
	if err := checkBusiness(l.BusinessID); err != nil {
		return err
	}
	if n.Reason, err = checkReason("reason", n.Reason); err != nil {
		return err
	}
	return s.teamWrite(ctx, a.Service, "add account", func(tx *sql.Tx) error {
		var count int
		var taken bool
		if err := tx.QueryRowContext(ctx, "SELECT COUNT(*), COALESCE(MAX(CASE WHEN account = $2 THEN 1 ELSE 0 END), 0) = 1 FROM team_accounts WHERE service = $1",
			a.Service, l.Account).Scan(&count, &taken); err != nil {
			return err
		}
		if taken {
			return invalid("account", "the team already has an account %s", l.Account)
		}
		if count >= MaxAccounts {
			return ErrAccountsFull
		}
		now := s.stamp()
		// as_of '' is older than any ledger: the first ledger listing the
		// account may still give its name and identifiers.
		if _, err := tx.ExecContext(ctx, accountInsert+"($1, $2, $3, $4, $5, '', '', $6, '', $7, $8, $7, $8)",
			newID(), a.Service, l.Account, l.Name, int64(l.BusinessID), l.Owner, now, a.User); err != nil {
			return err
		}
		_, err := s.appendAuditTx(ctx, tx, a.Service, AuditChange{Actor: a.User, Action: AuditActionAccount, Account: l.Account,
			BusinessID: l.BusinessID, NewValue: accountText(l.Name, l.Owner), Reason: "added by hand: " + n.Reason})
		return err
	})
}

// recordMoves writes the audit entries of the limits migration 00015
// moved into the records (listed in record_moves), one per account, and
// empties the list, team by team, each in one transaction: the audit
// chain is the store's to write. A replica finding the list empty does
// nothing; two at once both take the DELETE's row locks, so one writes.
func (s *Store) recordMoves(ctx context.Context) error {
	rows, err := s.w.QueryContext(ctx, "SELECT DISTINCT service FROM record_moves")
	if err != nil {
		return fmt.Errorf("store: record moves: %w", err)
	}
	var services []string
	for rows.Next() {
		var sv string
		if err := rows.Scan(&sv); err != nil {
			rows.Close()
			return fmt.Errorf("store: record moves: %w", err)
		}
		services = append(services, sv)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return fmt.Errorf("store: record moves: %w", err)
	}
	for _, sv := range services {
		if _, err := teamKey(sv); err != nil {
			continue // not a team the log can hold; nothing of it is shown
		}
		err := s.teamWrite(ctx, sv, "record moves", func(tx *sql.Tx) error {
			type move struct {
				account, source string
				business        int64
				limit           float64
			}
			var moves []move
			rows, err := tx.QueryContext(ctx, "DELETE FROM record_moves WHERE service = $1 RETURNING account, business_id, credit_limit, source", sv)
			if err != nil {
				return err
			}
			for rows.Next() {
				var m move
				if err := rows.Scan(&m.account, &m.business, &m.limit, &m.source); err != nil {
					rows.Close()
					return err
				}
				moves = append(moves, m)
			}
			rows.Close()
			if err := rows.Err(); err != nil {
				return err
			}
			seq := iter.Seq[AuditChange](func(yield func(AuditChange) bool) {
				for _, m := range moves {
					business := int32(0)
					if m.business > 0 && m.business <= 1<<31-1 {
						business = int32(m.business)
					}
					if !yield(AuditChange{Actor: "migration", Action: AuditActionLimit, Account: strings.TrimSpace(m.account), BusinessID: business,
						NewValue: strconv.FormatFloat(m.limit, 'f', -1, 64),
						Reason:   "migration 00015: the limit in force moved into the account's record, from " + m.source}) {
						return
					}
				}
			})
			return s.appendAuditSeq(ctx, tx, sv, seq, nil)
		})
		if err != nil {
			return err
		}
	}
	return nil
}
