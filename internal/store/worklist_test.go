package store

import (
	"slices"
	"testing"
	"time"
)

// TestWorklistCandidates: the query keeps every account that may need
// something (over limit, never reviewed, reviewed long ago, a hold band,
// a band drop, a newer statement year, a decision waiting for the
// reader) and leaves out the account that needs nothing.
func TestWorklistCandidates(t *testing.T) {
	eachEngine(t, func(t *testing.T, s *Store) {
		ctx := t.Context()
		lines := []LedgerLine{line("W-1", 1001, 100), line("W-2", 1002, 100), line("W-3", 1003, 100), line("W-4", 1004, 100),
			line("W-5", 1005, 100), line("W-6", 1006, 100), line("W-7", 1007, 100), line("W-8", 1008, 100)}
		lines[1].Limit = ptr(50.0) // W-2 over its limit
		_, err := s.ImportLedger(ctx, alice, ImportSpec{AsOf: date("2026-10-31"), Lines: lines})
		must(t, err)
		for id, risk := range map[int32]float64{1001: 7, 1002: 7, 1003: 7, 1004: 2, 1005: 7, 1006: 7, 1007: 7, 1008: 7} {
			_, err := s.RecordScores(ctx, alice, Observation{BusinessID: id, Fetched: time.Now(),
				Latest: map[Score]KnownScore{ScoreRisk: {Value: risk, Month: 202610, Fetched: time.Now()}}})
			must(t, err)
		}
		old, err := s.RecordReview(ctx, alice, Review{Account: "W-8", Outcome: "keep", Band: 7})
		must(t, err)
		for _, acct := range []string{"W-1", "W-2", "W-4", "W-6", "W-7"} {
			_, err := s.RecordReview(ctx, alice, Review{Account: acct, Outcome: "keep", Band: 7, StatementYear: 2024})
			must(t, err)
		}
		_, err = s.RecordReview(ctx, alice, Review{Account: "W-5", Outcome: "keep", Band: 8})
		must(t, err)
		if kept, err := s.RecordStatementYear(ctx, alice, 1006, 2025, time.Now()); err != nil || !kept {
			t.Fatalf("statement year: %v, %v", kept, err)
		}
		if kept, err := s.RecordStatementYear(ctx, alice, 1006, 2023, time.Now()); err != nil || kept {
			t.Errorf("an older statement year replaced a newer one: %v, %v", kept, err)
		}
		if kept, _ := s.RecordStatementYear(ctx, alice, 1999, 2025, time.Now()); kept {
			t.Errorf("a statement year kept for a business no account links to")
		}
		_, err = s.RecordStatementYear(ctx, alice, 1001, 20250, time.Now())
		wantInvalid(t, "a year of five digits", err, "year")
		_, err = s.RequestLimit(ctx, bob, RequestSpec{Account: "W-7", Amount: 5000, Reason: "more", Authority: 0})
		must(t, err)
		q := WorklistQuery{ReviewedBefore: old.At.Add(time.Microsecond), HoldBelow: 2.5, OverdueShare: 0.1, Authority: 250000}
		got := candidates(t, s, alice, q)
		if want := []string{"W-2", "W-3", "W-4", "W-5", "W-6", "W-7", "W-8"}; !slices.Equal(got, want) {
			t.Errorf("alice's candidates = %v, want %v", got, want)
		}
		// bob's own request is not his to decide.
		if got := candidates(t, s, bob, q); slices.Contains(got, "W-7") {
			t.Errorf("bob's candidates hold his own request: %v", got)
		}
		years, err := s.StatementYears(ctx, carol)
		must(t, err)
		if len(years) != 1 || years[1006] != 2025 {
			t.Errorf("statement years = %v", years)
		}
		last, err := s.LastReviews(ctx, alice)
		must(t, err)
		if last["W-6"].StatementYear != 2024 {
			t.Errorf("the review's statement year = %d", last["W-6"].StatementYear)
		}
	})
}

// candidates are the worklist's candidate accounts for a, sorted.
func candidates(t *testing.T, s *Store, a Analyst, q WorklistQuery) []string {
	t.Helper()
	ws, err := s.Worklist(t.Context(), a, q)
	must(t, err)
	var out []string
	for _, w := range ws {
		out = append(out, w.Account)
	}
	slices.Sort(out)
	return out
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
		if owners["A-1"] != "carol" || owners["A-2"] != "alice" {
			t.Errorf("owners after a newer ledger = %v, want A-1 kept (carol) and A-2 from the ledger (alice)", owners)
		}
	})
}
