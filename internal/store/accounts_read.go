package store

import (
	"context"
	"database/sql"
	"errors"
	"strconv"
	"strings"
	"time"
)

// Account is one account of the team's record with its line of a ledger
// (balances, aging, the ERP's limit) and the team's calculator inputs.
type Account struct {
	ID int64
	LedgerLine
	// Limit is the limit in force: the amount of the latest approved
	// request (or what the record held before issue 43), nil for none.
	// Only a decision changes it; LedgerLine.ERPLimit is the file's.
	Limit *float64
	// Status is the record's status: "open".
	Status string
	// AsOf is the date of the ledger the figures come from; "" when the
	// ledger read does not list the account (it owes nothing as of it).
	AsOf string
	// Inputs are the calculator inputs last saved for the account (its
	// newest version), nil when none were.
	Inputs *LimitInputs
	// Default is the filing in force that puts the account in default
	// (defaults.go), nil for none; shared by the accounts of a business.
	Default *Default
}

// InLedger says the ledger read lists the account.
func (a Account) InLedger() bool { return a.AsOf != "" }

// ERPDiffers says the ledger gives an ERP limit other than the limit in
// force.
func (a Account) ERPDiffers() bool {
	if a.ERPLimit == nil {
		return false
	}
	return a.Limit == nil || *a.Limit-*a.ERPLimit >= 0.005 || *a.ERPLimit-*a.Limit >= 0.005
}

// LimitInputs are the limit calculator's inputs saved for an account.
type LimitInputs struct {
	MonthlySales  float64
	MonthsAllowed float64
	LossBudget    float64
	// SheetCap is the balance-sheet cap when the inputs were saved, nil
	// when the statements did not give one.
	SheetCap *float64
	SavedAt  time.Time
	SavedBy  string
}

// accountFields are what scanAccount reads, in its order.
const accountFields = `t.id, t.account, t.name, t.business_id, t.customer_id, t.supplier_id, t.owner, t.credit_limit, t.status, g.as_of,
	l.balance, l.current_due, l.days_1_30, l.days_31_60, l.days_61_90, l.days_over_90, l.credit_limit, l.terms_days,
	i.monthly_sales, i.months_allowed, i.loss_budget, i.sheet_cap, i.saved_at, i.saved_by`

// accountColumns reads the lines of one ledger (ledgerDate) with their
// accounts.
const accountColumns = accountFields + `
	FROM ledger_lines l CROSS JOIN team_accounts t JOIN ledgers g ON g.id = l.ledger_id
	LEFT JOIN limit_input_versions i ON i.account_id = t.id
		AND NOT EXISTS (SELECT 1 FROM limit_input_versions x WHERE x.account_id = i.account_id AND x.version > i.version)`

// recordColumns reads every account of the record ($1) with its line of
// the newest ledger, when that ledger lists it. Both read an account's
// newest inputs; the test for a newer version runs only for accounts with
// inputs saved.
const recordColumns = accountFields + `
	FROM team_accounts t
	LEFT JOIN ledger_lines l ON l.account_id = t.id AND l.ledger_id = (SELECT id FROM ledgers WHERE service = $1 ORDER BY as_of DESC LIMIT 1)
	LEFT JOIN ledgers g ON g.id = l.ledger_id
	LEFT JOIN limit_input_versions i ON i.account_id = t.id
		AND NOT EXISTS (SELECT 1 FROM limit_input_versions x WHERE x.account_id = i.account_id AND x.version > i.version)`

// ledgerDate picks the ledger: $2, or the team's newest when $2 is empty,
// and joins its lines to the team's accounts. The ledger is found first,
// so the lines are read in their key's order; CROSS JOIN keeps SQLite's
// planner to that order, and the account's service lets it read accounts
// from the covering index team_accounts_read (migration 00008) in the
// same id order instead of jumping from the primary key to the rows at
// random: a 50,000-line ledger reads several times faster.
const ledgerDate = "t.id = l.account_id AND t.service = $1 AND l.ledger_id = (SELECT id FROM ledgers WHERE service = $1 AND as_of = COALESCE(NULLIF(CAST($2 AS TEXT), ''), (SELECT MAX(as_of) FROM ledgers WHERE service = $1)))"

func scanAccount(rows *sql.Rows) (Account, error) {
	var a Account
	var business int64
	var inForce, erp, sales, months, budget, sheet sql.NullFloat64
	var bal, cur, d30, d60, d90, over sql.NullFloat64
	var terms, saved sql.NullInt64
	var by, asOf sql.NullString
	err := rows.Scan(&a.ID, &a.Account, &a.Name, &business, &a.CustomerID, &a.SupplierID, &a.Owner, &inForce, &a.Status, &asOf,
		&bal, &cur, &d30, &d60, &d90, &over, &erp, &terms,
		&sales, &months, &budget, &sheet, &saved, &by)
	if err != nil {
		return a, err
	}
	a.BusinessID = int32(business)
	a.AsOf = asOf.String
	a.Balance, a.Current, a.Days1to30, a.Days31to60, a.Days61to90, a.DaysOver90 = bal.Float64, cur.Float64, d30.Float64, d60.Float64, d90.Float64, over.Float64
	if inForce.Valid {
		a.Limit = &inForce.Float64
	}
	if erp.Valid {
		a.ERPLimit = &erp.Float64
	}
	if terms.Valid {
		t := int(terms.Int64)
		a.Terms = &t
	}
	if sales.Valid {
		a.Inputs = &LimitInputs{MonthlySales: sales.Float64, MonthsAllowed: months.Float64, LossBudget: budget.Float64,
			SavedAt: fromStamp(saved.Int64), SavedBy: by.String}
		if sheet.Valid {
			a.Inputs.SheetCap = &sheet.Float64
		}
	}
	return a, nil
}

// queryAccounts runs an account query and reads every row.
func (s *Store) queryAccounts(ctx context.Context, op, query string, args ...any) ([]Account, error) {
	rows, err := s.r.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, wrap(op, err)
	}
	defer rows.Close()
	var out []Account
	for rows.Next() {
		a, err := scanAccount(rows)
		if err != nil {
			return nil, wrap(op, err)
		}
		out = append(out, a)
	}
	return out, wrap(op, rows.Err())
}

// Accounts are, when asOf is empty, every account of the team's record
// with its line of the newest ledger (an account that ledger does not
// list has no AsOf and owes nothing); else the accounts the ledger of
// asOf (YYYY-MM-DD) lists. In no particular order.
func (s *Store) Accounts(ctx context.Context, a Analyst, asOf string) ([]Account, error) {
	ctx, cancel := s.bound(ctx)
	defer cancel()
	a, err := team(a)
	if err != nil {
		return nil, err
	}
	// Ordered by the handlers, which sort anyway.
	var out []Account
	if asOf == "" {
		out, err = s.queryAccounts(ctx, "accounts", "SELECT "+recordColumns+" WHERE t.service = $1", a.Service)
	} else {
		out, err = s.queryAccounts(ctx, "accounts", "SELECT "+accountColumns+" WHERE "+ledgerDate, a.Service, asOf)
	}
	if err != nil {
		return nil, err
	}
	return out, s.attachDefaults(ctx, a.Service, out)
}

// AccountsByKey are the record's accounts of the given keys with their
// lines of the newest ledger, as Accounts reads them, in no particular
// order; keys the record does not hold are left out. It is how the team's
// figures work out again only the accounts a write touched.
func (s *Store) AccountsByKey(ctx context.Context, a Analyst, keys []string) ([]Account, error) {
	ctx, cancel := s.bound(ctx)
	defer cancel()
	a, err := team(a)
	if err != nil || len(keys) == 0 {
		return nil, err
	}
	args := make([]any, 0, len(keys)+1)
	args = append(args, a.Service)
	var in strings.Builder
	for i, k := range keys {
		if i > 0 {
			in.WriteByte(',')
		}
		in.WriteString("$" + strconv.Itoa(i+2))
		args = append(args, k)
	}
	out, err := s.queryAccounts(ctx, "accounts by key", "SELECT "+recordColumns+" WHERE t.service = $1 AND t.account IN ("+in.String()+")", args...)
	if err != nil {
		return nil, err
	}
	return out, s.attachDefaults(ctx, a.Service, out)
}

// LedgerBalance is one line of a ledger as the expected-loss bridge reads
// it.
type LedgerBalance struct {
	Account, Name string
	BusinessID    int32
	Balance       float64
}

// LedgerBalances are the account, name, link and balance of every line of
// the ledger of asOf (the newest when empty), in no particular order: the
// bridge's older ledger, read from the covering indexes alone without the
// twenty other columns of Accounts.
func (s *Store) LedgerBalances(ctx context.Context, a Analyst, asOf string) ([]LedgerBalance, error) {
	ctx, cancel := s.bound(ctx)
	defer cancel()
	a, err := team(a)
	if err != nil {
		return nil, err
	}
	rows, err := s.r.QueryContext(ctx, "SELECT t.account, t.name, t.business_id, l.balance FROM ledger_lines l CROSS JOIN team_accounts t WHERE "+
		ledgerDate, a.Service, asOf)
	if err != nil {
		return nil, wrap("ledger balances", err)
	}
	defer rows.Close()
	var out []LedgerBalance
	for rows.Next() {
		var b LedgerBalance
		var business int64
		if err := rows.Scan(&b.Account, &b.Name, &business, &b.Balance); err != nil {
			return nil, wrap("ledger balances", err)
		}
		b.BusinessID = int32(business)
		out = append(out, b)
	}
	return out, wrap("ledger balances", rows.Err())
}

// AccountsOfBusiness are the record's accounts linked to the business,
// with their lines of the newest ledger: the report's account panel.
func (s *Store) AccountsOfBusiness(ctx context.Context, a Analyst, business int32) ([]Account, error) {
	ctx, cancel := s.bound(ctx)
	defer cancel()
	a, err := team(a)
	if err != nil {
		return nil, err
	}
	out, err := s.queryAccounts(ctx, "accounts of business", "SELECT "+recordColumns+
		" WHERE t.service = $1 AND t.business_id = $2 ORDER BY t.account", a.Service, int64(business))
	if err != nil {
		return nil, err
	}
	return out, s.attachDefaults(ctx, a.Service, out)
}

// Unlinked are up to limit accounts of the record with a CustomerId or
// SupplierId but no business yet, for resolution.
func (s *Store) Unlinked(ctx context.Context, a Analyst, limit int) ([]Account, error) {
	ctx, cancel := s.bound(ctx)
	defer cancel()
	a, err := team(a)
	if err != nil {
		return nil, err
	}
	return s.queryAccounts(ctx, "unlinked accounts", "SELECT "+recordColumns+
		" WHERE t.service = $1 AND t.business_id = 0 AND (t.customer_id <> '' OR t.supplier_id <> '') ORDER BY t.account LIMIT $2", a.Service, limit)
}

// LinkAccount links an account to the business its CustomerId or
// SupplierId resolved to. An account already linked keeps its link: the
// ledger's own business id wins over a resolution.
func (s *Store) LinkAccount(ctx context.Context, a Analyst, account string, business int32) error {
	ctx, cancel := s.bound(ctx)
	defer cancel()
	a, err := team(a)
	if err != nil {
		return err
	}
	if err := checkBusiness(business); err != nil {
		return err
	}
	return s.teamWriteOf(ctx, a.Service, "link account", touchAccounts(account), func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `UPDATE team_accounts SET business_id = $3, updated_at = $4, updated_by = $5
			WHERE service = $1 AND account = $2 AND business_id = 0`, a.Service, account, int64(business), s.stamp(), a.User)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return nil
		}
		_, err = s.appendAuditTx(ctx, tx, a.Service, AuditChange{Actor: a.User, Action: AuditActionLink, Account: account,
			BusinessID: business, NewValue: strconv.FormatInt(int64(business), 10), Reason: "CustomerId or SupplierId resolved"})
		return err
	})
}

// SaveLimitInputs keeps the calculator's inputs for the account as its
// new version, in force from now (those saved before are kept, dated);
// ErrNotFound when the team has no such account.
func (s *Store) SaveLimitInputs(ctx context.Context, a Analyst, account string, in LimitInputs) error {
	ctx, cancel := s.bound(ctx)
	defer cancel()
	a, err := team(a)
	if err != nil {
		return err
	}
	for _, f := range []struct {
		name string
		v    float64
	}{{"monthly_sales", in.MonthlySales}, {"months_allowed", in.MonthsAllowed}, {"loss_budget", in.LossBudget}} {
		if err := CheckAmount(f.v, false); err != nil {
			return invalid(f.name, "%s", err.Error())
		}
	}
	var sheet any
	if in.SheetCap != nil {
		if err := CheckAmount(*in.SheetCap, true); err != nil {
			return invalid("sheet_cap", "%s", err.Error())
		}
		sheet = *in.SheetCap
	}
	touched := touchNone()
	return s.teamWriteOf(ctx, a.Service, "save limit inputs", touched, func(tx *sql.Tx) error {
		var id, business int64
		account = strings.TrimSpace(account)
		touched.Accounts = append(touched.Accounts, account)
		err := tx.QueryRowContext(ctx, "SELECT id, business_id FROM team_accounts WHERE service = $1 AND account = $2",
			a.Service, account).Scan(&id, &business)
		if errors.Is(err, sql.ErrNoRows) {
			return ErrNotFound
		}
		if err != nil {
			return err
		}
		was, err := savedInputs(ctx, tx, id)
		if err != nil {
			return err
		}
		// A new version, never a change to the one before (migration
		// 00030): the replay of past decisions reads the inputs of their day.
		_, err = tx.ExecContext(ctx, `INSERT INTO limit_input_versions (account_id, version, monthly_sales, months_allowed, loss_budget, sheet_cap, saved_at, saved_by)
			VALUES ($1, (SELECT COALESCE(MAX(version), 0) + 1 FROM limit_input_versions WHERE account_id = $1), $2, $3, $4, $5, $6, $7)`,
			id, in.MonthlySales, in.MonthsAllowed, in.LossBudget, sheet, s.stamp(), a.User)
		if err != nil {
			return err
		}
		_, err = s.appendAuditTx(ctx, tx, a.Service, AuditChange{Actor: a.User, Action: AuditActionLimitInputs, Account: account,
			BusinessID: int32(business), OldValue: inputsText(was), NewValue: inputsText(&in), Reason: "limit calculator inputs saved"})
		return err
	})
}
