package store

import (
	"context"
	"database/sql"
	"fmt"
	"time"
)

// Refusals in the team's log are bounded per user and minute: a user who
// sends 400 forbidden requests in a second must not write 400 permanent
// entries (nor slow every other write of the team behind the log's head).
// The first MaxRefusalsLogged of a user's refusals in a minute are logged
// one by one; the rest are counted in audit_refusals, and the count enters
// the log as one entry ("and 387 more refusals") with the team's next
// entry after that minute, in the same transaction that deletes the count.

// MaxRefusalsLogged is how many refusals of one user a minute the log
// takes one by one.
const MaxRefusalsLogged = 10

// refusalMinute is the minute a stamp (microseconds) falls in.
func refusalMinute(stamp int64) int64 { return stamp / int64(time.Minute/time.Microsecond) }

// AppendRefusal logs a refusal (its Action is set to AuditActionRefused):
// as an entry of its own while its actor has had fewer than
// MaxRefusalsLogged this minute, else only counted. logged says which.
func (s *Store) AppendRefusal(ctx context.Context, team string, c AuditChange) (logged bool, err error) {
	ctx, cancel := s.bound(ctx)
	defer cancel()
	c.Action = AuditActionRefused
	// What was asked is one line, whatever the request's path held.
	c = c.cleaned()
	c.NewValue = cleanAuditText(c.NewValue, false)
	if err := c.check(); err != nil {
		return false, err
	}
	key, err := teamKey(team)
	if err != nil {
		return false, err
	}
	err = s.auditTx(ctx, "append refusal", func(tx *sql.Tx) error {
		var seen int64
		if err := tx.QueryRowContext(ctx, `INSERT INTO audit_refusals (team, actor, minute, seen) VALUES ($1, $2, $3, 1)
			ON CONFLICT (team, actor, minute) DO UPDATE SET seen = audit_refusals.seen + 1 RETURNING seen`,
			key, c.Actor, refusalMinute(s.stamp())).Scan(&seen); err != nil {
			return fmt.Errorf("store: refusal count: %w", err)
		}
		if logged = seen <= MaxRefusalsLogged; !logged {
			return nil
		}
		_, err := s.appendAuditTx(ctx, tx, key, c)
		return err
	})
	if err != nil {
		return false, err
	}
	return logged, nil
}

// pendingRefusals takes the counts of minutes before now's out of
// audit_refusals (inside tx, with the team's head locked) and returns the
// entries that sum those past MaxRefusalsLogged, oldest minute first.
func pendingRefusals(ctx context.Context, tx *sql.Tx, team string, now int64) ([]AuditChange, error) {
	minute := refusalMinute(now)
	rows, err := tx.QueryContext(ctx, `SELECT actor, minute, seen FROM audit_refusals
		WHERE team = $1 AND minute < $2 AND seen > $3 ORDER BY minute, actor`, team, minute, MaxRefusalsLogged)
	if err != nil {
		return nil, fmt.Errorf("store: refusal counts: %w", err)
	}
	var out []AuditChange
	for rows.Next() {
		var actor string
		var m, seen int64
		if err := rows.Scan(&actor, &m, &seen); err != nil {
			rows.Close()
			return nil, fmt.Errorf("store: refusal counts: %w", err)
		}
		from := time.Unix(m*60, 0).UTC()
		out = append(out, AuditChange{Actor: actor, Action: AuditActionRefused,
			NewValue: fmt.Sprintf("and %d more refusals", seen-MaxRefusalsLogged),
			Reason: fmt.Sprintf("refused %d times from %s to %s UTC; past %d a minute, refusals are counted, not logged one by one",
				seen, from.Format("2006-01-02 15:04"), from.Add(time.Minute).Format("15:04"), MaxRefusalsLogged)})
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: refusal counts: %w", err)
	}
	if _, err := tx.ExecContext(ctx, "DELETE FROM audit_refusals WHERE team = $1 AND minute < $2", team, minute); err != nil {
		return nil, fmt.Errorf("store: refusal counts: %w", err)
	}
	return out, nil
}
