package store

import "testing"

// TestPolicyVersions: versions are numbered per team and audited; the
// manager who saved one cannot put it in force; another can, audited
// with the version it replaces; the newest activation is in force; a
// version needs a note; another team sees none.
func TestPolicyVersions(t *testing.T) {
	eachEngine(t, func(t *testing.T, s *Store) {
		ctx := t.Context()
		if v, err := s.ActivePolicy(ctx, alice); err != nil || v != nil {
			t.Fatalf("before any version: %+v, %v", v, err)
		}
		_, err := s.SavePolicy(ctx, alice, []byte(`{"a":1}`), " ")
		wantInvalid(t, "a version without a note", err, "note")
		v1, err := s.SavePolicy(ctx, alice, []byte(`{"a":1}`), "first")
		must(t, err)
		v2, err := s.SavePolicy(ctx, bob, []byte(`{"a":2}`), "second")
		must(t, err)
		if v1.Version != 1 || v2.Version != 2 {
			t.Fatalf("versions = %d, %d", v1.Version, v2.Version)
		}
		_, err = s.ActivatePolicy(ctx, alice, v1.ID)
		wantErr(t, "its own editor activating", err, ErrFourEyes)
		_, err = s.ActivatePolicy(ctx, aliceElse, v1.ID)
		wantErr(t, "another team activating", err, ErrNotFound)
		_, err = s.ActivatePolicy(ctx, bob, v1.ID)
		must(t, err)
		on, err := s.ActivePolicy(ctx, carol)
		must(t, err)
		if on == nil || on.Version != 1 || string(on.Body) != `{"a":1}` || on.ActivatedBy != "bob" {
			t.Fatalf("in force = %+v", on)
		}
		_, err = s.ActivatePolicy(ctx, alice, v2.ID)
		must(t, err)
		all, err := s.Policies(ctx, carol)
		must(t, err)
		if len(all) != 2 || !all[0].Active || all[0].Version != 2 || all[1].Active || all[1].ActivatedBy != "bob" {
			t.Errorf("versions = %+v", all)
		}
		es := auditOf(t, s, alice.Service, AuditActionPolicyActivate)
		if len(es) != 2 || es[0].OldValue != "none" || es[1].OldValue != "version 1" || es[1].NewValue != "version 2" || es[1].Actor != "alice" {
			t.Errorf("activations logged = %+v", es)
		}
		if es := auditOf(t, s, alice.Service, AuditActionPolicyVersion); len(es) != 2 || es[0].Reason != "first" {
			t.Errorf("versions logged = %+v", es)
		}
		if mine, _ := s.Policies(ctx, aliceElse); len(mine) != 0 {
			t.Errorf("another team reads %d versions", len(mine))
		}
	})
}
