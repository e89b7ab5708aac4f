package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"math"
	"strconv"
	"time"
)

// Limits and holds back to the ERP (issue 46.4): each export is recorded
// with its lines, and each account's state as the ERP last received it is
// kept, so the next worksheet holds only what changed since. Which
// accounts, why and in which file shape is internal/erp's; the store keeps
// the record and the team's over-limit threshold, both audited.

// AuditActionERPExport is the audit action of a recorded export.
const AuditActionERPExport = "erp-export"

// settingERPThreshold names the over-limit hold threshold in team_settings.
const settingERPThreshold = "erp.over_limit_threshold"

// DefaultERPThreshold is the over-limit threshold, in percent of the
// limit in force, until the team sets its own.
const DefaultERPThreshold = 10.0

// MaxERPThreshold bounds the threshold a team sets, in percent.
const MaxERPThreshold = 1000.0

// MaxERPExportsListed bounds the exports a page lists.
const MaxERPExportsListed = 50

// The actions of a line: hold the account, release it, or leave its hold.
const (
	ERPHold    = "hold"
	ERPRelease = "release"
)

// ERPSent is what the ERP last received of an account.
type ERPSent struct {
	// Limit is the limit last sent, nil for none.
	Limit *float64
	Held  bool
}

// ERPLine is one account of an export as sent.
type ERPLine struct {
	Account, Name string
	// Limit is the limit in force; LimitChanged says the file sends it,
	// Previous is the limit sent before (nil for none).
	Limit        *float64
	LimitChanged bool
	Previous     *float64
	// Held is whether the account is held after this export; Action is
	// ERPHold, ERPRelease or "" (the hold left as it was), Reasons why it
	// is held, "; "-separated.
	Held    bool
	Action  string
	Reasons string
}

// ERPExport is one recorded export.
type ERPExport struct {
	ID                      int64
	System, By              string
	At                      time.Time
	Limits, Holds, Releases int
	Lines                   int
}

// ERPThreshold is the team's over-limit hold threshold in percent
// (DefaultERPThreshold until set).
func (s *Store) ERPThreshold(ctx context.Context, a Analyst) (float64, error) {
	ctx, cancel := s.bound(ctx)
	defer cancel()
	a, err := team(a)
	if err != nil {
		return 0, err
	}
	return s.erpThreshold(ctx, s.r, a.Service)
}

// rowQuerier is the store's reader or a transaction.
type rowQuerier interface {
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

func (s *Store) erpThreshold(ctx context.Context, q rowQuerier, service string) (float64, error) {
	var v string
	err := q.QueryRowContext(ctx, "SELECT value FROM team_settings WHERE service = $1 AND name = $2", service, settingERPThreshold).Scan(&v)
	if errors.Is(err, sql.ErrNoRows) {
		return DefaultERPThreshold, nil
	}
	if err != nil {
		return 0, wrap("erp threshold", err)
	}
	f, err := strconv.ParseFloat(v, 64)
	if err != nil || f < 0 || f > MaxERPThreshold {
		return DefaultERPThreshold, nil
	}
	return f, nil
}

// SetERPThreshold sets the team's over-limit hold threshold (percent, 0
// to MaxERPThreshold), audited with the value before it.
func (s *Store) SetERPThreshold(ctx context.Context, a Analyst, percent float64) error {
	ctx, cancel := s.bound(ctx)
	defer cancel()
	a, err := team(a)
	if err != nil {
		return err
	}
	if math.IsNaN(percent) || percent < 0 || percent > MaxERPThreshold {
		return invalid("threshold", "the threshold is a percentage from 0 to %s", strconv.FormatFloat(MaxERPThreshold, 'f', -1, 64))
	}
	v := strconv.FormatFloat(percent, 'f', -1, 64)
	return s.teamWriteOf(ctx, a.Service, "set erp threshold", touchNone(), func(tx *sql.Tx) error {
		old, err := s.erpThreshold(ctx, tx, a.Service)
		if err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO team_settings (service, name, value, set_by, set_at) VALUES ($1, $2, $3, $4, $5)
			ON CONFLICT (service, name) DO UPDATE SET value = excluded.value, set_by = excluded.set_by, set_at = excluded.set_at`,
			a.Service, settingERPThreshold, v, a.User, s.stamp()); err != nil {
			return err
		}
		_, err = s.appendAuditTx(ctx, tx, a.Service, AuditChange{Actor: a.User, Action: AuditActionSetting,
			OldValue: "over-limit hold threshold " + strconv.FormatFloat(old, 'f', -1, 64) + " %",
			NewValue: "over-limit hold threshold " + v + " %"})
		return err
	})
}

// ERPSentState is what the ERP last received of each account an export
// named.
func (s *Store) ERPSentState(ctx context.Context, a Analyst) (map[string]ERPSent, error) {
	ctx, cancel := s.bound(ctx)
	defer cancel()
	a, err := team(a)
	if err != nil {
		return nil, err
	}
	rows, err := s.r.QueryContext(ctx, "SELECT account, credit_limit, held FROM erp_sent WHERE service = $1 LIMIT $2", a.Service, MaxAccounts)
	if err != nil {
		return nil, wrap("erp sent", err)
	}
	defer rows.Close()
	out := map[string]ERPSent{}
	for rows.Next() {
		var acct string
		var limit sql.NullFloat64
		var held int
		if err := rows.Scan(&acct, &limit, &held); err != nil {
			return nil, wrap("erp sent", err)
		}
		e := ERPSent{Held: held != 0}
		if limit.Valid {
			e.Limit = &limit.Float64
		}
		out[acct] = e
	}
	return out, wrap("erp sent", rows.Err())
}

// nullable is a limit as a column takes it.
func nullable(v *float64) any {
	if v == nil {
		return nil
	}
	return *v
}

// checkERPLines refuses lines a worksheet never makes and counts them.
func checkERPLines(e *ERPExport, lines []ERPLine) error {
	switch {
	case len(lines) == 0:
		return invalid("lines", "nothing changed since the last export: there is nothing to send")
	case len(lines) > MaxAccounts:
		return invalid("lines", "an export holds at most %s accounts", grouped(MaxAccounts))
	}
	seen := make(map[string]bool, len(lines))
	for _, l := range lines {
		if seen[l.Account] || l.Account == "" || !cleanText(l.Account) || !cleanText(l.Name) || !cleanText(l.Reasons) {
			return invalid("lines", "a line is not valid: %q", clip(l.Account))
		}
		seen[l.Account] = true
		if l.LimitChanged {
			e.Limits++
		}
		switch {
		case l.Action == ERPHold && l.Held:
			e.Holds++
		case l.Action == ERPRelease && !l.Held:
			e.Releases++
		case l.Action == "" && l.LimitChanged:
		default:
			return invalid("action", "line %q: %q does not fit its hold", clip(l.Account), clip(l.Action))
		}
	}
	return nil
}

// RecordERPExport records an export of lines for system by a, in one
// transaction: the export, its lines, each account's state as the ERP now
// has it, and one audit entry. It returns the export as recorded.
func (s *Store) RecordERPExport(ctx context.Context, a Analyst, system string, lines []ERPLine) (ERPExport, error) {
	ctx, cancel := s.bound(ctx)
	defer cancel()
	a, err := team(a)
	if err != nil {
		return ERPExport{}, err
	}
	if system == "" || len(system) > 40 || !ValidAuditAction(system) {
		return ERPExport{}, invalid("system", "not a system: %q", clip(system))
	}
	e := ERPExport{ID: newID(), System: system, By: a.User, Lines: len(lines)}
	if err := checkERPLines(&e, lines); err != nil {
		return ERPExport{}, err
	}
	err = s.teamWriteOf(ctx, a.Service, "record erp export", touchNone(), func(tx *sql.Tx) error {
		now := s.stamp()
		e.At = fromStamp(now)
		if _, err := tx.ExecContext(ctx, `INSERT INTO erp_exports (id, service, system, exported_by, exported_at, limits, holds, releases, line_count)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`, e.ID, a.Service, system, a.User, now, e.Limits, e.Holds, e.Releases, e.Lines); err != nil {
			return err
		}
		line, err := tx.PrepareContext(ctx, `INSERT INTO erp_export_lines (export_id, account, name, credit_limit, limit_changed, previous, action, reasons)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`)
		if err != nil {
			return err
		}
		defer line.Close()
		sent, err := tx.PrepareContext(ctx, `INSERT INTO erp_sent (service, account, credit_limit, held, export_id) VALUES ($1, $2, $3, $4, $5)
			ON CONFLICT (service, account) DO UPDATE SET credit_limit = excluded.credit_limit, held = excluded.held, export_id = excluded.export_id`)
		if err != nil {
			return err
		}
		defer sent.Close()
		for _, l := range lines {
			changed, held := 0, 0
			if l.LimitChanged {
				changed = 1
			}
			if l.Held {
				held = 1
			}
			if _, err := line.ExecContext(ctx, e.ID, l.Account, l.Name, nullable(l.Limit), changed, nullable(l.Previous), l.Action, l.Reasons); err != nil {
				return err
			}
			// The ERP now has the limit sent, or still the one before.
			limit := l.Previous
			if l.LimitChanged {
				limit = l.Limit
			}
			if _, err := sent.ExecContext(ctx, a.Service, l.Account, nullable(limit), held, e.ID); err != nil {
				return err
			}
		}
		_, err = s.appendAuditTx(ctx, tx, a.Service, AuditChange{Actor: a.User, Action: AuditActionERPExport,
			NewValue: fmt.Sprintf("%s: %d accounts (%d limits, %d holds, %d releases)", system, e.Lines, e.Limits, e.Holds, e.Releases),
			Reason:   fmt.Sprintf("export %d for %s", e.ID, system)})
		return err
	})
	return e, err
}

// exportColumns are an export's columns as scanERPExport reads them.
const exportColumns = "id, system, exported_by, exported_at, limits, holds, releases, line_count"

// ERPExports lists the team's exports, newest first (at most
// MaxERPExportsListed).
func (s *Store) ERPExports(ctx context.Context, a Analyst) ([]ERPExport, error) {
	ctx, cancel := s.bound(ctx)
	defer cancel()
	a, err := team(a)
	if err != nil {
		return nil, err
	}
	rows, err := s.r.QueryContext(ctx, "SELECT "+exportColumns+" FROM erp_exports WHERE service = $1 ORDER BY exported_at DESC, id DESC LIMIT $2",
		a.Service, MaxERPExportsListed)
	if err != nil {
		return nil, wrap("erp exports", err)
	}
	defer rows.Close()
	var out []ERPExport
	for rows.Next() {
		e, err := scanERPExport(rows)
		if err != nil {
			return nil, wrap("erp exports", err)
		}
		out = append(out, e)
	}
	return out, wrap("erp exports", rows.Err())
}

// scanERPExport reads one export.
func scanERPExport(row rowScanner) (ERPExport, error) {
	var e ERPExport
	var at int64
	err := row.Scan(&e.ID, &e.System, &e.By, &at, &e.Limits, &e.Holds, &e.Releases, &e.Lines)
	e.At = fromStamp(at)
	return e, err
}

// ERPExportLines is one recorded export of the team with its lines, by
// account; ErrNotFound for no such export of the team.
func (s *Store) ERPExportLines(ctx context.Context, a Analyst, id int64) (ERPExport, []ERPLine, error) {
	ctx, cancel := s.bound(ctx)
	defer cancel()
	a, err := team(a)
	if err != nil {
		return ERPExport{}, nil, err
	}
	e, err := scanERPExport(s.r.QueryRowContext(ctx, "SELECT "+exportColumns+" FROM erp_exports WHERE service = $1 AND id = $2", a.Service, id))
	if errors.Is(err, sql.ErrNoRows) {
		return ERPExport{}, nil, ErrNotFound
	}
	if err != nil {
		return ERPExport{}, nil, wrap("erp export", err)
	}
	rows, err := s.r.QueryContext(ctx, `SELECT account, name, credit_limit, limit_changed, previous, action, reasons
		FROM erp_export_lines WHERE export_id = $1 ORDER BY account`, id)
	if err != nil {
		return ERPExport{}, nil, wrap("erp export", err)
	}
	defer rows.Close()
	var out []ERPLine
	for rows.Next() {
		var l ERPLine
		var limit, prev sql.NullFloat64
		var changed int
		if err := rows.Scan(&l.Account, &l.Name, &limit, &changed, &prev, &l.Action, &l.Reasons); err != nil {
			return ERPExport{}, nil, wrap("erp export", err)
		}
		if limit.Valid {
			l.Limit = &limit.Float64
		}
		if prev.Valid {
			l.Previous = &prev.Float64
		}
		l.LimitChanged = changed != 0
		l.Held = l.Reasons != ""
		out = append(out, l)
	}
	return e, out, wrap("erp export", rows.Err())
}
