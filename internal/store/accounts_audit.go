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

// AuditActionAccount is an account added to the team's record: by an
// import that first lists it, or by hand (AddAccount).
const AuditActionAccount = "account-create"

// importChanges are the entries of an import: the import itself, with
// what it did counted and named (the plan), then one for every account it
// adds to the record. No entry changes a limit: an import never does.
// They are made one at a time as the log takes them: an import of 50,000
// new accounts never holds 50,000 changes.
func importChanges(rec ImportRecord, lines []LedgerLine, plan ImportPlan) iter.Seq[AuditChange] {
	return func(yield func(AuditChange) bool) {
		summary := fmt.Sprintf("import %d of %q: %s", rec.ID, rec.File, plan.Text())
		if rec.Skipped > 0 {
			rows := "rows"
			if rec.Skipped == 1 {
				rows = "row"
			}
			summary += fmt.Sprintf("; %d %s skipped", rec.Skipped, rows)
		}
		if rec.Replaced {
			summary += "; the date's earlier ledger is kept as a version"
		}
		if len(rec.Dropped) > 0 {
			summary += "; dropping " + strings.Join(rec.Dropped, ", ")
		}
		if !yield(AuditChange{Actor: rec.By, Action: AuditActionImport, NewValue: summary, Reason: "ledger imported"}) {
			return
		}
		reason := fmt.Sprintf("first listed by the ledger of %s (import %d)", rec.AsOf, rec.ID)
		for i := range lines {
			l := &lines[i]
			if _, known := plan.record[l.Account]; known {
				continue
			}
			if !yield(AuditChange{Actor: rec.By, Action: AuditActionAccount, Account: l.Account, BusinessID: l.BusinessID,
				NewValue: accountText(l.Name, l.Owner), Reason: reason}) {
				return
			}
		}
	}
}

// accountText is a new account as its entry's value.
func accountText(name, owner string) string {
	s := "name=" + name
	if owner != "" {
		s += "; owner=" + owner
	}
	return s
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
