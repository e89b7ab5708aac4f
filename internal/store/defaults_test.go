package store

import (
	"testing"
	"time"
)

// TestDefaults: a filing for a linked business puts its accounts in
// default (read with the accounts, with the team's loss given default),
// audited per account with the page that learned it; the same or an older
// story writes nothing; a clearing needs a note, is audited, and a
// cleared filing seen again stays cleared while a newer one defaults
// again; an unlinked business and another team are left alone.
func TestDefaults(t *testing.T) {
	eachEngine(t, func(t *testing.T, s *Store) {
		withAccounts(t, s)
		ctx := t.Context()
		filed := time.Date(2026, 10, 14, 13, 0, 0, 0, time.UTC)
		d := Default{BusinessID: 1001, Kind: "Chapter 11 filing", Title: "X files for Chapter 11", URL: "https://news.example/x",
			Published: filed, Source: "Folder “Review” news", SourceURL: "/portfolio/folders/3"}
		other := d
		other.BusinessID = 4242 // linked to no account
		_, err := s.AddWebhook(ctx, alice, "https://erp.example.com/hooks", []string{EventAccountDefaulted}, "whsec_c2VjcmV0")
		must(t, err)
		n, err := s.RecordDefaults(ctx, bob, []Default{d, other})
		must(t, err)
		if n != 1 {
			t.Fatalf("kept %d filings, want 1 (the unlinked business left out)", n)
		}
		types, bodies := eventsOf(t, s, alice.Service)
		if len(types) != 1 || types[0] != EventAccountDefaulted {
			t.Fatalf("events = %v, want one account.defaulted", types)
		}
		if data := bodies[0]["data"].(map[string]any); data["account"] != "A-1" || data["kind"] != "Chapter 11 filing" || data["source"] != "/portfolio/folders/3" || data["learned_by"] != "bob" {
			t.Errorf("account.defaulted = %v", bodies[0])
		}
		if n, err := s.RecordDefaults(ctx, carol, []Default{d}); err != nil || n != 0 {
			t.Errorf("the same story again: kept %d, %v; want 0", n, err)
		}
		es := auditOf(t, s, alice.Service, AuditActionDefault)
		if len(es) != 1 || es[0].Actor != "bob" || es[0].Account != "A-1" || es[0].BusinessID != 1001 ||
			es[0].NewValue != "in default: Chapter 11 filing reported 2026-10-14" || es[0].Reason != "learned from Folder “Review” news (/portfolio/folders/3): X files for Chapter 11" {
			t.Errorf("defaults logged = %+v", es)
		}
		accts, err := s.Accounts(ctx, carol, "")
		must(t, err)
		for _, a := range accts {
			if got := a.Default.InForce(); got != (a.Account == "A-1") {
				t.Errorf("account %s in default = %v", a.Account, got)
			}
			if a.Account == "A-1" && (a.Default.LGD != 1 || a.Default.LearnedBy != "bob" || a.Default.Source != "Folder “Review” news") {
				t.Errorf("A-1's default = %+v", a.Default)
			}
		}
		must(t, s.SetLGD(ctx, alice, 0.6))
		wantInvalid(t, "a loss given default of 120 %", s.SetLGD(ctx, alice, 1.2), "lgd")
		if es := auditOf(t, s, alice.Service, AuditActionSetting); len(es) != 1 || es[0].OldValue != "loss given default 100 %" || es[0].NewValue != "loss given default 60 %" {
			t.Errorf("setting logged = %+v", es)
		}
		of, err := s.AccountsOfBusiness(ctx, alice, 1001)
		must(t, err)
		if len(of) != 1 || of[0].Default == nil || of[0].Default.LGD != 0.6 {
			t.Fatalf("accounts of 1001 = %+v", of)
		}
		id := of[0].Default.ID
		_, err = s.ClearDefault(ctx, alice, id, "  ")
		wantInvalid(t, "a clearing without a note", err, "note")
		_, err = s.ClearDefault(ctx, aliceElse, id, "wrong team")
		wantErr(t, "another team's default", err, ErrNotFound)
		c, err := s.ClearDefault(ctx, alice, id, "petition dismissed")
		must(t, err)
		if c.Cleared == nil || c.Cleared.By != "alice" {
			t.Errorf("cleared = %+v", c)
		}
		_, err = s.ClearDefault(ctx, alice, id, "again")
		wantErr(t, "a default cleared twice", err, ErrNotFound)
		if es := auditOf(t, s, alice.Service, AuditActionDefaultCleared); len(es) != 1 || es[0].Actor != "alice" || es[0].Account != "A-1" || es[0].Reason != "petition dismissed" {
			t.Errorf("clearings logged = %+v", es)
		}
		if n, _ := s.RecordDefaults(ctx, bob, []Default{d}); n != 0 {
			t.Errorf("the cleared story seen again kept %d", n)
		}
		of, _ = s.AccountsOfBusiness(ctx, alice, 1001)
		if of[0].Default != nil {
			t.Errorf("after clearing, A-1's default = %+v", of[0].Default)
		}
		later := d
		later.Kind, later.Published = "Chapter 7 filing", filed.AddDate(0, 1, 0)
		if n, err := s.RecordDefaults(ctx, bob, []Default{later}); err != nil || n != 1 {
			t.Errorf("a newer filing: kept %d, %v; want 1", n, err)
		}
		all, err := s.Defaults(ctx, carol)
		must(t, err)
		if len(all) != 2 || !all[0].InForce() || all[0].Kind != "Chapter 7 filing" || all[1].InForce() {
			t.Errorf("defaults = %+v", all)
		}
		if mine, _ := s.Defaults(ctx, aliceElse); len(mine) != 0 {
			t.Errorf("another team reads %d defaults", len(mine))
		}
		bad := d
		bad.SourceURL = "https://evil.example/"
		_, err = s.RecordDefaults(ctx, bob, []Default{bad})
		wantInvalid(t, "a source that is not a local path", err, "source")
	})
}
