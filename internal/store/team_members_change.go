package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"creditdash/internal/roles"
)

// BootstrapMembers makes the configuration's named users (TEAM_ROLES) the
// team's members when the team has none, each logged by "config" with
// source in its reason; a team with members is left alone, so the
// configuration can no longer change who is in it. It reports how many
// members it added. Replicas starting together add them once.
func (s *Store) BootstrapMembers(ctx context.Context, team string, t *roles.Table, source string) (int, error) {
	ctx, cancel := s.bound(ctx)
	defer cancel()
	key, err := teamKey(team)
	if err != nil {
		return 0, err
	}
	names := t.Named()
	if len(names) > MaxMembers {
		return 0, invalid("name", "a team has at most %s members", grouped(MaxMembers))
	}
	added := 0
	err = s.teamWriteIfOf(ctx, key, "bootstrap members", touchNone(), func(tx *sql.Tx) (bool, error) {
		if _, err := lockAuditHead(ctx, tx, key); err != nil {
			return false, err
		}
		var n int
		if err := tx.QueryRowContext(ctx, "SELECT COUNT(*) FROM team_members WHERE service = $1", key).Scan(&n); err != nil {
			return false, err
		}
		if n > 0 || len(names) == 0 {
			return false, nil
		}
		now := s.stamp()
		changes := make([]AuditChange, 0, len(names))
		for _, name := range names {
			as, _ := t.Assignment(name)
			c := MemberChange{ID: newID(), Name: name, Old: roles.Assignment{Role: roles.Analyst, Authority: t.AnalystAuthority()},
				New: as, Reason: "bootstrapped the empty team from " + source, ProposedBy: AuditActorConfig,
				ProposedAt: fromStamp(now), Status: StatusApplied, DecidedBy: AuditActorConfig, DecidedAt: fromStamp(now)}
			if err := s.applyMember(ctx, tx, key, AuditActorConfig, c, now); err != nil {
				return false, err
			}
			if err := insertChange(ctx, tx, key, c); err != nil {
				return false, err
			}
			old, new := c.values()
			changes = append(changes, AuditChange{Actor: AuditActorConfig, Action: AuditActionMember, OldValue: old, NewValue: new,
				Reason: c.describe("added")})
		}
		added = len(names)
		_, err := s.appendAuditTx(ctx, tx, key, changes...)
		return true, err
	})
	return added, err
}

// ChangeMember makes the change admin a asks of spec.Name: added (not yet
// a member), changed, or removed. A change that raises (see Raises) is
// kept pending for a second admin (DecideMember); any other is applied at
// once. analystAuthority is a non-member's authority (ANALYST_AUTHORITY).
// ErrNotAdmin when a is not an admin now; a *ValidationError for a change
// the team cannot take (nothing changes then).
func (s *Store) ChangeMember(ctx context.Context, a Analyst, spec MemberSpec, analystAuthority int64) (MemberChange, error) {
	ctx, cancel := s.bound(ctx)
	defer cancel()
	a, err := team(a)
	if err != nil {
		return MemberChange{}, err
	}
	if err := checkMemberName(spec.Name); err != nil {
		return MemberChange{}, err
	}
	if spec.Reason, err = checkReason("reason", spec.Reason); err != nil {
		return MemberChange{}, err
	}
	next := roles.Assignment{Role: spec.Role, Authority: spec.Authority}
	if spec.Role == roles.Auditor {
		next.Authority = 0
	}
	if !spec.Remove {
		if err := next.Check(); err != nil {
			return MemberChange{}, invalid("role", "%s", err.Error())
		}
	}
	var c MemberChange
	err = s.teamWriteOf(ctx, a.Service, "change member", touchNone(), func(tx *sql.Tx) error {
		if _, err := lockAuditHead(ctx, tx, a.Service); err != nil {
			return err
		}
		if me, member, err := memberNow(ctx, tx, a.Service, a.User, analystAuthority); err != nil {
			return err
		} else if !member || me.Role != roles.Admin {
			return ErrNotAdmin
		}
		var waiting, mine int
		if err := tx.QueryRowContext(ctx, `SELECT COUNT(*), COALESCE(SUM(CASE WHEN name = $3 THEN 1 ELSE 0 END), 0)
			FROM team_member_changes WHERE service = $1 AND status = $2`, a.Service, StatusPending, spec.Name).Scan(&waiting, &mine); err != nil {
			return err
		}
		switch {
		case mine > 0:
			return invalid("name", "a change of %s already waits for a second admin: approve, decline or withdraw it first", spec.Name)
		case waiting >= MaxPendingMemberChanges:
			return invalid("name", "%d changes of the team already wait for a second admin: decide some first", waiting)
		}
		old, member, err := memberNow(ctx, tx, a.Service, spec.Name, analystAuthority)
		if err != nil {
			return err
		}
		switch {
		case spec.Remove && !member:
			return invalid("name", "%s is not a member of the team", spec.Name)
		case !spec.Remove && member && old == next:
			return invalid("role", "%s is already %s", spec.Name, roles.Line(spec.Name, next))
		case member && old.Role == roles.Admin && (spec.Remove || next.Role != roles.Admin):
			n, err := countAdmins(ctx, tx, a.Service)
			if err != nil {
				return err
			}
			if n <= 1 {
				return invalid("role", "%s is the team's only admin: make another member admin first", spec.Name)
			}
		}
		now := s.stamp()
		c = MemberChange{ID: newID(), Name: spec.Name, Old: old, OldMember: member, New: next, Removed: spec.Remove,
			Reason: spec.Reason, ProposedBy: a.User, ProposedAt: fromStamp(now)}
		if spec.Remove {
			c.New = roles.Assignment{}
		}
		c.Waits = Raises(c.Old, c.New, c.Removed)
		old2, new2 := c.values()
		entry := AuditChange{Actor: a.User, OldValue: old2, NewValue: new2}
		if c.Waits != "" {
			c.Status = StatusPending
			entry.Action, entry.Reason = AuditActionMemberProposal, c.describe("waits for a second admin, as "+c.Waits)
		} else {
			c.Status, c.DecidedBy, c.DecidedAt = StatusApplied, a.User, c.ProposedAt
			entry.Action, entry.Reason = AuditActionMember, c.describe(c.verb()+" at once")
			if err := s.applyMember(ctx, tx, a.Service, a.User, c, now); err != nil {
				return err
			}
		}
		if err := insertChange(ctx, tx, a.Service, c); err != nil {
			return err
		}
		_, err = s.appendAuditTx(ctx, tx, a.Service, entry)
		return err
	})
	return c, err
}

// verb says what a change does to its member.
func (c MemberChange) verb() string {
	switch {
	case c.Removed:
		return "removed"
	case !c.OldMember:
		return "added"
	}
	return "changed"
}

// DecideMember approves or declines (approve false) a pending change by
// admin a. The proposer may not approve it, nor may the member it raises
// (ErrMemberFourEyes); the proposer's decline withdraws it. A decline needs a
// note. Approving applies the change, unless the member was changed since
// it was proposed (a *ValidationError: decline it and propose again).
func (s *Store) DecideMember(ctx context.Context, a Analyst, id int64, approve bool, note string, analystAuthority int64) (MemberChange, error) {
	ctx, cancel := s.bound(ctx)
	defer cancel()
	a, err := team(a)
	if err != nil {
		return MemberChange{}, err
	}
	if !approve || note != "" {
		if note, err = checkReason("note", note); err != nil {
			return MemberChange{}, err
		}
	}
	var c MemberChange
	err = s.teamWriteOf(ctx, a.Service, "decide member", touchNone(), func(tx *sql.Tx) error {
		if _, err := lockAuditHead(ctx, tx, a.Service); err != nil {
			return err
		}
		var err error
		c, err = scanChange(tx.QueryRowContext(ctx, `SELECT `+changeColumns+` FROM team_member_changes WHERE service = $1 AND id = $2`, a.Service, id))
		if errors.Is(err, sql.ErrNoRows) {
			return ErrNotFound
		}
		if err != nil {
			return err
		}
		if c.Status != StatusPending {
			return invalid("change", "team change %d was already %s by %s", c.ID, c.Status, c.DecidedBy)
		}
		if me, member, err := memberNow(ctx, tx, a.Service, a.User, analystAuthority); err != nil {
			return err
		} else if !member || me.Role != roles.Admin {
			return ErrNotAdmin
		}
		switch {
		case approve && c.ProposedBy == a.User:
			return fmt.Errorf("%w: you proposed team change %d, so another admin approves it", ErrMemberFourEyes, c.ID)
		case approve && c.Name == a.User:
			return fmt.Errorf("%w: team change %d raises your own role or authority, so another admin approves it", ErrMemberFourEyes, c.ID)
		}
		now := s.stamp()
		c.DecidedBy, c.DecidedAt, c.Note = a.User, fromStamp(now), note
		entry := AuditChange{Actor: a.User, Action: AuditActionMemberDecline}
		entry.OldValue, entry.NewValue = c.values()
		switch {
		case approve:
			cur, member, err := memberNow(ctx, tx, a.Service, c.Name, analystAuthority)
			if err != nil {
				return err
			}
			if member != c.OldMember || (member && cur != c.Old) {
				return invalid("change", "%s was changed since team change %d was proposed: decline it and propose again", c.Name, c.ID)
			}
			if err := s.applyMember(ctx, tx, a.Service, a.User, c, now); err != nil {
				return err
			}
			c.Status, entry.Action = StatusApproved, AuditActionMemberApprove
		case c.ProposedBy == a.User:
			c.Status = StatusWithdrawn
		default:
			c.Status = StatusDeclined
		}
		entry.Reason = c.describe(c.Status + " by " + a.User)
		if note != "" {
			entry.Reason += " (note: " + note + ")"
		}
		res, err := tx.ExecContext(ctx, `UPDATE team_member_changes SET status = $3, decided_by = $4, decided_at = $5, note = $6
			WHERE service = $1 AND id = $2 AND status = 'pending'`, a.Service, c.ID, c.Status, a.User, now, note)
		if err != nil {
			return err
		}
		if n, err := res.RowsAffected(); err != nil || n != 1 {
			return errors.Join(err, errors.New("store: the change was decided meanwhile"))
		}
		_, err = s.appendAuditTx(ctx, tx, a.Service, entry)
		return err
	})
	return c, err
}
