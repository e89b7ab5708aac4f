package store

import (
	"testing"
)

// TestReviews: a review is kept and logged with the one before; the
// latest wins; bad outcomes and other teams' accounts are refused; the
// limit's last change is read from the audit trail.
func TestReviews(t *testing.T) {
	eachEngine(t, func(t *testing.T, s *Store) {
		withAccounts(t, s)
		ctx := t.Context()
		_, err := s.RecordReview(ctx, alice, Review{Account: "A-1", Outcome: "keep", Note: "fine", Band: 5, Over90: 0.02})
		must(t, err)
		_, err = s.RecordReview(ctx, bob, Review{Account: "A-1", Outcome: "reduce", Note: "slower", Band: 4})
		must(t, err)
		_, err = s.RecordReview(ctx, bob, Review{Account: "A-1", Outcome: "cancel"})
		wantInvalid(t, "a bad outcome", err, "outcome")
		_, err = s.RecordReview(ctx, aliceElse, Review{Account: "A-1", Outcome: "keep"})
		wantErr(t, "another team's account", err, ErrNotFound)
		last, err := s.LastReviews(ctx, carol)
		must(t, err)
		if r := last["A-1"]; len(last) != 1 || r.Outcome != "reduce" || r.By != "bob" || r.Band != 4 {
			t.Errorf("last reviews = %+v", last)
		}
		es := auditOf(t, s, alice.Service, AuditActionReview)
		if len(es) != 2 || es[1].OldValue[:7] != "keep on" || es[1].NewValue != "reduce" || es[1].Reason != "slower" || es[1].BusinessID != 1001 {
			t.Errorf("reviews logged = %+v", es)
		}
		changes, err := s.LastLimitChanges(ctx, alice.Service)
		must(t, err)
		if len(changes) != 1 || changes["A-1"].IsZero() {
			t.Errorf("limit changes = %v", changes)
		}
	})
}
