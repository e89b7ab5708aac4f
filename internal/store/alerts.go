package store

import (
	"context"
	"database/sql"
	"errors"
	"math"
	"time"
)

// MaxAlerts is how many triggered alerts one analyst keeps; past it the
// oldest go, so a rule on a large portfolio cannot grow a table for ever.
const MaxAlerts = 10000

// Triggered is one firing of a rule, as the evaluator found it.
type Triggered struct {
	RuleID       int64
	BusinessID   int32
	BusinessName string
	// Year and Month are the month of the score that fired the rule.
	Year  int
	Month time.Month
	// Old is the previous month's value, nil when there was none.
	Old *float64
	New float64
}

// Alert is a stored triggered alert with the rule that raised it.
type Alert struct {
	ID int64
	Triggered
	Rule    RuleSpec
	Created time.Time
	// Read is when the analyst marked it read; zero while unread.
	Read time.Time
}

// Unread reports whether the analyst has not marked the alert read.
func (a Alert) Unread() bool { return a.Read.IsZero() }

// RecordAlerts stores each firing once per rule, business and month; a
// firing already stored is ignored, so rules can be re-evaluated every
// time data arrives. Firings of rules the analyst does not have (deleted
// meanwhile, or someone else's) are skipped. It returns how many were new.
func (s *Store) RecordAlerts(ctx context.Context, a Analyst, fired []Triggered) (int, error) {
	ctx, cancel := s.bound(ctx)
	defer cancel()
	for _, f := range fired {
		if err := checkBusiness(f.BusinessID); err != nil {
			return 0, err
		}
		if f.Year < 1900 || f.Year > 9999 || f.Month < time.January || f.Month > time.December {
			return 0, invalid("month", "not a month")
		}
	}
	added := 0
	err := s.write(ctx, a, "record alerts", func(tx *sql.Tx, id int64) error {
		owned, err := ruleIDs(ctx, tx, id)
		if err != nil {
			return err
		}
		// Prepared once: a portfolio rule fires for many businesses at once.
		insert, err := tx.PrepareContext(ctx, `INSERT INTO alerts (id, analyst_id, rule_id, business_id, business_name, month, old_value, new_value, created_at)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
			ON CONFLICT (rule_id, business_id, month) DO NOTHING`)
		if err != nil {
			return err
		}
		defer insert.Close()
		now := s.stamp()
		for _, f := range fired {
			if !owned[f.RuleID] {
				continue
			}
			name := tidyName(f.BusinessName)
			res, err := insert.ExecContext(ctx, newID(), id, f.RuleID, f.BusinessID, name, f.Year*100+int(f.Month), f.Old, f.New, now)
			if err != nil {
				return err
			}
			n, err := res.RowsAffected()
			if err != nil {
				return err
			}
			added += int(n)
		}
		if added == 0 {
			return nil
		}
		return prune(ctx, tx, "alerts", "id", "created_at DESC, id DESC", id, MaxAlerts)
	})
	if err != nil {
		return 0, err
	}
	return added, nil
}

// ruleIDs is the set of the analyst's rule ids.
func ruleIDs(ctx context.Context, tx *sql.Tx, analyst int64) (map[int64]bool, error) {
	rows, err := tx.QueryContext(ctx, "SELECT id FROM rules WHERE analyst_id = $1", analyst)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	ids := map[int64]bool{}
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			return nil, err
		}
		ids[id] = true
	}
	return ids, rows.Err()
}

// prune keeps the analyst's first keep rows of table in order and deletes
// the rest; key is the column list that names a row. LIMIT with a huge
// count stands in for "no limit", which the engines spell differently.
func prune(ctx context.Context, tx *sql.Tx, table, key, order string, analyst int64, keep int) error {
	_, err := tx.ExecContext(ctx, "DELETE FROM "+table+" WHERE analyst_id = $1 AND ("+key+") IN (SELECT "+key+" FROM "+table+
		" WHERE analyst_id = $1 ORDER BY "+order+" LIMIT $2 OFFSET $3)", analyst, int64(1)<<62, keep)
	return err
}

// Alerts are the analyst's most recent triggered alerts, newest first, at
// most limit of them (all when limit <= 0).
func (s *Store) Alerts(ctx context.Context, a Analyst, limit int) ([]Alert, error) {
	ctx, cancel := s.bound(ctx)
	defer cancel()
	a, err := a.key()
	if err != nil {
		return nil, err
	}
	if limit <= 0 {
		limit = MaxAlerts
	}
	rows, err := s.r.QueryContext(ctx, `SELECT al.id, al.rule_id, al.business_id, al.business_name, al.month, al.old_value, al.new_value,
			al.created_at, al.read_at, r.scope, r.business_id, r.folder_id, r.target_name, r.score, r.cond, r.threshold, r.category, r.steady
		FROM alerts al JOIN rules r ON r.id = al.rule_id
		WHERE al.analyst_id = `+analystID+` ORDER BY al.created_at DESC, al.id DESC LIMIT $3`, a.Service, a.User, limit)
	if err != nil {
		return nil, wrap("alerts", err)
	}
	defer rows.Close()
	var out []Alert
	for rows.Next() {
		var al Alert
		var month int
		var old sql.Null[float64]
		var created int64
		var read sql.Null[int64]
		r := &al.Rule
		if err := rows.Scan(&al.ID, &al.RuleID, &al.BusinessID, &al.BusinessName, &month, &old, &al.New, &created, &read,
			&r.Scope, &r.BusinessID, &r.FolderID, &r.TargetName, &r.Score, &r.Condition, &r.Threshold, &r.Category, &r.Steady); err != nil {
			return nil, wrap("alerts", err)
		}
		al.Year, al.Month = month/100, time.Month(month%100)
		if old.Valid {
			al.Old = &old.V
		}
		al.Created = fromStamp(created)
		if read.Valid {
			al.Read = fromStamp(read.V)
		}
		out = append(out, al)
	}
	return out, wrap("alerts", rows.Err())
}

// Glance is what every page shows of the workspace besides its own
// sections, read in one query.
type Glance struct {
	// Unread counts the analyst's unread alerts, for the header.
	Unread int
	// Changed is when the analyst's workspace last changed, on any replica
	// (a stamp, 0 before the first change): a page kept by one replica
	// must not outlive a note written on another.
	Changed int64
}

// Glance reads the analyst's unread alerts and last change.
func (s *Store) Glance(ctx context.Context, a Analyst) (Glance, error) {
	ctx, cancel := s.bound(ctx)
	defer cancel()
	a, err := a.key()
	if err != nil {
		return Glance{}, err
	}
	var g Glance
	err = s.r.QueryRowContext(ctx, `SELECT an.written_at,
		(SELECT COUNT(*) FROM alerts WHERE analyst_id = an.id AND read_at IS NULL)
		FROM analysts an WHERE an.service = $1 AND an.user_name = $2`, a.Service, a.User).Scan(&g.Changed, &g.Unread)
	if errors.Is(err, sql.ErrNoRows) {
		return Glance{}, nil // nothing written yet
	}
	return g, wrap("glance", err)
}

// MarkAlertRead marks one of the analyst's alerts read (again is fine);
// another analyst's alert is ErrNotFound.
func (s *Store) MarkAlertRead(ctx context.Context, a Analyst, alert int64) error {
	ctx, cancel := s.bound(ctx)
	defer cancel()
	return s.write(ctx, a, "mark alert read", func(tx *sql.Tx, id int64) error {
		res, err := tx.ExecContext(ctx, "UPDATE alerts SET read_at = COALESCE(read_at, $3) WHERE id = $1 AND analyst_id = $2",
			alert, id, s.stamp())
		if err != nil {
			return err
		}
		if n, err := res.RowsAffected(); err != nil || n == 0 {
			if err == nil {
				err = ErrNotFound
			}
			return err
		}
		return nil
	})
}

// MarkAllAlertsRead marks the analyst's unread alerts created up to upTo
// read (all of them when upTo is zero) and says how many there were. upTo
// is the newest alert the analyst was shown: one that fired after the page
// was drawn stays unread.
func (s *Store) MarkAllAlertsRead(ctx context.Context, a Analyst, upTo time.Time) (int, error) {
	ctx, cancel := s.bound(ctx)
	defer cancel()
	limit := int64(math.MaxInt64)
	if !upTo.IsZero() {
		limit = upTo.UnixMicro()
	}
	var n int64
	err := s.write(ctx, a, "mark all alerts read", func(tx *sql.Tx, id int64) error {
		res, err := tx.ExecContext(ctx, "UPDATE alerts SET read_at = $2 WHERE analyst_id = $1 AND read_at IS NULL AND created_at <= $3", id, s.stamp(), limit)
		if err != nil {
			return err
		}
		n, err = res.RowsAffected()
		return err
	})
	return int(n), err
}
