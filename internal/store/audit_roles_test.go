package store

import (
	"context"
	"fmt"
	"sync"
	"testing"
)

func TestRecordRoles(t *testing.T) {
	eachEngine(t, func(t *testing.T, s *Store) {
		ctx := t.Context()
		record := func(lines ...string) []string {
			t.Helper()
			es, err := s.RecordRoles(ctx, auditTeam, lines)
			must(t, err)
			var out []string
			for _, e := range es {
				if e.Actor != AuditActorConfig || e.Action != AuditActionRole {
					t.Errorf("entry %+v is not config's role entry", e)
				}
				out = append(out, e.OldValue+">"+e.NewValue)
			}
			return out
		}
		first := record("alice=manager:250000", "bob=analyst:10000", "*=analyst:0")
		if fmt.Sprint(first) != "[>*=analyst:0 >alice=manager:250000 >bob=analyst:10000]" {
			t.Errorf("first start: %q", first)
		}
		if again := record("bob=analyst:10000", "*=analyst:0", "alice=manager:250000"); len(again) != 0 {
			t.Errorf("the same roles again: %q, want nothing", again)
		}
		// Another kind of entry between starts changes nothing.
		appendN(t, s, auditTeam, "alice", 1)
		changed := record("alice=manager:500000", "carol=auditor", "*=analyst:0")
		if fmt.Sprint(changed) != "[alice=manager:250000>alice=manager:500000 >carol=auditor bob=analyst:10000>]" {
			t.Errorf("changed roles: %q", changed)
		}
		// bob, removed, comes back: new again.
		if back := record("alice=manager:500000", "carol=auditor", "*=analyst:0", "bob=manager:9"); fmt.Sprint(back) != "[>bob=manager:9]" {
			t.Errorf("bob back: %q", back)
		}
		if v, _ := s.VerifyAudit(ctx, auditTeam); !v.Intact || v.Entries != 8 {
			t.Errorf("log after role changes: %+v, want 8 intact entries", v)
		}
		// Another team has its own roles.
		if other, _ := s.RecordRoles(ctx, "https://other.example", []string{"*=analyst:0"}); len(other) != 1 {
			t.Errorf("another team's first start: %d entries, want 1", len(other))
		}
		for _, bad := range [][]string{{"no-equals"}, {"=x"}, {"a=1", "a=2"}} {
			_, err := s.RecordRoles(ctx, auditTeam, bad)
			wantInvalid(t, fmt.Sprint(bad), err, "roles")
		}
	})
}

// Replicas starting together with new roles record each change once.
func TestRecordRolesOnceAcrossReplicas(t *testing.T) {
	for _, e := range engines {
		t.Run(string(e), func(t *testing.T) {
			t.Parallel()
			stores := replicas(t, e)
			var wg sync.WaitGroup
			for i := range 6 {
				wg.Go(func() {
					_, err := stores[i%len(stores)].RecordRoles(context.Background(), auditTeam, []string{"alice=manager:1", "carol=auditor", "*=analyst:0"})
					if err != nil {
						t.Error(err)
					}
				})
			}
			wg.Wait()
			v, err := stores[0].VerifyAudit(t.Context(), auditTeam)
			must(t, err)
			if !v.Intact || v.Entries != 3 {
				t.Errorf("six starts at once: %+v, want 3 intact entries", v)
			}
		})
	}
}
