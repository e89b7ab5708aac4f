// Package team answers who is in the team now: the members the store keeps
// (managed on /team), as the roles.Table every authority check reads. The
// table is kept per team version, so a change of a member is seen by the
// next request on every replica, and reading it costs a version check.
// TEAM_ROLES (the bootstrap table) only fills an empty team.
package team

import (
	"context"
	"log/slog"
	"slices"
	"sync"

	"creditdash/internal/roles"
	"creditdash/internal/store"
)

// Directory is the team's membership as roles, kept per team version (one
// table: bounded by the team's size).
type Directory struct {
	store   *store.Store
	service string
	boot    *roles.Table
	source  string
	log     *slog.Logger

	mu   sync.Mutex
	kept *kept
}

// kept is the table read at one team version.
type kept struct {
	version int64
	table   *roles.Table
}

// New is the directory of the service's team. boot is the table TEAM_ROLES
// (or the demo) gives, source its name for the audit trail; it is what
// authority checks read while the store has no members or cannot answer.
func New(st *store.Store, service string, boot *roles.Table, source string, log *slog.Logger) *Directory {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	if boot == nil {
		boot = roles.NewTable(nil, 0)
	}
	return &Directory{store: st, service: service, boot: boot, source: source, log: log}
}

// AnalystAuthority is the authority of a user who is not a member
// (ANALYST_AUTHORITY).
func (d *Directory) AnalystAuthority() int64 { return d.boot.AnalystAuthority() }

// Roles is the team's roles in force now. When the store cannot answer it
// is the last table read (or the bootstrap table, before any), and the
// failure is logged: a page that changes nothing still works, and a
// change is refused by the store itself.
func (d *Directory) Roles(ctx context.Context) *roles.Table {
	if d == nil {
		return nil
	}
	team := store.Analyst{Service: d.service, User: "team"}
	v, err := d.store.TeamVersion(ctx, team)
	d.mu.Lock()
	defer d.mu.Unlock()
	if err != nil {
		d.log.Warn("team: reading the team's version; roles as last read", "err", err)
		return d.fallback()
	}
	if d.kept != nil && d.kept.version == v {
		return d.kept.table
	}
	members, err := d.store.Members(ctx, d.service)
	if err != nil {
		d.log.Warn("team: reading the members; roles as last read", "err", err)
		return d.fallback()
	}
	t := d.boot
	if len(members) > 0 {
		named := make(map[string]roles.Assignment, len(members))
		for _, m := range members {
			named[m.Name] = m.Assignment
		}
		t = roles.NewTable(named, d.boot.AnalystAuthority())
	}
	d.kept = &kept{version: v, table: t}
	return t
}

// fallback is the last table read, else the bootstrap table; d.mu held.
func (d *Directory) fallback() *roles.Table {
	if d.kept != nil {
		return d.kept.table
	}
	return d.boot
}

// Bootstrap fills an empty team from the bootstrap table (audited as
// such) and says how many members it added; a team with members is left
// alone, and a bootstrap table that differs from them is logged as
// ignored.
func (d *Directory) Bootstrap(ctx context.Context) (int, error) {
	n, err := d.store.BootstrapMembers(ctx, d.service, d.boot, d.source)
	if err != nil || n > 0 {
		return n, err
	}
	members, err := d.store.Members(ctx, d.service)
	if err != nil {
		return 0, err
	}
	lines := make([]string, len(members))
	for i, m := range members {
		lines[i] = roles.Line(m.Name, m.Assignment)
	}
	slices.Sort(lines)
	if len(d.boot.Named()) > 0 && !slices.Equal(lines, d.boot.Lines()) {
		d.log.Warn("team: "+d.source+" differs from the team's members and is ignored: members are managed on /team",
			"members", len(members))
	}
	return 0, nil
}

// Source names where the bootstrap table came from.
func (d *Directory) Source() string { return d.source }
