package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strconv"
	"time"
)

// Imports as versions (issue 43): importing a date again keeps the ledger
// it replaces, lines and all, in ledger_versions, and any kept version can
// be put back in one step (RestoreVersion), which keeps the ledger it
// replaces in turn. A team keeps MaxVersionsPerDate replaced versions of
// each of its dates; they go with their date past MaxLedgers.

// MaxVersionsPerDate is how many replaced versions of one date a team
// keeps; past it the oldest replaced goes.
const MaxVersionsPerDate = 3

// AuditActionRestore is a kept version of a ledger put back.
const AuditActionRestore = "ledger-restore"

// LedgerVersion is a ledger an import or a restore replaced, kept.
type LedgerVersion struct {
	ID   int64
	AsOf string
	// ImportID is the import that made it (0: before imports were kept
	// as versions); File is that import's file name, "" when unknown.
	ImportID   int64
	File       string
	ImportedAt time.Time
	ImportedBy string
	Lines      int
	ReplacedAt time.Time
	ReplacedBy string
	// ReplacedHow is "import N" or "restore of version N".
	ReplacedHow string
}

// keepVersion moves the team's ledger of asOf, if any, into the kept
// versions (replaced by a.User, how) and deletes it; it returns the
// version's id, 0 when the date had no ledger. The caller bounds the
// date's versions (dropVersions) once it is done with them.
func (s *Store) keepVersion(ctx context.Context, tx *sql.Tx, a Analyst, asOf string, now int64, how string) (int64, error) {
	var ledger, importID, at int64
	var by string
	err := tx.QueryRowContext(ctx, "SELECT id, import_id, imported_at, imported_by FROM ledgers WHERE service = $1 AND as_of = $2",
		a.Service, asOf).Scan(&ledger, &importID, &at, &by)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, nil
	}
	if err != nil {
		return 0, err
	}
	// The version's row first: its lines' foreign key points at it.
	v := newID()
	if _, err := tx.ExecContext(ctx, `INSERT INTO ledger_versions (id, service, as_of, import_id, imported_at, imported_by, lines,
		replaced_at, replaced_by, replaced_how) VALUES ($1, $2, $3, $4, $5, $6, 0, $7, $8, $9)`,
		v, a.Service, asOf, importID, at, by, now, a.User, how); err != nil {
		return 0, err
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO ledger_version_lines (version_id, account_id, balance, current_due, days_1_30, days_31_60,
		days_61_90, days_over_90, credit_limit, terms_days)
		SELECT $1, account_id, balance, current_due, days_1_30, days_31_60, days_61_90, days_over_90, credit_limit, terms_days
		FROM ledger_lines WHERE ledger_id = $2`, v, ledger); err != nil {
		return 0, err
	}
	if _, err := tx.ExecContext(ctx, "UPDATE ledger_versions SET lines = (SELECT COUNT(*) FROM ledger_version_lines WHERE version_id = $1) WHERE id = $1", v); err != nil {
		return 0, err
	}
	if _, err := tx.ExecContext(ctx, "DELETE FROM ledger_lines WHERE ledger_id = $1", ledger); err != nil {
		return 0, err
	}
	if _, err := tx.ExecContext(ctx, "DELETE FROM ledgers WHERE id = $1", ledger); err != nil {
		return 0, err
	}
	return v, nil
}

// dropVersions keeps the newest keep replaced versions of the date.
func dropVersions(ctx context.Context, tx *sql.Tx, service, asOf string, keep int) error {
	rows, err := tx.QueryContext(ctx, "SELECT id FROM ledger_versions WHERE service = $1 AND as_of = $2 ORDER BY replaced_at DESC, id DESC LIMIT $3 OFFSET $4",
		service, asOf, int64(1)<<62, keep)
	if err != nil {
		return err
	}
	var old []int64
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			rows.Close()
			return err
		}
		old = append(old, id)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	for _, id := range old {
		if _, err := tx.ExecContext(ctx, "DELETE FROM ledger_version_lines WHERE version_id = $1", id); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, "DELETE FROM ledger_versions WHERE id = $1", id); err != nil {
			return err
		}
	}
	return nil
}

// LedgerVersions are the team's kept versions, the most recently replaced
// first (at most MaxLedgers × MaxVersionsPerDate).
func (s *Store) LedgerVersions(ctx context.Context, a Analyst) ([]LedgerVersion, error) {
	ctx, cancel := s.bound(ctx)
	defer cancel()
	a, err := team(a)
	if err != nil {
		return nil, err
	}
	rows, err := s.r.QueryContext(ctx, `SELECT v.id, v.as_of, v.import_id, COALESCE(i.file_name, ''), v.imported_at, v.imported_by, v.lines,
		v.replaced_at, v.replaced_by, v.replaced_how
		FROM ledger_versions v LEFT JOIN ledger_imports i ON i.id = v.import_id AND i.service = v.service
		WHERE v.service = $1 ORDER BY v.replaced_at DESC, v.id DESC`, a.Service)
	if err != nil {
		return nil, wrap("ledger versions", err)
	}
	defer rows.Close()
	var out []LedgerVersion
	for rows.Next() {
		var v LedgerVersion
		var at, replaced int64
		if err := rows.Scan(&v.ID, &v.AsOf, &v.ImportID, &v.File, &at, &v.ImportedBy, &v.Lines, &replaced, &v.ReplacedBy, &v.ReplacedHow); err != nil {
			return nil, wrap("ledger versions", err)
		}
		v.ImportedAt, v.ReplacedAt = fromStamp(at), fromStamp(replaced)
		out = append(out, v)
	}
	return out, wrap("ledger versions", rows.Err())
}

// RestoreVersion puts a kept version back as its date's ledger, in one
// transaction: the date's ledger it replaces is kept as a version in
// turn, and the restore is audited. ErrNotFound for another team's
// version or one no longer kept.
func (s *Store) RestoreVersion(ctx context.Context, a Analyst, id int64) (LedgerVersion, error) {
	a, err := team(a)
	if err != nil {
		return LedgerVersion{}, err
	}
	ctx, cancel := context.WithTimeout(ctx, s.timeout*5)
	defer cancel()
	var v LedgerVersion
	err = s.teamWrite(ctx, a.Service, "restore ledger", func(tx *sql.Tx) error {
		var at int64
		err := tx.QueryRowContext(ctx, "SELECT as_of, import_id, imported_at, imported_by, lines FROM ledger_versions WHERE service = $1 AND id = $2",
			a.Service, id).Scan(&v.AsOf, &v.ImportID, &at, &v.ImportedBy, &v.Lines)
		if errors.Is(err, sql.ErrNoRows) {
			return ErrNotFound
		}
		if err != nil {
			return err
		}
		v.ID, v.ImportedAt = id, fromStamp(at)
		now := s.stamp()
		kept, err := s.keepVersion(ctx, tx, a, v.AsOf, now, "restore of version "+strconv.FormatInt(id, 10))
		if err != nil {
			return err
		}
		ledger := newID()
		if _, err := tx.ExecContext(ctx, "INSERT INTO ledgers (id, service, as_of, imported_at, imported_by, import_id) VALUES ($1, $2, $3, $4, $5, $6)",
			ledger, a.Service, v.AsOf, at, v.ImportedBy, v.ImportID); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO ledger_lines (ledger_id, account_id, balance, current_due, days_1_30, days_31_60,
			days_61_90, days_over_90, credit_limit, terms_days)
			SELECT $1, account_id, balance, current_due, days_1_30, days_31_60, days_61_90, days_over_90, credit_limit, terms_days
			FROM ledger_version_lines WHERE version_id = $2`, ledger, id); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, "DELETE FROM ledger_version_lines WHERE version_id = $1", id); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, "DELETE FROM ledger_versions WHERE id = $1", id); err != nil {
			return err
		}
		if err := dropVersions(ctx, tx, a.Service, v.AsOf, MaxVersionsPerDate); err != nil {
			return err
		}
		was := "no ledger"
		if kept != 0 {
			was = "the ledger it replaced is kept as version " + strconv.FormatInt(kept, 10)
		}
		_, err = s.appendAuditTx(ctx, tx, a.Service, AuditChange{Actor: a.User, Action: AuditActionRestore,
			NewValue: fmt.Sprintf("%s: version %d (import %d by %s, %d accounts)", v.AsOf, id, v.ImportID, v.ImportedBy, v.Lines),
			Reason:   "ledger of " + v.AsOf + " restored; " + was})
		return err
	})
	if err != nil {
		return LedgerVersion{}, err
	}
	return v, nil
}
