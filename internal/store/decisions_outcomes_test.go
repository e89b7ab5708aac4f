package store

import (
	"testing"
	"time"
)

// TestOutcomesSince: a requester is told of their requests another
// decided (approved with its amount, declined with its reason), newest
// first, not of those approved at once, withdrawn or still waiting, nor
// of another's; marking them seen up to the newest shown hides them, and
// the mark never moves back.
func TestOutcomesSince(t *testing.T) {
	eachEngine(t, func(t *testing.T, s *Store) {
		withAccounts(t, s)
		ctx := t.Context()
		ask := func(who Analyst, amount float64, authority float64) LimitRequest {
			r, err := s.RequestLimit(ctx, who, RequestSpec{Account: "A-1", Amount: amount, Reason: "growth", Authority: authority})
			must(t, err)
			return r
		}
		declined, approved := ask(bob, 90000, 0), ask(bob, 50000, 0)
		ask(bob, 500, 1000) // approved at once
		waiting, withdrawn, carols := ask(bob, 70000, 0), ask(bob, 60000, 0), ask(carol, 40000, 0)
		_, err := s.Decide(ctx, alice, declined.ID, Decline, "too much for now")
		must(t, err)
		_, err = s.ApproveAmount(ctx, alice, approved.ID, 30000, "a step first")
		must(t, err)
		_, err = s.Decide(ctx, bob, withdrawn.ID, Withdraw, "")
		must(t, err)
		_, err = s.Decide(ctx, alice, carols.ID, Approve, "fine")
		must(t, err)
		_ = waiting

		seen, err := s.OutcomesSeen(ctx, bob)
		must(t, err)
		if !seen.IsZero() {
			t.Fatalf("never marked, seen = %v", seen)
		}
		got, total, err := s.OutcomesSince(ctx, bob, seen, MaxOutcomes)
		must(t, err)
		if total != 2 || len(got) != 2 || got[0].ID != approved.ID || got[1].ID != declined.ID ||
			*got[0].Approved != 30000 || got[1].Note != "too much for now" || got[0].DecidedBy != "alice" {
			t.Fatalf("outcomes = %d %+v", total, got)
		}
		if one, total, _ := s.OutcomesSince(ctx, bob, time.Time{}, 1); len(one) != 1 || total != 2 {
			t.Errorf("bounded to 1: %d of %d", len(one), total)
		}
		must(t, s.MarkOutcomesSeen(ctx, bob, got[1].DecidedAt))
		if after, _, _ := s.OutcomesSince(ctx, bob, mustSeen(t, s, bob), MaxOutcomes); len(after) != 1 || after[0].ID != approved.ID {
			t.Errorf("after marking up to the older one: %+v", after)
		}
		must(t, s.MarkOutcomesSeen(ctx, bob, got[0].DecidedAt))
		must(t, s.MarkOutcomesSeen(ctx, bob, got[1].DecidedAt)) // never back
		if after, total, _ := s.OutcomesSince(ctx, bob, mustSeen(t, s, bob), MaxOutcomes); len(after) != 0 || total != 0 {
			t.Errorf("after marking all: %d", total)
		}
		if err := s.MarkOutcomesSeen(ctx, bob, time.Time{}); err == nil {
			t.Error("marking nothing shown seen was accepted")
		}
		if other, _, _ := s.OutcomesSince(ctx, aliceElse, time.Time{}, MaxOutcomes); len(other) != 0 {
			t.Errorf("another team sees %d outcomes", len(other))
		}
	})
}

// mustSeen is OutcomesSeen that must not fail.
func mustSeen(t *testing.T, s *Store, a Analyst) time.Time {
	t.Helper()
	at, err := s.OutcomesSeen(t.Context(), a)
	must(t, err)
	return at
}
