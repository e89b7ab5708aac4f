package handlers

import (
	"errors"
	"fmt"
	"math"
	"net/http"
	"strconv"
	"strings"

	"github.com/labstack/echo/v5"

	"creditdash/internal/amount"
	"creditdash/internal/roles"
	"creditdash/internal/session"
	"creditdash/internal/store"
	"creditdash/internal/views"
	"creditdash/templates"
)

// The team on a page (issue 46.5): /team lists the members, their roles
// and authorities and who changed them; admins add, change and remove
// members, and approve or decline each other's raises (four eyes, kept by
// the store). Every check of a role or an authority reads rolesNow.

// teamChangesShown is how many changes /team lists.
const teamChangesShown = 100

// rolesNow is the team's roles in force for this request: the members
// kept in the store, read once per team version (internal/team).
func (h *Handler) rolesNow(c *echo.Context) *roles.Table {
	return h.members.Roles(c.Request().Context())
}

// teamDone are the sentences a change lands on /team with, by its status.
var teamDone = map[string]string{
	store.StatusApplied:   "Saved: the change is in force.",
	store.StatusPending:   "Saved: the change waits for a second admin's approval.",
	store.StatusApproved:  "Approved: the change is in force.",
	store.StatusDeclined:  "Declined: nothing changed.",
	store.StatusWithdrawn: "Withdrawn: nothing changed.",
}

// showTeam is /team.
func (h *Handler) showTeam(c *echo.Context) error {
	return h.teamPage(c, http.StatusOK, views.MemberForm{Role: string(roles.Analyst)}, "")
}

// teamPage renders /team with the form as given and a decision's refusal.
func (h *Handler) teamPage(c *echo.Context, status int, form views.MemberForm, problem string) error {
	ctx := c.Request().Context()
	members, err := h.store.Members(ctx, h.service)
	if err != nil {
		return accountsError(err)
	}
	changes, err := h.store.MemberChanges(ctx, h.service, teamChangesShown)
	if err != nil {
		return accountsError(err)
	}
	user := session.Must(c).User
	t := h.rolesNow(c)
	me, member := t.Assignment(user)
	p := views.TeamPage{Members: views.NewMemberRows(members), Empty: len(members) == 0, Form: form, Problem: problem,
		Admin: member && me.Role == roles.Admin, Done: teamDone[c.QueryParam("done")],
		Others: fmt.Sprintf("Anyone who signs in and is not a member is an analyst with authority %s (ANALYST_AUTHORITY), and is no account's owner until an admin adds them.",
			views.Money(t.AnalystAuthority()))}
	var admins []string
	for _, m := range members {
		if m.Role == roles.Admin {
			admins = append(admins, m.Name)
		}
	}
	if len(admins) > 0 {
		p.Admins = " (" + strings.Join(admins, ", ") + ")"
	}
	for _, r := range roles.All {
		p.Roles = append(p.Roles, string(r))
	}
	for _, ch := range changes {
		row := views.NewMemberChangeRow(ch)
		if ch.Status != store.StatusPending {
			p.History = append(p.History, row)
			continue
		}
		switch {
		case ch.ProposedBy == user:
			row.Rule = "You proposed this change: another admin approves it (four eyes)."
		case ch.Name == user:
			row.Rule = "This change raises your own role or authority: another admin approves it (four eyes)."
		default:
			row.CanApprove = true
		}
		p.Pending = append(p.Pending, row)
	}
	p.Base = h.base(c, nil, "Team members", views.NavTeam)
	return h.render(c, status, templates.Team(p))
}

// readMemberForm reads the posted change; a problem is worded for the form.
func readMemberForm(c *echo.Context, analystAuthority int64) (views.MemberForm, store.MemberSpec) {
	f := views.MemberForm{Name: views.Clip(strings.TrimSpace(c.FormValue("name")), 80), Role: views.Clip(c.FormValue("role"), 20),
		Authority: views.Clip(strings.TrimSpace(c.FormValue("authority")), 40), Reason: views.Clip(c.FormValue("reason"), store.MaxRequestReasonLen+100),
		Remove: c.FormValue("remove") != ""}
	spec := store.MemberSpec{Name: f.Name, Role: roles.Role(f.Role), Remove: f.Remove, Reason: f.Reason}
	switch {
	case f.Name == "":
		f.Problem = "Type the user name of the member, as they sign in."
	case !store.ValidUserName(f.Name):
		f.Problem = "A member is a user name as one signs in with: up to 64 letters, digits and . _ - @ +."
	case f.Remove:
	case !spec.Role.Valid():
		f.Problem = "Choose a role: analyst, manager, admin or auditor."
	case spec.Role == roles.Auditor:
	case f.Authority == "" && spec.Role == roles.Analyst:
		spec.Authority = analystAuthority
	case f.Authority == "":
		f.Problem = "A " + f.Role + " needs an authority: the largest limit they set without another's approval."
	default:
		v, _, err := amount.Typed(f.Authority)
		switch {
		case err != nil:
			f.Problem = "Authority: " + err.Error()
		case v < 0 || v > float64(roles.MaxAuthority) || v != math.Trunc(v):
			f.Problem = "The authority is a whole amount from 0 to " + views.Money(roles.MaxAuthority) + "."
		default:
			spec.Authority = int64(v)
		}
	}
	return f, spec
}

// submitTeamMember adds, changes or removes a member (admins only): at
// once, or waiting for a second admin when it raises. A refusal comes back
// on /team with what was typed (422).
func (h *Handler) submitTeamMember(c *echo.Context) error {
	f, spec := readMemberForm(c, h.members.AnalystAuthority())
	if f.Problem != "" {
		return h.teamPage(c, http.StatusUnprocessableEntity, f, "")
	}
	ch, err := h.store.ChangeMember(c.Request().Context(), h.analyst(c), spec, h.members.AnalystAuthority())
	var ve *store.ValidationError
	switch {
	case errors.As(err, &ve):
		f.Problem = storeMessage(err)
		return h.teamPage(c, http.StatusUnprocessableEntity, f, "")
	case errors.Is(err, store.ErrNotAdmin):
		return h.refuse(c, "change member "+spec.Name, "", 0, roles.Admin.Rule(roles.ManageTeam))
	case err != nil:
		return accountsError(err)
	}
	return redirect(c, "/team?done="+ch.Status)
}

// submitTeamApprove approves a waiting change: never by its proposer, nor
// by the member it raises (403, logged).
func (h *Handler) submitTeamApprove(c *echo.Context) error { return h.decideMember(c, true) }

// submitTeamDecline declines a waiting change (its proposer withdraws it);
// a note is required.
func (h *Handler) submitTeamDecline(c *echo.Context) error { return h.decideMember(c, false) }

// decideMember is approving or declining change :id.
func (h *Handler) decideMember(c *echo.Context, approve bool) error {
	id, err := strconv.ParseInt(c.Param("id"), 10, 64)
	if err != nil || id <= 0 {
		return echo.ErrNotFound
	}
	note := strings.TrimSpace(c.FormValue("note"))
	ch, err := h.store.DecideMember(c.Request().Context(), h.analyst(c), id, approve, note, h.members.AnalystAuthority())
	var ve *store.ValidationError
	switch {
	case errors.Is(err, store.ErrNotFound):
		return echo.ErrNotFound
	case errors.Is(err, store.ErrMemberFourEyes):
		return h.refuse(c, fmt.Sprintf("approve team change %d", id), "", 0, storeMessage(err))
	case errors.Is(err, store.ErrNotAdmin):
		return h.refuse(c, fmt.Sprintf("decide team change %d", id), "", 0, roles.Admin.Rule(roles.ManageTeam))
	case errors.As(err, &ve):
		return h.teamPage(c, http.StatusUnprocessableEntity, views.MemberForm{Role: string(roles.Analyst)}, storeMessage(err))
	case err != nil:
		return accountsError(err)
	}
	return redirect(c, "/team?done="+ch.Status)
}

// notMember is the refusal of an owner who is not a member of the team,
// naming the members (at most a few dozen), or "" for a member.
func (h *Handler) notMember(c *echo.Context, owner string) string {
	t := h.rolesNow(c)
	if owner == "" || t.Has(owner) {
		return ""
	}
	names := t.Named()
	if len(names) == 0 {
		return fmt.Sprintf("%s is not a member of the team, and the team has no members yet: an owner must be a member (see /team).", owner)
	}
	const shown = 30
	list := strings.Join(names[:min(len(names), shown)], ", ")
	if len(names) > shown {
		list += fmt.Sprintf(" and %d more (see /team)", len(names)-shown)
	}
	return fmt.Sprintf("%s is not a member of the team: an owner must be one of %s.", owner, list)
}
