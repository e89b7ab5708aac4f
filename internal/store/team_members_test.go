package store

import (
	"errors"
	"strings"
	"testing"

	"creditdash/internal/roles"
)

// The team bootstraps once from the configuration; then admins change it:
// a lowering is applied at once, a raise waits for a second admin, who
// alone may approve it; every step is in the audit trail.
func TestMembersFourEyes(t *testing.T) {
	eachEngine(t, func(t *testing.T, s *Store) {
		ctx := t.Context()
		boot, err := roles.Parse("TEAM_ROLES", "ann=admin:500000,bea=admin:100000,carl=analyst:5000,dora=auditor", 1000)
		must(t, err)
		n, err := s.BootstrapMembers(ctx, auditTeam, boot, "TEAM_ROLES")
		must(t, err)
		if n != 4 {
			t.Fatalf("bootstrap added %d, want 4", n)
		}
		other, _ := roles.Parse("TEAM_ROLES", "zed=admin:1", 0)
		if n, err := s.BootstrapMembers(ctx, auditTeam, other, "TEAM_ROLES"); err != nil || n != 0 {
			t.Fatalf("a second bootstrap: %d, %v; want nothing (the team has members)", n, err)
		}
		ann, bea, carl := Analyst{Service: auditTeam, User: "ann"}, Analyst{Service: auditTeam, User: "bea"}, Analyst{Service: auditTeam, User: "carl"}

		// A lowering: at once.
		c, err := s.ChangeMember(ctx, ann, MemberSpec{Name: "carl", Role: roles.Analyst, Authority: 2000, Reason: "new to the team"}, 1000)
		must(t, err)
		if c.Status != StatusApplied || c.Waits != "" {
			t.Errorf("lowering carl: %+v, want applied at once", c)
		}
		// A raise: waits; its proposer may not approve it, nor may the
		// member raised; another admin may.
		raise, err := s.ChangeMember(ctx, ann, MemberSpec{Name: "carl", Role: roles.Manager, Authority: 50000, Reason: "runs the north region"}, 1000)
		must(t, err)
		if raise.Status != StatusPending || !strings.Contains(raise.Waits, "raises") {
			t.Fatalf("raising carl: %+v, want pending", raise)
		}
		if _, err := s.ChangeMember(ctx, bea, MemberSpec{Name: "carl", Role: roles.Analyst, Authority: 1, Reason: "x"}, 1000); err == nil {
			t.Error("a second change of carl while one waits was taken")
		}
		if _, err := s.DecideMember(ctx, ann, raise.ID, true, "", 1000); !errors.Is(err, ErrMemberFourEyes) {
			t.Errorf("the proposer approving: err = %v, want ErrMemberFourEyes", err)
		}
		if _, err := s.DecideMember(ctx, carl, raise.ID, true, "", 1000); !errors.Is(err, ErrNotAdmin) {
			t.Errorf("carl approving his own raise: err = %v, want ErrNotAdmin", err)
		}
		got, err := s.DecideMember(ctx, bea, raise.ID, true, "agreed at the credit committee", 1000)
		must(t, err)
		if got.Status != StatusApproved || got.DecidedBy != "bea" {
			t.Errorf("bea approving: %+v", got)
		}
		if _, err := s.DecideMember(ctx, bea, raise.ID, true, "", 1000); err == nil {
			t.Error("a change approved twice")
		}
		// An admin raising their own authority needs the other admin too.
		self, err := s.ChangeMember(ctx, ann, MemberSpec{Name: "bea", Role: roles.Admin, Authority: 900000, Reason: "bigger book"}, 1000)
		must(t, err)
		if _, err := s.DecideMember(ctx, bea, self.ID, true, "", 1000); !errors.Is(err, ErrMemberFourEyes) {
			t.Errorf("bea approving her own raise: err = %v, want ErrMemberFourEyes", err)
		}
		if _, err := s.DecideMember(ctx, bea, self.ID, false, "", 1000); err == nil {
			t.Error("a decline without a note was taken")
		}
		if d, err := s.DecideMember(ctx, ann, self.ID, false, "asked too early", 1000); err != nil || d.Status != StatusWithdrawn {
			t.Errorf("the proposer declining: %+v, %v; want withdrawn", d, err)
		}
		// The only admin cannot be removed or demoted; an admin can remove
		// another once two remain.
		if _, err := s.ChangeMember(ctx, ann, MemberSpec{Name: "dora", Remove: true, Reason: "left"}, 1000); err != nil {
			t.Fatal(err)
		}
		if _, err := s.ChangeMember(ctx, ann, MemberSpec{Name: "bea", Remove: true, Reason: "left"}, 1000); err != nil {
			t.Fatal(err)
		}
		_, err = s.ChangeMember(ctx, ann, MemberSpec{Name: "ann", Role: roles.Analyst, Authority: 1, Reason: "step down"}, 1000)
		wantInvalid(t, "demoting the only admin", err, "role")

		ms, err := s.Members(ctx, auditTeam)
		must(t, err)
		var lines []string
		for _, m := range ms {
			lines = append(lines, roles.Line(m.Name, m.Assignment)+" by "+m.ChangedBy)
		}
		if want := "ann=admin:500000 by config|carl=manager:50000 by bea"; strings.Join(lines, "|") != want {
			t.Errorf("members = %q, want %q", strings.Join(lines, "|"), want)
		}
		hist, err := s.MemberChanges(ctx, auditTeam, 50)
		must(t, err)
		if len(hist) != 9 {
			t.Errorf("history holds %d changes, want 9 (4 bootstrapped, 5 since)", len(hist))
		}
		es, _, err := s.AuditEntries(ctx, auditTeam, AuditFilter{}, AuditPage{Size: 100})
		must(t, err)
		var actions []string
		for _, e := range es {
			actions = append(actions, e.Actor+":"+e.Action)
		}
		want := "ann:member ann:member ann:member-decline ann:member-proposal bea:member-approve ann:member-proposal ann:member config:member config:member config:member config:member"
		if strings.Join(actions, " ") != want {
			t.Errorf("audit = %q, want %q", strings.Join(actions, " "), want)
		}
		if v, _ := s.VerifyAudit(ctx, auditTeam); !v.Intact {
			t.Errorf("log not intact: %+v", v)
		}
		// A non-admin changes nothing.
		if _, err := s.ChangeMember(ctx, carl, MemberSpec{Name: "eve", Role: roles.Analyst, Authority: 1, Reason: "x"}, 1000); !errors.Is(err, ErrNotAdmin) {
			t.Errorf("a manager adding a member: err = %v, want ErrNotAdmin", err)
		}
	})
}
