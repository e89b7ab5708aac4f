package views

import (
	"strconv"
	"time"

	"creditdash/internal/roles"
	"creditdash/internal/store"
)

// NavTeam is /team: the team's members (issue 46.5).
const NavTeam Nav = "team"

// TeamPage is /team: the members with their roles and authorities and
// who changed them, the changes waiting for a second admin, the history,
// and for an admin the form that adds or changes a member.
type TeamPage struct {
	Base
	Members []MemberRow
	// Others says what a user who is not a member is.
	Others string
	// Bootstrap says the team is still empty: TEAM_ROLES named no one.
	Empty   bool
	Pending []MemberChangeRow
	History []MemberChangeRow
	// Admin shows the forms; Admins names the admins for everyone else.
	Admin  bool
	Admins string
	Form   MemberForm
	// Roles are the roles the form offers.
	Roles []string
	// Problem is a refused decision's message, shown above the waiting
	// changes.
	Problem string
	Done    string
}

// MemberRow is one member as /team lists them.
type MemberRow struct {
	Name, Role, Authority, What string
	Added, Changed              string
	AddedISO, ChangedISO        string
}

// MemberChangeRow is one change of the team, made or waiting.
type MemberChangeRow struct {
	ID                     string
	Name, From, To         string
	Waits, Reason, Status  string
	ProposedBy, Proposed   string
	ProposedISO            string
	Decided, DecidedBy     string
	Note                   string
	ApproveURL, DeclineURL string
	// CanApprove is false for the proposer and the member raised; Rule
	// says why.
	CanApprove bool
	Rule       string
}

// MemberForm is the add-or-change form as typed.
type MemberForm struct {
	Name, Role, Authority, Reason string
	Remove                        bool
	Problem                       string
}

// NewMemberRows lists the members as /team shows them.
func NewMemberRows(ms []store.Member) []MemberRow {
	out := make([]MemberRow, len(ms))
	for i, m := range ms {
		auth := "none"
		if m.Role != roles.Auditor {
			auth = Money(m.Authority)
		}
		out[i] = MemberRow{Name: m.Name, Role: string(m.Role), Authority: auth, What: TeamRole(string(m.Role), m.Authority),
			Added: "by " + m.AddedBy + ", " + DateTime(m.AddedAt), Changed: "by " + m.ChangedBy + ", " + DateTime(m.ChangedAt),
			AddedISO: isoTime(m.AddedAt), ChangedISO: isoTime(m.ChangedAt)}
	}
	return out
}

// isoTime is a moment as a <time> element's datetime, "" for none.
func isoTime(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.UTC().Format(time.RFC3339)
}

// AssignmentText is a role and authority in a few words: "manager up to
// 250,000", "auditor", "not a member".
func AssignmentText(a roles.Assignment, member bool) string {
	switch {
	case !member:
		return "not a member"
	case a.Role == roles.Auditor:
		return "auditor"
	}
	return string(a.Role) + " up to " + Money(a.Authority)
}

// NewMemberChangeRow is one change as /team lists it.
func NewMemberChangeRow(c store.MemberChange) MemberChangeRow {
	id := strconv.FormatInt(c.ID, 10)
	r := MemberChangeRow{ID: id, Name: c.Name, From: AssignmentText(c.Old, c.OldMember), To: AssignmentText(c.New, !c.Removed),
		Waits: c.Waits, Reason: c.Reason, Status: c.Status, ProposedBy: c.ProposedBy, Proposed: DateTime(c.ProposedAt),
		ProposedISO: isoTime(c.ProposedAt), DecidedBy: c.DecidedBy, Note: c.Note}
	if !c.DecidedAt.IsZero() {
		r.Decided = DateTime(c.DecidedAt)
	}
	r.ApproveURL, r.DeclineURL = "/team/changes/"+id+"/approve", "/team/changes/"+id+"/decline"
	return r
}
