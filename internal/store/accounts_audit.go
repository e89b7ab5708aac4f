package store

import (
	"context"
	"database/sql"
	"fmt"
	"iter"
	"strconv"
	"strings"
)

// The team's account changes in its audit trail (issue 27): an import,
// every credit limit it sets or changes, a link made to a business and the
// calculator's inputs saved, each appended inside the transaction that
// writes the change, so the change and its entry commit together.

// The actions account changes are logged under.
const (
	// AuditActionImport is a ledger imported: its date, file and counts.
	AuditActionImport = "ledger-import"
	// AuditActionLimit is an account's credit limit set or changed.
	AuditActionLimit = "limit"
	// AuditActionLimitInputs is the calculator's inputs saved for an account.
	AuditActionLimitInputs = "limit-inputs"
	// AuditActionLink is an account linked to the service's business.
	AuditActionLink = "account-link"
)

// amountText writes an amount as an entry's value: "" for none, else the
// shortest decimal that reads back as the same number.
func amountText(v *float64) string {
	if v == nil {
		return ""
	}
	return strconv.FormatFloat(*v, 'f', -1, 64)
}

// priorLimit is an account's credit limit in the team's newest ledger.
type priorLimit struct {
	business int64
	limit    *float64
}

// newestLimits reads each account's credit limit in the team's newest
// ledger, and that ledger's date ("" when the team has none).
func newestLimits(ctx context.Context, tx *sql.Tx, service string) (string, map[string]priorLimit, error) {
	var newest sql.NullString
	if err := tx.QueryRowContext(ctx, "SELECT MAX(as_of) FROM ledgers WHERE service = $1", service).Scan(&newest); err != nil {
		return "", nil, err
	}
	out := map[string]priorLimit{}
	if !newest.Valid {
		return "", out, nil
	}
	rows, err := tx.QueryContext(ctx, `SELECT t.account, t.business_id, l.credit_limit FROM ledgers g
		JOIN ledger_lines l ON l.ledger_id = g.id JOIN team_accounts t ON t.id = l.account_id
		WHERE g.service = $1 AND g.as_of = $2`, service, newest.String)
	if err != nil {
		return "", nil, err
	}
	defer rows.Close()
	for rows.Next() {
		var account string
		var p priorLimit
		var limit sql.NullFloat64
		if err := rows.Scan(&account, &p.business, &limit); err != nil {
			return "", nil, err
		}
		if limit.Valid {
			p.limit = &limit.Float64
		}
		out[account] = p
	}
	return newest.String, out, rows.Err()
}

// importChanges are the entries of an import: the import itself, then,
// when its ledger is the team's newest, every account whose credit limit
// it sets or changes (an account the newest ledger did not hold had none).
// An older ledger imported later changes no limit in force. They are made
// one at a time as the log takes them: an import of 50,000 new limits
// never holds 50,000 changes.
func importChanges(rec ImportRecord, lines []LedgerLine, newest string, prior map[string]priorLimit) iter.Seq[AuditChange] {
	return func(yield func(AuditChange) bool) {
		summary := fmt.Sprintf("%s: %d accounts from %q", rec.AsOf, rec.Imported, rec.File)
		if rec.Skipped > 0 {
			summary += fmt.Sprintf(", %d rows refused", rec.Skipped)
		}
		if rec.Replaced {
			summary += ", replacing the earlier import of that date"
		}
		if len(rec.Dropped) > 0 {
			summary += ", dropping " + strings.Join(rec.Dropped, ", ")
		}
		if !yield(AuditChange{Actor: rec.By, Action: AuditActionImport, NewValue: summary, Reason: "ledger imported"}) {
			return
		}
		if rec.AsOf < newest {
			return
		}
		reason := "ledger of " + rec.AsOf + " imported"
		for i := range lines {
			l := &lines[i]
			was := prior[l.Account]
			old, now := amountText(was.limit), amountText(l.Limit)
			if old == now {
				continue
			}
			business := l.BusinessID
			if business == 0 && was.business > 0 && was.business <= 1<<31-1 {
				business = int32(was.business)
			}
			if !yield(AuditChange{Actor: rec.By, Action: AuditActionLimit, Account: l.Account, BusinessID: business,
				OldValue: old, NewValue: now, Reason: reason}) {
				return
			}
		}
	}
}

// inputsText writes saved calculator inputs as an entry's value; "" for none.
func inputsText(in *LimitInputs) string {
	if in == nil {
		return ""
	}
	return fmt.Sprintf("monthly_sales=%s; months_allowed=%s; loss_budget=%s; sheet_cap=%s",
		amountText(&in.MonthlySales), amountText(&in.MonthsAllowed), amountText(&in.LossBudget), amountText(in.SheetCap))
}

// savedInputs reads the inputs saved for an account inside tx, nil when none.
func savedInputs(ctx context.Context, tx *sql.Tx, account int64) (*LimitInputs, error) {
	var in LimitInputs
	var sheet sql.NullFloat64
	err := tx.QueryRowContext(ctx, "SELECT monthly_sales, months_allowed, loss_budget, sheet_cap FROM limit_inputs WHERE account_id = $1",
		account).Scan(&in.MonthlySales, &in.MonthsAllowed, &in.LossBudget, &sheet)
	if err == sql.ErrNoRows {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	if sheet.Valid {
		in.SheetCap = &sheet.Float64
	}
	return &in, nil
}
