package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"creditdash/internal/roles"
)

// The team's members (issue 46.5): who is in the team, with role and
// authority, kept as team data. TEAM_ROLES only bootstraps an empty team
// (BootstrapMembers); after that an admin changes members (ChangeMember),
// and a change that raises an authority, or makes someone a manager or an
// admin, waits for a second admin (DecideMember). Every change is kept in
// team_member_changes and appended to the audit trail in the transaction
// that makes it. Team changes run under the team's audit head lock, so
// two admins' changes on any replicas are applied one after the other.

// The actions member changes are logged under.
const (
	// AuditActionMember is a member added, changed or removed.
	AuditActionMember = "member"
	// AuditActionMemberProposal is a change proposed that waits for a
	// second admin.
	AuditActionMemberProposal = "member-proposal"
	// AuditActionMemberApprove and AuditActionMemberDecline decide one.
	AuditActionMemberApprove = "member-approve"
	AuditActionMemberDecline = "member-decline"
)

// Member change statuses (StatusPending, StatusApproved, StatusDeclined
// and StatusWithdrawn as limit requests have them, and this one).
const StatusApplied = "applied"

// Bounds of the team.
const (
	// MaxMembers bounds a team, as TEAM_ROLES bounds the names it takes.
	MaxMembers = 10_000
	// MaxPendingMemberChanges bounds the changes waiting at once.
	MaxPendingMemberChanges = 100
)

// ErrMemberFourEyes: an admin asked to approve their own proposal, or a raise of
// their own authority. The error's text says which.
var ErrMemberFourEyes = errors.New("store: a second admin must approve this change")

// ErrNotAdmin: the user is not an admin of the team now.
var ErrNotAdmin = errors.New("store: only the team's admins change members")

// Member is one member of the team now.
type Member struct {
	Name string
	roles.Assignment
	AddedBy, ChangedBy string
	AddedAt, ChangedAt time.Time
}

// MemberSpec is a change as an admin asks it: the member's new role and
// authority, or Remove.
type MemberSpec struct {
	Name   string
	Role   roles.Role
	Remove bool
	// Authority is ignored for an auditor (who has none).
	Authority int64
	Reason    string
}

// MemberChange is one change of the team, made or proposed.
type MemberChange struct {
	ID   int64
	Name string
	// Old is the assignment before; OldMember false when the user was not
	// a member (Old is then what a non-member has).
	Old       roles.Assignment
	OldMember bool
	// New is the assignment after; Removed when the change removes them.
	New             roles.Assignment
	Removed         bool
	Reason          string
	ProposedBy      string
	ProposedAt      time.Time
	Status          string
	DecidedBy, Note string
	DecidedAt       time.Time
	// Waits says why the change needs a second admin ("" when it does
	// not): see Raises.
	Waits string
}

// memberLine writes an assignment as the audit trail records it, "" for none.
func memberLine(name string, a roles.Assignment, member bool) string {
	if !member {
		return ""
	}
	return roles.Line(name, a)
}

// Raises reports whether going from old to new needs a second admin: a
// higher authority, or a role that decides (manager, admin) not held
// before. Removal and lowering never do.
func Raises(old, new roles.Assignment, removed bool) string {
	if removed {
		return ""
	}
	switch {
	case new.Effective() > old.Effective():
		return "it raises the authority"
	case new.Role != old.Role && (new.Role == roles.Manager || new.Role == roles.Admin):
		return "it makes them " + string(new.Role)
	}
	return ""
}

// checkMemberName refuses a name that is not a user name as one signs in.
func checkMemberName(name string) error {
	if !ValidUserName(name) {
		return invalid("name", "a member is a user name as one signs in with: up to %d letters, digits and . _ - @ +", maxAssignedOwnerLen)
	}
	return nil
}

// Members lists the team's members now, by name.
func (s *Store) Members(ctx context.Context, team string) ([]Member, error) {
	ctx, cancel := s.bound(ctx)
	defer cancel()
	t, err := teamKey(team)
	if err != nil {
		return nil, err
	}
	rows, err := s.r.QueryContext(ctx, `SELECT name, role, authority, added_by, added_at, changed_by, changed_at
		FROM team_members WHERE service = $1 ORDER BY name LIMIT $2`, t, MaxMembers)
	if err != nil {
		return nil, wrap("members", err)
	}
	defer rows.Close()
	var out []Member
	for rows.Next() {
		var m Member
		var role string
		var added, changed int64
		if err := rows.Scan(&m.Name, &role, &m.Authority, &m.AddedBy, &added, &m.ChangedBy, &changed); err != nil {
			return nil, wrap("members", err)
		}
		m.Role, m.AddedAt, m.ChangedAt = roles.Role(role), fromStamp(added), fromStamp(changed)
		out = append(out, m)
	}
	return out, wrap("members", rows.Err())
}

// MemberChanges lists the team's changes, newest first, at most limit
// (up to 1,000); the pending ones are always among them.
func (s *Store) MemberChanges(ctx context.Context, team string, limit int) ([]MemberChange, error) {
	ctx, cancel := s.bound(ctx)
	defer cancel()
	t, err := teamKey(team)
	if err != nil {
		return nil, err
	}
	limit = min(max(limit, 1), 1000)
	rows, err := s.r.QueryContext(ctx, `SELECT `+changeColumns+` FROM team_member_changes WHERE service = $1
		ORDER BY CASE WHEN status = 'pending' THEN 0 ELSE 1 END, proposed_at DESC, id DESC LIMIT $2`, t, limit+MaxPendingMemberChanges)
	if err != nil {
		return nil, wrap("member changes", err)
	}
	defer rows.Close()
	var out []MemberChange
	for rows.Next() {
		c, err := scanChange(rows)
		if err != nil {
			return nil, wrap("member changes", err)
		}
		if c.Status == StatusPending || len(out) < limit {
			out = append(out, c)
		}
	}
	return out, wrap("member changes", rows.Err())
}

// changeColumns are team_member_changes' columns as scanChange reads them.
const changeColumns = `id, name, old_role, old_authority, new_role, new_authority, reason, proposed_by, proposed_at,
	status, decided_by, decided_at, note`

// scanChange reads one change.
func scanChange(row rowScanner) (MemberChange, error) {
	var c MemberChange
	var oldRole, newRole string
	var proposed, decided int64
	err := row.Scan(&c.ID, &c.Name, &oldRole, &c.Old.Authority, &newRole, &c.New.Authority, &c.Reason, &c.ProposedBy, &proposed,
		&c.Status, &c.DecidedBy, &decided, &c.Note)
	c.Old.Role, c.OldMember = roles.Role(oldRole), oldRole != ""
	c.New.Role, c.Removed = roles.Role(newRole), newRole == ""
	c.ProposedAt, c.DecidedAt = fromStamp(proposed), fromStamp(decided)
	if !c.OldMember {
		c.Old.Role = roles.Analyst
	}
	c.Waits = Raises(c.Old, c.New, c.Removed)
	return c, err
}

// memberNow reads the user's assignment in tx: theirs if a member, else a
// non-member's (an analyst of analystAuthority).
func memberNow(ctx context.Context, tx *sql.Tx, team, name string, analystAuthority int64) (roles.Assignment, bool, error) {
	var role string
	var a roles.Assignment
	err := tx.QueryRowContext(ctx, "SELECT role, authority FROM team_members WHERE service = $1 AND name = $2", team, name).Scan(&role, &a.Authority)
	if errors.Is(err, sql.ErrNoRows) {
		return roles.Assignment{Role: roles.Analyst, Authority: analystAuthority}, false, nil
	}
	a.Role = roles.Role(role)
	return a, err == nil, err
}

// countAdmins counts the team's admins in tx.
func countAdmins(ctx context.Context, tx *sql.Tx, team string) (int, error) {
	var n int
	err := tx.QueryRowContext(ctx, "SELECT COUNT(*) FROM team_members WHERE service = $1 AND role = $2", team, string(roles.Admin)).Scan(&n)
	return n, err
}

// applyMember writes the member's new assignment (or removes them) in tx.
func (s *Store) applyMember(ctx context.Context, tx *sql.Tx, team, by string, c MemberChange, now int64) error {
	if c.Removed {
		_, err := tx.ExecContext(ctx, "DELETE FROM team_members WHERE service = $1 AND name = $2", team, c.Name)
		return err
	}
	if !c.OldMember {
		var n int
		if err := tx.QueryRowContext(ctx, "SELECT COUNT(*) FROM team_members WHERE service = $1", team).Scan(&n); err != nil {
			return err
		}
		if n >= MaxMembers {
			return invalid("name", "a team has at most %s members", grouped(MaxMembers))
		}
	}
	_, err := tx.ExecContext(ctx, `INSERT INTO team_members (service, name, role, authority, added_by, added_at, changed_by, changed_at)
		VALUES ($1, $2, $3, $4, $5, $6, $5, $6)
		ON CONFLICT (service, name) DO UPDATE SET role = excluded.role, authority = excluded.authority,
			changed_by = excluded.changed_by, changed_at = excluded.changed_at`,
		team, c.Name, string(c.New.Role), c.New.Authority, by, now)
	return err
}

// insertChange keeps a change in tx.
func insertChange(ctx context.Context, tx *sql.Tx, team string, c MemberChange) error {
	oldRole, newRole := "", ""
	if c.OldMember {
		oldRole = string(c.Old.Role)
	}
	if !c.Removed {
		newRole = string(c.New.Role)
	}
	_, err := tx.ExecContext(ctx, `INSERT INTO team_member_changes (id, service, name, old_role, old_authority, new_role, new_authority,
		reason, proposed_by, proposed_at, status, decided_by, decided_at, note)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)`,
		c.ID, team, c.Name, oldRole, c.Old.Authority, newRole, c.New.Authority, c.Reason, c.ProposedBy, stampOf(c.ProposedAt),
		c.Status, c.DecidedBy, stampOf(c.DecidedAt), c.Note)
	return err
}

// values are the change's old and new values as the audit trail records
// them: configuration lines, "" for not a member.
func (c MemberChange) values() (string, string) {
	return memberLine(c.Name, c.Old, c.OldMember), memberLine(c.Name, c.New, !c.Removed)
}

// describe is the change's reason as the audit trail records it.
func (c MemberChange) describe(what string) string {
	return fmt.Sprintf("team change %d: %s: %s", c.ID, what, c.Reason)
}
