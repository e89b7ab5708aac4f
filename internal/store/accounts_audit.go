package store

import (
	"context"
	"database/sql"
	"fmt"
	"iter"
	"math"
	"strconv"
	"strings"
	"time"
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

// AuditActionImportChange is what an import changed on an account the
// record held: its owner, its link, its ERP limit, its balance on a date
// already held, or its line dropped from the date's full ledger.
const AuditActionImportChange = "import-change"

// AuditActionVersion is a date's ledger kept as a version by the import
// (or restore) that replaced it.
const AuditActionVersion = "ledger-version"

// importChanges are the entries of an import (issue 47.3): the import
// itself, with what it did counted and named (the plan); the date's
// replaced ledger kept as a version (kept, 0 for none); then one entry per
// account it changes: each account it adds to the record, each account of
// the record whose owner or link it changed (changed, from insertLines),
// whose ERP limit differs from its line of the base ledger, or whose
// balance on a date already held it changed; and, for a full ledger, each
// account of the replaced ledger the file leaves out. No entry changes a
// limit in force: an import never does. They are made one at a time as
// the log takes them: an import of 50,000 accounts never holds 50,000
// changes.
func importChanges(rec ImportRecord, lines []LedgerLine, plan ImportPlan, changed map[int32]recordWas, kept int64) iter.Seq[AuditChange] {
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
		if kept != 0 && !yield(AuditChange{Actor: rec.By, Action: AuditActionVersion,
			OldValue: fmt.Sprintf("ledger of %s imported by %s at %s, %d lines", rec.AsOf, plan.ReplacesBy,
				plan.ReplacesAt.UTC().Format(time.RFC3339), plan.ReplacesLines),
			NewValue: fmt.Sprintf("version %d", kept), Reason: fmt.Sprintf("replaced by import %d; restorable", rec.ID)}) {
			return
		}
		created := fmt.Sprintf("first listed by the ledger of %s (import %d)", rec.AsOf, rec.ID)
		reason := fmt.Sprintf("ledger of %s (import %d)", rec.AsOf, rec.ID)
		for i := range lines {
			l := &lines[i]
			was, known := plan.record[l.Account]
			if !known {
				if !yield(AuditChange{Actor: rec.By, Action: AuditActionAccount, Account: l.Account, BusinessID: l.BusinessID,
					NewValue: accountText(l.Name, l.Owner), Reason: created}) {
					return
				}
				continue
			}
			c := lineChange(l, was, changed, int32(i), plan)
			if c.OldValue == "" && c.NewValue == "" {
				continue
			}
			c.Actor, c.Action, c.Account, c.Reason = rec.By, AuditActionImportChange, l.Account, reason
			if !yield(c) {
				return
			}
		}
		if plan.Update {
			return
		}
		missing := fmt.Sprintf("not in the file: the full ledger of %s (import %d) reads it as owing nothing", rec.AsOf, rec.ID)
		for _, acc := range plan.missing {
			balance := plan.base[acc].balance
			if !yield(AuditChange{Actor: rec.By, Action: AuditActionImportChange, Account: acc, BusinessID: plan.record[acc].business,
				OldValue: "balance=" + amountText(&balance), NewValue: "no line", Reason: missing}) {
				return
			}
		}
	}
}

// lineChange is what the import changes on an account the record held,
// as "field=value" pairs before and after, both "" for nothing.
func lineChange(l *LedgerLine, was recordWas, changed map[int32]recordWas, i int32, plan ImportPlan) AuditChange {
	var old, now []string
	c := AuditChange{BusinessID: was.business}
	if after, ok := changed[i]; ok {
		c.BusinessID = after.business
		if after.owner != was.owner {
			old, now = append(old, "owner="+was.owner), append(now, "owner="+after.owner)
		}
		if after.business != was.business {
			old = append(old, "link="+strconv.FormatInt(int64(was.business), 10))
			now = append(now, "link="+strconv.FormatInt(int64(after.business), 10))
		}
	}
	base, inBase := plan.base[l.Account]
	if !sameAmount(base.erp, l.ERPLimit) {
		old, now = append(old, "erp_limit="+amountText(base.erp)), append(now, "erp_limit="+amountText(l.ERPLimit))
	}
	// A new date adds a snapshot and changes none; a date held already
	// has its balance replaced (the old one kept in the version).
	if plan.Replaces && inBase && !sameAmount(&base.balance, &l.Balance) {
		old, now = append(old, "balance="+amountText(&base.balance)), append(now, "balance="+amountText(&l.Balance))
	}
	c.OldValue, c.NewValue = strings.Join(old, "; "), strings.Join(now, "; ")
	return c
}

// sameAmount says two optional amounts agree to the cent.
func sameAmount(a, b *float64) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	return math.Abs(*a-*b) < 0.005
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

// savedInputs reads the inputs last saved for an account inside tx, nil
// when none.
func savedInputs(ctx context.Context, tx *sql.Tx, account int64) (*LimitInputs, error) {
	var in LimitInputs
	var sheet sql.NullFloat64
	err := tx.QueryRowContext(ctx, `SELECT monthly_sales, months_allowed, loss_budget, sheet_cap FROM limit_input_versions
		WHERE account_id = $1 ORDER BY version DESC LIMIT 1`,
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
