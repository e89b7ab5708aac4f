package store

import (
	"slices"
	"testing"
	"time"
)

// TestWorklistInputs: what the worklist reads besides the figures (the
// latest reviews, the statement years, the pending requests) is read
// back, and every write that changes it moves the team's version, under
// which the handlers keep the worklist.
func TestWorklistInputs(t *testing.T) {
	eachEngine(t, func(t *testing.T, s *Store) {
		ctx := t.Context()
		lines := []LedgerLine{line("W-1", 1001, 100), line("W-2", 1002, 100)}
		_, err := s.ImportLedger(ctx, alice, ImportSpec{AsOf: date("2026-10-31"), Lines: lines})
		must(t, err)
		version := func() int64 {
			t.Helper()
			v, err := s.TeamVersion(ctx, alice)
			must(t, err)
			return v
		}
		moved := func(what string, before int64) int64 {
			t.Helper()
			v := version()
			if v == before {
				t.Errorf("%s left the team's version at %d", what, v)
			}
			return v
		}
		v := version()
		_, err = s.RecordReview(ctx, alice, Review{Account: "W-1", Outcome: "keep", Band: 7})
		must(t, err)
		v = moved("a review", v)
		_, err = s.RecordReview(ctx, alice, Review{Account: "W-1", Outcome: "hold", Band: 8, StatementYear: 2024})
		must(t, err)
		v = moved("a second review", v)
		if kept, err := s.RecordStatementYear(ctx, alice, 1002, 2025, time.Now()); err != nil || !kept {
			t.Fatalf("statement year: %v, %v", kept, err)
		}
		moved("a statement year", v)
		if kept, err := s.RecordStatementYear(ctx, alice, 1002, 2023, time.Now()); err != nil || kept {
			t.Errorf("an older statement year replaced a newer one: %v, %v", kept, err)
		}
		if kept, _ := s.RecordStatementYear(ctx, alice, 1999, 2025, time.Now()); kept {
			t.Errorf("a statement year kept for a business no account links to")
		}
		_, err = s.RecordStatementYear(ctx, alice, 1001, 20250, time.Now())
		wantInvalid(t, "a year of five digits", err, "year")
		v = version()
		_, err = s.AssignOwner(ctx, alice, []string{"W-2"}, "carol", "")
		must(t, err)
		v = moved("an owner", v)
		r, err := s.RequestLimit(ctx, bob, RequestSpec{Account: "W-2", Amount: 5000, Reason: "more", Authority: 0})
		must(t, err)
		v = moved("a request", v)
		pending, err := s.PendingRequests(ctx, carol)
		must(t, err)
		if want := []PendingRequest{{Account: "W-2", RequestedBy: "bob", Amount: 5000}}; !slices.Equal(pending, want) {
			t.Errorf("pending = %+v, want %+v", pending, want)
		}
		if other, err := s.PendingRequests(ctx, aliceElse); err != nil || len(other) != 0 {
			t.Errorf("another team's pending requests = %+v, %v", other, err)
		}
		_, err = s.Decide(ctx, bob, r.ID, Withdraw, "")
		must(t, err)
		moved("a withdrawal", v)
		if pending, err := s.PendingRequests(ctx, alice); err != nil || len(pending) != 0 {
			t.Errorf("pending after the withdrawal = %+v, %v", pending, err)
		}
		years, err := s.StatementYears(ctx, carol)
		must(t, err)
		if len(years) != 1 || years[1002] != 2025 {
			t.Errorf("statement years = %v", years)
		}
		last, err := s.LastReviews(ctx, alice)
		must(t, err)
		if len(last) != 1 || last["W-1"].Outcome != "hold" || last["W-1"].StatementYear != 2024 {
			t.Errorf("last reviews = %+v", last)
		}
	})
}

// TestAssignOwner: one account or several get an owner, each change
// logged with the one before; an unchanged owner is not logged again;
// bad owners, too many accounts and another team's account are refused
// with nothing changed; a later ledger without owners keeps them.
func TestAssignOwner(t *testing.T) {
	eachEngine(t, func(t *testing.T, s *Store) {
		ctx := t.Context()
		withAccounts(t, s)
		n, err := s.AssignOwner(ctx, bob, []string{"A-1", "A-2", "A-1"}, "carol", "bulk from the worklist")
		if err != nil || n != 2 {
			t.Fatalf("assign: %d, %v", n, err)
		}
		if n, err := s.AssignOwner(ctx, bob, []string{"A-1"}, "carol", ""); err != nil || n != 0 {
			t.Errorf("the same owner again: %d, %v", n, err)
		}
		es := auditOf(t, s, alice.Service, AuditActionOwner)
		if len(es) != 2 || es[0].OldValue != "alice" || es[0].NewValue != "carol" || es[0].Actor != "bob" || es[0].Reason != "bulk from the worklist" {
			t.Errorf("owners logged = %+v", es)
		}
		_, err = s.AssignOwner(ctx, bob, []string{"A-1"}, "two words", "")
		wantInvalid(t, "an owner with a space", err, "owner")
		_, err = s.AssignOwner(ctx, bob, make([]string, MaxOwnerBatch+1), "carol", "")
		wantInvalid(t, "too many accounts", err, "account")
		_, err = s.AssignOwner(ctx, bob, []string{"A-2", "NOPE"}, "dave", "")
		wantErr(t, "an account not the team's", err, ErrNotFound)
		_, err = s.AssignOwner(ctx, aliceElse, []string{"A-1"}, "dave", "")
		wantErr(t, "another team's account", err, ErrNotFound)
		l := line("A-1", 1001, 1000)
		l.Owner = ""
		_, err = s.ImportLedger(ctx, alice, ImportSpec{AsOf: date("2026-11-30"), Lines: []LedgerLine{l, line("A-2", 0, 500)}})
		must(t, err)
		list, err := s.Accounts(ctx, alice, "")
		must(t, err)
		owners := map[string]string{}
		for _, a := range list {
			owners[a.Account] = a.Owner
		}
		// The owner is the team's decision: a file's owner only fills a
		// record that has none.
		if owners["A-1"] != "carol" || owners["A-2"] != "carol" {
			t.Errorf("owners after a newer ledger = %v, want both kept (carol)", owners)
		}
	})
}
