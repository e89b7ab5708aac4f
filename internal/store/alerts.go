package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
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
// meanwhile, or someone else's) are skipped, and so are those of a month
// no later than the newest one pruned from their rule (see prune): an
// alert lost to the bound is never raised again. It returns how many were
// new. When none is, nothing is written: an evaluation that finds nothing
// new leaves the workspace unchanged, and other replicas' kept pages with
// it.
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
	fresh, err := s.newFirings(ctx, a, fired)
	if err != nil || len(fresh) == 0 {
		return 0, err
	}
	who, err := a.key()
	if err != nil {
		return 0, err
	}
	added := 0
	err = s.write(ctx, a, "record alerts", func(tx *sql.Tx, id int64) error {
		owned, err := ruleFloors(ctx, tx, "SELECT id, pruned_month FROM rules WHERE analyst_id = $1", id)
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
		for _, f := range fresh {
			floor, ok := owned[f.RuleID]
			if !ok || monthOf(f) <= floor {
				continue
			}
			name := tidyName(f.BusinessName)
			alert := newID()
			res, err := insert.ExecContext(ctx, alert, id, f.RuleID, f.BusinessID, name, monthOf(f), f.Old, f.New, now)
			if err != nil {
				return err
			}
			n, err := res.RowsAffected()
			if err != nil {
				return err
			}
			added += int(n)
			if n == 0 {
				continue
			}
			if err := s.Emit(ctx, tx, who.Service, EventAlertRaised, AlertRaisedData{AlertID: alert, Analyst: who.User, RuleID: f.RuleID,
				BusinessID: f.BusinessID, BusinessName: name, Month: fmt.Sprintf("%04d-%02d", f.Year, int(f.Month)), OldValue: f.Old, NewValue: f.New}); err != nil {
				return err
			}
		}
		if added == 0 {
			return nil
		}
		return pruneAlerts(ctx, tx, id)
	})
	if err != nil {
		return 0, err
	}
	return added, nil
}

// monthOf is the month column's value of a firing.
func monthOf(f Triggered) int { return f.Year*100 + int(f.Month) }

// newFirings reads, without taking the writer, which firings are neither
// stored nor settled: of the analyst's rules, past their pruned month, and
// not among the alerts held of their months. The read is bounded by the
// alerts held (MaxAlerts), whatever the number of firings.
func (s *Store) newFirings(ctx context.Context, a Analyst, fired []Triggered) ([]Triggered, error) {
	if len(fired) == 0 {
		return nil, nil
	}
	a, err := a.key()
	if err != nil {
		return nil, err
	}
	floors, err := ruleFloors(ctx, s.r, "SELECT id, pruned_month FROM rules WHERE analyst_id = "+analystID, a.Service, a.User)
	if err != nil {
		return nil, wrap("record alerts", err)
	}
	type key struct {
		rule     int64
		business int32
		month    int
	}
	var candidates []Triggered
	oldest := 0
	for _, f := range fired {
		if floor, ok := floors[f.RuleID]; ok && monthOf(f) > floor {
			candidates = append(candidates, f)
			if oldest == 0 || monthOf(f) < oldest {
				oldest = monthOf(f)
			}
		}
	}
	if len(candidates) == 0 {
		return nil, nil
	}
	rows, err := s.r.QueryContext(ctx, "SELECT rule_id, business_id, month FROM alerts WHERE analyst_id = "+analystID+" AND month >= $3",
		a.Service, a.User, oldest)
	if err != nil {
		return nil, wrap("record alerts", err)
	}
	defer rows.Close()
	held := map[key]bool{}
	for rows.Next() {
		var k key
		if err := rows.Scan(&k.rule, &k.business, &k.month); err != nil {
			return nil, wrap("record alerts", err)
		}
		held[k] = true
	}
	if err := rows.Err(); err != nil {
		return nil, wrap("record alerts", err)
	}
	fresh := candidates[:0]
	for _, f := range candidates {
		k := key{f.RuleID, f.BusinessID, monthOf(f)}
		if !held[k] {
			held[k] = true // a firing given twice is one
			fresh = append(fresh, f)
		}
	}
	return fresh, nil
}

// ruleFloors maps each of the analyst's rules, read by query, to its
// pruned month.
func ruleFloors(ctx context.Context, q rowsQuerier, query string, args ...any) (map[int64]int, error) {
	rows, err := q.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	floors := map[int64]int{}
	for rows.Next() {
		var id int64
		var month int
		if err := rows.Scan(&id, &month); err != nil {
			return nil, err
		}
		floors[id] = month
	}
	return floors, rows.Err()
}

// rowsQuerier is what the reads and a transaction both offer for queries.
type rowsQuerier interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
}

// alertsOrder is the order alerts are kept in: newest first, and of one
// evaluation the latest months first.
const alertsOrder = "created_at DESC, month DESC, id DESC"

// pruneAlerts keeps the analyst's MaxAlerts newest alerts. Each rule that
// loses some first remembers the newest month lost, which RecordAlerts
// then never raises again.
func pruneAlerts(ctx context.Context, tx *sql.Tx, analyst int64) error {
	rows, err := tx.QueryContext(ctx, `SELECT rule_id, MAX(month) FROM alerts WHERE analyst_id = $1 AND id IN (
		SELECT id FROM alerts WHERE analyst_id = $1 ORDER BY `+alertsOrder+` LIMIT $2 OFFSET $3) GROUP BY rule_id`,
		analyst, int64(1)<<62, MaxAlerts)
	if err != nil {
		return err
	}
	lost := map[int64]int{}
	for rows.Next() {
		var rule int64
		var month int
		if err := rows.Scan(&rule, &month); err != nil {
			rows.Close()
			return err
		}
		lost[rule] = month
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	if len(lost) == 0 {
		return nil
	}
	for rule, month := range lost {
		if _, err := tx.ExecContext(ctx, "UPDATE rules SET pruned_month = $1 WHERE id = $2 AND analyst_id = $3 AND pruned_month < $1",
			month, rule, analyst); err != nil {
			return err
		}
	}
	return prune(ctx, tx, "alerts", "id", alertsOrder, analyst, MaxAlerts)
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
