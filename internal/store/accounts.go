package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// Team data (issue 26): the accounts, ledgers, calculator inputs and known
// scores belong to everyone signed in against one service, so they are
// keyed by the analyst's service alone; the user name is kept beside each
// change as who made it.

// Bounds of the team's data.
const (
	// MaxAccounts is how many accounts one team keeps.
	MaxAccounts = 50000
	// MaxLedgers is how many ledger dates one team keeps; past it the
	// oldest go, and the import says so.
	MaxLedgers = 36
	// MaxAmount bounds every amount (balances, limits, inputs).
	MaxAmount = 1e13
	// MaxTermsDays bounds payment terms: ten years.
	MaxTermsDays = 3650
	// maxAccountLen bounds the team's own customer number.
	maxAccountLen = 64
	// maxFileNameLen bounds the imported file's name kept.
	maxFileNameLen = 200
)

// ErrAccountsFull: the import would leave the team with more than
// MaxAccounts accounts.
var ErrAccountsFull = fmt.Errorf("store: a team keeps at most %s accounts; nothing was imported", grouped(MaxAccounts))

// LedgerLine is one account's row of an imported ledger.
type LedgerLine struct {
	// Account is the team's own customer number, unique in the team.
	Account    string
	Name       string
	BusinessID int32 // 0: not linked (yet)
	CustomerID string
	SupplierID string
	Owner      string
	// Balance is what the customer owes as of the ledger's date; the
	// buckets are its aging.
	Balance, Current, Days1to30, Days31to60, Days61to90, DaysOver90 float64
	// ERPLimit is the credit limit the file gives (the ERP's), nil when
	// it gives none. It is kept with the ledger and shown beside the
	// limit in force, never adopted by the import (Account.Limit).
	ERPLimit *float64
	// Terms is the payment terms in days, nil when the ledger gives none.
	Terms *int
}

// ImportSpec is one ledger to import.
type ImportSpec struct {
	AsOf  time.Time // its date; the time of day is ignored
	File  string
	Lines []LedgerLine
	// Skipped is how many rows of the file were refused before the store.
	Skipped int
	// Update keeps the accounts the date's ledger holds and the file does
	// not as they were ("update"); without it the file is the full ledger
	// of its date and they owe nothing as of it ("full ledger").
	Update bool
	// Found are the accounts the service's Business/Search linked (their
	// lines carry the business), by the business's name; each link is
	// audited as the search's.
	Found map[string]string
	// Queue are the accounts whose names wait for Business/Search: past
	// the import's budget of searches, or all of them for a ledger the
	// API takes, which holds no session key (lookups.go).
	Queue []string
	// Resolved are names queued before that the handlers looked up with
	// what the import's own names left of its searches: they leave the
	// queue in the import's transaction, as ResolveLookups would.
	Resolved []LookupResult
}

// The import modes as ledger_imports keeps them.
const (
	ModeFull   = "full"
	ModeUpdate = "update"
)

// ImportRecord is one import as the team's log keeps it.
type ImportRecord struct {
	ID                int64
	AsOf              string
	File              string
	At                time.Time
	By                string
	Imported, Skipped int
	// Replaced says an earlier import of the same date was replaced.
	Replaced bool
	// Dropped are the dates dropped past MaxLedgers.
	Dropped []string
	// Mode is ModeFull or ModeUpdate ("" for imports before issue 43).
	Mode string
	// Summary is what the import did, counted and named (ImportPlan.Text).
	Summary string
}

// DateLayout is how ledger dates are written and stored.
const DateLayout = "2006-01-02"

// checkLine refuses what the store never keeps, naming the field.
func checkLine(l *LedgerLine) error {
	l.Account = strings.TrimSpace(l.Account)
	l.Name = tidyName(l.Name)
	l.Owner = strings.TrimSpace(l.Owner)
	l.CustomerID = strings.TrimSpace(l.CustomerID)
	l.SupplierID = strings.TrimSpace(l.SupplierID)
	switch {
	case l.Account == "":
		return invalid("account", "an account number is required")
	case utf8.RuneCountInString(l.Account) > maxAccountLen || !cleanText(l.Account):
		return invalid("account", "%q is not an account number of up to %d characters", clip(l.Account), maxAccountLen)
	case l.BusinessID < 0:
		return invalid("business_id", "account %s: not a business id", l.Account)
	case len(l.CustomerID) > 64 || len(l.SupplierID) > 64 || !cleanText(l.CustomerID) || !cleanText(l.SupplierID):
		return invalid("customer_id", "account %s: customer and supplier ids are up to 64 characters", l.Account)
	case l.Owner != "" && !ValidUserName(l.Owner):
		return invalid("owner", "account %s: the owner %q is not a user name (up to 64 letters, digits and . _ - @ +)", l.Account, clip(l.Owner))
	}
	for _, f := range []struct {
		name string
		v    float64
	}{{"balance", l.Balance}, {"current", l.Current}, {"days_1_30", l.Days1to30}, {"days_31_60", l.Days31to60},
		{"days_61_90", l.Days61to90}, {"days_over_90", l.DaysOver90}} {
		if err := CheckAmount(f.v, true); err != nil {
			return invalid(f.name, "account %s: %s", l.Account, err.Error())
		}
	}
	if l.ERPLimit != nil {
		if err := CheckAmount(*l.ERPLimit, false); err != nil {
			return invalid("credit_limit", "account %s: %s", l.Account, err.Error())
		}
	}
	if l.Terms != nil && (*l.Terms < 0 || *l.Terms > MaxTermsDays) {
		return invalid("terms_days", "account %s: terms are 0 to %d days", l.Account, MaxTermsDays)
	}
	return nil
}

// CheckAmount refuses NaN, infinities, amounts past MaxAmount and, unless
// negative is allowed (a credit balance), amounts below zero. Its message
// reads after a field's name.
func CheckAmount(v float64, negative bool) error {
	switch {
	case math.IsNaN(v) || math.IsInf(v, 0):
		return errors.New("not a number")
	case math.Abs(v) > MaxAmount:
		return errors.New("more than 10,000,000,000,000")
	case v < 0 && !negative:
		return errors.New("below zero")
	}
	return nil
}

// clip shortens text quoted in a message.
func clip(s string) string {
	if utf8.RuneCountInString(s) > 40 {
		return string([]rune(s)[:39]) + "…"
	}
	return s
}

// team checks the analyst and returns it with the service as keys have it.
func team(a Analyst) (Analyst, error) { return a.key() }

// teamWrite runs fn in one transaction on the writer and moves the team's
// version forward in it (team_version.go), so every page that keeps
// figures of the team's data sees the change; any error rolls everything
// back. Every write of the team's data goes through here (or one of the
// variants below). A write that says nothing of what it touched touches
// every account (team_changes.go).
func (s *Store) teamWrite(ctx context.Context, service, op string, fn func(tx *sql.Tx) error) error {
	return s.teamWriteOf(ctx, service, op, touchAll(), fn)
}

// teamWriteOf is teamWrite for a write that touches what t names; fn may
// add to t what it learns inside the transaction.
func (s *Store) teamWriteOf(ctx context.Context, service, op string, t *Touched, fn func(tx *sql.Tx) error) error {
	return s.teamWriteIfOf(ctx, service, op, t, func(tx *sql.Tx) (bool, error) { return true, fn(tx) })
}

// teamWriteIfOf is teamWriteOf for a write that may turn out to change
// nothing (fn's changed false), which leaves the version where it was.
func (s *Store) teamWriteIfOf(ctx context.Context, service, op string, t *Touched, fn func(tx *sql.Tx) (changed bool, err error)) error {
	tx, err := s.w.BeginTx(ctx, nil)
	if err != nil {
		return wrap(op, err)
	}
	defer tx.Rollback()
	changed, err := fn(tx)
	if err != nil {
		if isStoreError(err) || errors.Is(err, ErrAccountsFull) {
			return err
		}
		return wrap(op, err)
	}
	if !changed {
		return wrap(op, tx.Commit())
	}
	prev, v, err := s.bumpTeam(ctx, tx, service)
	if err != nil {
		return wrap(op, err)
	}
	if err := logChange(ctx, tx, service, prev, v, t); err != nil {
		return wrap(op, err)
	}
	if err := tx.Commit(); err != nil {
		return wrap(op, err)
	}
	s.teams.moved(service, v)
	return nil
}

// ImportLedger stores a ledger for its date, in one transaction: the
// date's earlier ledger, if any, is kept as a version (restorable), the
// accounts are created or updated (name and links only from a ledger at
// least as new as the one that set them; an owner only where the record
// has none), and, with spec.Update, the accounts the replaced ledger held
// and the file does not keep their lines. The oldest dates past
// MaxLedgers go with their versions; no account of the record ever goes,
// and no limit in force changes: the file's limits are the ERP's
// (LedgerLine.ERPLimit). Past MaxAccounts nothing is written
// (ErrAccountsFull). The import and every account it creates are audited.
func (s *Store) ImportLedger(ctx context.Context, a Analyst, spec ImportSpec) (ImportRecord, error) {
	a, err := team(a)
	if err != nil {
		return ImportRecord{}, err
	}
	if spec.AsOf.IsZero() {
		return ImportRecord{}, invalid("as_of", "a date is required")
	}
	if len(spec.Lines) > MaxAccounts {
		return ImportRecord{}, ErrAccountsFull
	}
	byAccount, err := checkLines(spec.Lines)
	if err != nil {
		return ImportRecord{}, err
	}
	if err := checkResults(spec.Resolved); err != nil {
		return ImportRecord{}, err
	}
	file := spec.File
	if utf8.RuneCountInString(file) > maxFileNameLen {
		file = string([]rune(file)[:maxFileNameLen])
	}
	file = strings.ToValidUTF8(strings.ReplaceAll(file, "\x00", ""), "\uFFFD")
	rec := ImportRecord{ID: newID(), AsOf: spec.AsOf.Format(DateLayout), File: file, By: a.User,
		Imported: len(spec.Lines), Skipped: spec.Skipped, Mode: ModeFull}
	if spec.Update {
		rec.Mode = ModeUpdate
	}
	// Big imports get the store's timeout per 10,000 lines.
	ctx, cancel := context.WithTimeout(ctx, s.timeout*time.Duration(1+len(spec.Lines)/10000))
	defer cancel()
	err = s.teamWrite(ctx, a.Service, "import ledger", func(tx *sql.Tx) error {
		now := s.stamp()
		rec.At = fromStamp(now)
		plan, err := planImport(ctx, tx, a.Service, rec.AsOf, spec.Lines, spec.Update)
		if err != nil {
			return err
		}
		kept, err := s.keepVersion(ctx, tx, a, rec.AsOf, now, "import "+strconv.FormatInt(rec.ID, 10))
		if err != nil {
			return err
		}
		rec.Replaced = kept != 0
		ledger := newID()
		if _, err := tx.ExecContext(ctx, "INSERT INTO ledgers (id, service, as_of, imported_at, imported_by, import_id) VALUES ($1, $2, $3, $4, $5, $6)",
			ledger, a.Service, rec.AsOf, now, a.User, rec.ID); err != nil {
			return err
		}
		changed, err := s.insertLines(ctx, tx, a, ledger, rec.AsOf, now, spec.Lines, byAccount, plan.record)
		if err != nil {
			return err
		}
		if spec.Update && kept != 0 {
			// The accounts the file leaves out keep their lines as they were.
			if _, err := tx.ExecContext(ctx, `INSERT INTO ledger_lines (ledger_id, account_id, balance, current_due, days_1_30, days_31_60,
				days_61_90, days_over_90, credit_limit, terms_days)
				SELECT $1, v.account_id, v.balance, v.current_due, v.days_1_30, v.days_31_60, v.days_61_90, v.days_over_90, v.credit_limit, v.terms_days
				FROM ledger_version_lines v WHERE v.version_id = $2
				AND NOT EXISTS (SELECT 1 FROM ledger_lines n WHERE n.ledger_id = $1 AND n.account_id = v.account_id)`, ledger, kept); err != nil {
				return err
			}
		}
		if err := dropVersions(ctx, tx, a.Service, rec.AsOf, MaxVersionsPerDate); err != nil {
			return err
		}
		if rec.Dropped, err = dropOldLedgers(ctx, tx, a.Service); err != nil {
			return err
		}
		var n int
		if err := tx.QueryRowContext(ctx, "SELECT COUNT(*) FROM team_accounts WHERE service = $1", a.Service).Scan(&n); err != nil {
			return err
		}
		if n > MaxAccounts {
			return ErrAccountsFull
		}
		queued, err := s.queueLookups(ctx, tx, a, rec, spec, now)
		if err != nil {
			return err
		}
		linked, resolved, err := s.resolveLookupsTx(ctx, tx, a, spec.Resolved)
		if err != nil {
			return err
		}
		rec.Summary = plan.Text() + lookupsText(spec, queued, len(resolved), linked)
		_, err = tx.ExecContext(ctx, `INSERT INTO ledger_imports (id, service, as_of, file_name, imported_at, imported_by, imported, skipped, replaced, dropped, mode, summary)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)`, rec.ID, a.Service, rec.AsOf, rec.File, now, a.User,
			rec.Imported, rec.Skipped, boolInt(rec.Replaced), strings.Join(rec.Dropped, ","), rec.Mode, rec.Summary)
		if err != nil {
			return err
		}
		if err := s.Emit(ctx, tx, a.Service, EventImportCompleted, ImportCompletedData{ImportID: rec.ID, AsOf: rec.AsOf, File: rec.File,
			Mode: rec.Mode, Imported: rec.Imported, Skipped: rec.Skipped, Replaced: rec.Replaced, Dropped: rec.Dropped,
			Summary: rec.Summary, ImportedBy: rec.By}); err != nil {
			return err
		}
		return s.appendAuditSeq(ctx, tx, a.Service, chain(importChanges(rec, spec.Lines, plan, changed, kept), lookupChanges(rec, spec, queued),
			slices.Values(resolved)), nil)
	})
	if err != nil {
		return ImportRecord{}, err
	}
	return rec, nil
}

// dropOldLedgers keeps the newest MaxLedgers dates and returns the dates
// dropped, oldest first; their kept versions go with them. The accounts
// stay: a record is never dropped with a ledger.
func dropOldLedgers(ctx context.Context, tx *sql.Tx, service string) ([]string, error) {
	rows, err := tx.QueryContext(ctx, "SELECT as_of FROM ledgers WHERE service = $1 ORDER BY as_of DESC LIMIT $2 OFFSET $3",
		service, int64(1)<<62, MaxLedgers)
	if err != nil {
		return nil, err
	}
	var dropped []string
	for rows.Next() {
		var d string
		if err := rows.Scan(&d); err != nil {
			rows.Close()
			return nil, err
		}
		dropped = append([]string{d}, dropped...)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	for _, d := range dropped {
		if _, err := tx.ExecContext(ctx, "DELETE FROM ledger_lines WHERE ledger_id IN (SELECT id FROM ledgers WHERE service = $1 AND as_of = $2)", service, d); err != nil {
			return nil, err
		}
		if _, err := tx.ExecContext(ctx, "DELETE FROM ledgers WHERE service = $1 AND as_of = $2", service, d); err != nil {
			return nil, err
		}
		if err := dropVersions(ctx, tx, service, d, 0); err != nil {
			return nil, err
		}
	}
	return dropped, nil
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// Import is one import of the team's log; ErrNotFound for another team's.
func (s *Store) Import(ctx context.Context, a Analyst, id int64) (ImportRecord, error) {
	ctx, cancel := s.bound(ctx)
	defer cancel()
	a, err := team(a)
	if err != nil {
		return ImportRecord{}, err
	}
	var r ImportRecord
	var at int64
	var replaced int
	var dropped string
	err = s.r.QueryRowContext(ctx, `SELECT id, as_of, file_name, imported_at, imported_by, imported, skipped, replaced, dropped, mode, summary
		FROM ledger_imports WHERE service = $1 AND id = $2`, a.Service, id).
		Scan(&r.ID, &r.AsOf, &r.File, &at, &r.By, &r.Imported, &r.Skipped, &replaced, &dropped, &r.Mode, &r.Summary)
	if errors.Is(err, sql.ErrNoRows) {
		return ImportRecord{}, ErrNotFound
	}
	if err != nil {
		return ImportRecord{}, wrap("import", err)
	}
	r.At, r.Replaced = fromStamp(at), replaced == 1
	if dropped != "" {
		r.Dropped = strings.Split(dropped, ",")
	}
	return r, nil
}

// LedgerDates are the team's ledger dates, newest first.
func (s *Store) LedgerDates(ctx context.Context, a Analyst) ([]string, error) {
	ctx, cancel := s.bound(ctx)
	defer cancel()
	a, err := team(a)
	if err != nil {
		return nil, err
	}
	rows, err := s.r.QueryContext(ctx, "SELECT as_of FROM ledgers WHERE service = $1 ORDER BY as_of DESC", a.Service)
	if err != nil {
		return nil, wrap("ledger dates", err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var d string
		if err := rows.Scan(&d); err != nil {
			return nil, wrap("ledger dates", err)
		}
		out = append(out, d)
	}
	return out, wrap("ledger dates", rows.Err())
}
