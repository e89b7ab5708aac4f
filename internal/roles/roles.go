// Package roles says who may do what in a team: every member has a role
// and an authority, and a user who is not a member is an analyst with
// ANALYST_AUTHORITY. Roles are the team's own, never the service's: the
// team's members are kept in the store and managed on /team; TEAM_ROLES,
// parsed here, only bootstraps an empty team. This package holds the one
// table of grants.
package roles

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Role is what a user may do in the team.
type Role string

// The four roles. An analyst works accounts and requests limits within
// their authority; a manager also approves others' requests within theirs;
// an admin (the team's administrator) does what a manager does and also
// adds and changes the team's members; an auditor reads everything of the
// team and changes nothing.
const (
	Analyst Role = "analyst"
	Manager Role = "manager"
	Admin   Role = "admin"
	Auditor Role = "auditor"
)

// All are the roles, from least to most a member may change.
var All = []Role{Auditor, Analyst, Manager, Admin}

// Valid reports whether r is one of the four roles.
func (r Role) Valid() bool { return r == Analyst || r == Manager || r == Admin || r == Auditor }

// valid is Valid, for this package's parser.
func (r Role) valid() bool { return r.Valid() }

// Decides reports whether the role approves others' limit requests: a
// manager's or an admin's.
func (r Role) Decides() bool { return r == Manager || r == Admin }

// Assignment is one user's role and authority: the largest credit limit,
// in whole currency units, they may set without another's approval.
type Assignment struct {
	Role      Role
	Authority int64
}

// String writes the assignment as its configuration line does after the
// name: "manager:250000", or "auditor" (auditors have no authority).
func (a Assignment) String() string {
	if a.Role == Auditor {
		return string(a.Role)
	}
	return string(a.Role) + ":" + strconv.FormatInt(a.Authority, 10)
}

// Covers reports whether amount lies within the assignment's authority.
// An auditor's covers nothing.
func (a Assignment) Covers(amount int64) bool {
	return a.Role != Auditor && amount >= 0 && amount <= a.Authority
}

// Effective is the authority the assignment actually carries: an
// auditor's is none, whatever is written beside it.
func (a Assignment) Effective() int64 {
	if a.Role == Auditor {
		return 0
	}
	return a.Authority
}

// Check refuses an assignment no member may hold: an unknown role, an
// authority out of range, an auditor with an authority.
func (a Assignment) Check() error {
	switch {
	case !a.Role.Valid():
		return fmt.Errorf("role %q is not analyst, manager, admin or auditor", string(a.Role))
	case a.Authority < 0 || a.Authority > MaxAuthority:
		return fmt.Errorf("authority %d is not from 0 to %d", a.Authority, MaxAuthority)
	case a.Role == Auditor && a.Authority != 0:
		return errors.New("an auditor changes nothing, so has no authority")
	}
	return nil
}

// MaxAuthority bounds an authority: a quadrillion is past any credit limit
// and keeps sums of limits far inside int64.
const MaxAuthority int64 = 1_000_000_000_000_000

// maxNameLen bounds a user name, as the workspace bounds it.
const maxNameLen = 256

// maxEntries bounds the number of users the configuration may name.
const maxEntries = 10_000

// Table is the team's roles in force: its members (or the users named in
// the configuration), and the authority of everyone else, who is an
// analyst.
// The zero value is a team of analysts without authority. A Table is never
// changed after Parse, so it is safe for concurrent use.
type Table struct {
	named map[string]Assignment
	// analystAuthority is ANALYST_AUTHORITY: the authority of every
	// analyst the configuration names without one, and of everyone it does
	// not name.
	analystAuthority int64
}

// Of is the user's assignment: theirs if named, else the default analyst's.
func (t *Table) Of(user string) Assignment {
	if t != nil {
		if a, ok := t.named[user]; ok {
			return a
		}
		return Assignment{Role: Analyst, Authority: t.analystAuthority}
	}
	return Assignment{Role: Analyst}
}

// NewTable is the table of the members given (name to assignment, which
// it copies) with everyone else an analyst of analystAuthority.
func NewTable(members map[string]Assignment, analystAuthority int64) *Table {
	t := &Table{named: make(map[string]Assignment, len(members)), analystAuthority: analystAuthority}
	for n, a := range members {
		t.named[n] = a
	}
	return t
}

// Has reports whether the user is named in the table: a member of the team.
func (t *Table) Has(user string) bool {
	if t == nil {
		return false
	}
	_, ok := t.named[user]
	return ok
}

// Assignment is the named user's assignment and whether they are named;
// unlike Of it gives no default.
func (t *Table) Assignment(user string) (Assignment, bool) {
	if t == nil {
		return Assignment{}, false
	}
	a, ok := t.named[user]
	return a, ok
}

// AnalystAuthority is the authority of analysts named without one and of
// users not named at all.
func (t *Table) AnalystAuthority() int64 {
	if t == nil {
		return 0
	}
	return t.analystAuthority
}

// Named lists the users the configuration names, sorted, each with the
// assignment in force.
func (t *Table) Named() []string {
	if t == nil {
		return nil
	}
	names := make([]string, 0, len(t.named))
	for n := range t.named {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

// Lines writes the table as configuration lines, one per named user,
// sorted by name, each with its authority spelled out
// ("alice=manager:250000"). These lines are what the audit trail records
// as the roles in force.
func (t *Table) Lines() []string {
	names := t.Named()
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = Line(n, t.named[n])
	}
	return out
}

// Everyone stands for every user the configuration does not name, in
// InForce; no user may be named so.
const Everyone = "*"

// InForce is the roles in force as the audit trail records them: Lines,
// then "*=analyst:N" for everyone not named (N is ANALYST_AUTHORITY).
func (t *Table) InForce() []string {
	return append(t.Lines(), Line(Everyone, Assignment{Role: Analyst, Authority: t.AnalystAuthority()}))
}

// Line writes one user's assignment as a configuration line.
func Line(name string, a Assignment) string { return name + "=" + a.String() }

// Demo is the table demo mode bootstraps its team with, so each demo user
// shows a role: two admins of different authority (so a raise proposed by
// one can be approved by the other), two analysts and an auditor.
// analystAuthority (ANALYST_AUTHORITY, from 0 to MaxAuthority) is ordinary's
// and everyone else's.
func Demo(analystAuthority int64) *Table {
	t, err := Parse("demo roles", "demo=admin:250000,developer=analyst:10000,ordinary=analyst,trade=auditor,secure=admin:1000000", analystAuthority)
	if err != nil {
		panic(err) // a constant of this package, or an authority out of range
	}
	return t
}

// ParseAuthority reads an authority as ANALYST_AUTHORITY and the lines
// give it: a whole number from 0 to MaxAuthority, digits only.
func ParseAuthority(s string) (int64, error) {
	s = strings.TrimSpace(s)
	for _, c := range s {
		if c < '0' || c > '9' {
			return 0, fmt.Errorf("authority %q is not a whole number of currency units such as 250000", s)
		}
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n > MaxAuthority {
		return 0, fmt.Errorf("authority %q is not a whole number from 0 to %d", s, MaxAuthority)
	}
	return n, nil
}
