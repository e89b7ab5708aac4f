package store

import (
	"errors"
	"testing"
)

// TestLinkAccountByHand: a not-linked account is linked to the business
// an analyst chose, logged with who, account, business and name; a
// linked account, another team's or an unknown one is refused.
func TestLinkAccountByHand(t *testing.T) {
	eachEngine(t, func(t *testing.T, s *Store) {
		ctx := t.Context()
		_, err := s.ImportLedger(ctx, alice, ImportSpec{AsOf: date("2026-09-30"), File: "sep.csv",
			Lines: []LedgerLine{line("A-1", 1001, 1000), line("Cool Cars", 0, 500)}})
		must(t, err)
		must(t, s.LinkAccountByHand(ctx, bob, "Cool Cars", 1003, "Cool Cars Inc"))
		links := auditOf(t, s, alice.Service, AuditActionLink)
		if len(links) != 1 || links[0].Actor != "bob" || links[0].Account != "Cool Cars" || links[0].BusinessID != 1003 ||
			links[0].NewValue != "1003" || links[0].Reason != "linked by hand to Cool Cars Inc" || links[0].At.IsZero() {
			t.Fatalf("links logged = %+v", links)
		}
		accts, err := s.Accounts(ctx, alice, "")
		must(t, err)
		for _, a := range accts {
			if a.Account == "Cool Cars" && a.BusinessID != 1003 {
				t.Errorf("Cool Cars linked to %d, want 1003", a.BusinessID)
			}
		}
		if err := s.LinkAccountByHand(ctx, alice, "Cool Cars", 1004, ""); !errors.Is(err, ErrAlreadyLinked) {
			t.Errorf("linking a linked account again: %v, want ErrAlreadyLinked", err)
		}
		if err := s.LinkAccountByHand(ctx, alice, "A-1", 1004, ""); !errors.Is(err, ErrAlreadyLinked) {
			t.Errorf("linking an account the ledger linked: %v, want ErrAlreadyLinked", err)
		}
		wantErr(t, "no such account", s.LinkAccountByHand(ctx, alice, "NOPE", 1004, ""), ErrNotFound)
		wantErr(t, "another team's account", s.LinkAccountByHand(ctx, aliceElse, "Cool Cars", 1004, ""), ErrNotFound)
		if err := s.LinkAccountByHand(ctx, alice, "Cool Cars", 0, ""); err == nil {
			t.Error("business 0 accepted")
		}
		if n := len(auditOf(t, s, alice.Service, AuditActionLink)); n != 1 {
			t.Errorf("%d link entries after the refusals, want 1", n)
		}
	})
}
