package store

import (
	"context"
	"database/sql"
	"slices"
	"strings"
)

// RecordRoles logs the roles in force when they differ from the last ones
// the team's log recorded: one "role" entry by "config" per subject whose
// line is new, changed or gone. inForce are lines "subject=value" (a user
// name and its role, "alice=manager:250000"); the subject is the text
// before the first "=". An entry's old_value is the line last recorded for
// its subject ("" when new) and its new_value the line now ("" when gone).
// It runs under the team's head lock, so replicas starting together with
// the same configuration record each change once. It returns the entries
// appended, none when nothing changed.
func (s *Store) RecordRoles(ctx context.Context, team string, inForce []string) ([]AuditEntry, error) {
	ctx, cancel := s.bound(ctx)
	defer cancel()
	now := map[string]string{}
	for _, line := range inForce {
		subject, _, ok := strings.Cut(line, "=")
		if !ok || subject == "" {
			return nil, invalid("roles", "%q is not subject=value", line)
		}
		if _, dup := now[subject]; dup {
			return nil, invalid("roles", "%s is named twice", subject)
		}
		now[subject] = line
	}
	var out []AuditEntry
	err := s.auditTx(ctx, "record roles", func(tx *sql.Tx) error {
		t, err := teamKey(team)
		if err != nil {
			return err
		}
		// The head lock first: the roles read below are then the last
		// ones any replica recorded.
		if _, err := lockAuditHead(ctx, tx, t); err != nil {
			return err
		}
		last, err := recordedRoles(ctx, tx, t)
		if err != nil {
			return err
		}
		var changes []AuditChange
		for _, subject := range sortedKeys(now) {
			switch was := last[subject]; {
			case was == "":
				changes = append(changes, roleChange(was, now[subject], "In force from this start: newly configured."))
			case was != now[subject]:
				changes = append(changes, roleChange(was, now[subject], "In force from this start: changed in the configuration."))
			}
		}
		for _, subject := range sortedKeys(last) {
			if _, ok := now[subject]; !ok {
				changes = append(changes, roleChange(last[subject], "", "No longer configured from this start."))
			}
		}
		if len(changes) == 0 {
			return nil
		}
		out, err = s.appendAuditTx(ctx, tx, t, changes...)
		return err
	})
	return out, err
}

// roleChange is a "role" entry by the configuration.
func roleChange(was, now, reason string) AuditChange {
	return AuditChange{Actor: AuditActorConfig, Action: AuditActionRole, OldValue: was, NewValue: now, Reason: reason}
}

// recordedRoles folds the team's "role" entries by the configuration into
// the lines last recorded per subject; a subject whose last entry removed
// it is absent.
func recordedRoles(ctx context.Context, tx *sql.Tx, team string) (map[string]string, error) {
	rows, err := tx.QueryContext(ctx, `SELECT old_value, new_value FROM audit_entries
		WHERE team = $1 AND action = $2 AND actor = $3 ORDER BY seq`, team, AuditActionRole, AuditActorConfig)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[string]string{}
	for rows.Next() {
		var was, now string
		if err := rows.Scan(&was, &now); err != nil {
			return nil, err
		}
		if now != "" {
			subject, _, _ := strings.Cut(now, "=")
			out[subject] = now
		} else {
			subject, _, _ := strings.Cut(was, "=")
			delete(out, subject)
		}
	}
	return out, rows.Err()
}

// sortedKeys are m's keys in order, so entries are appended in an order
// that does not depend on map iteration.
func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
