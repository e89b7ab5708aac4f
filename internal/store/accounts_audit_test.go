package store

import (
	"strings"
	"testing"
)

// auditOf lists the team's entries of one action, oldest first.
func auditOf(t *testing.T, s *Store, team, action string) []AuditEntry {
	t.Helper()
	es, _, err := s.AuditEntries(t.Context(), team, AuditFilter{Action: action}, AuditPage{})
	must(t, err)
	for i, j := 0, len(es)-1; i < j; i, j = i+1, j-1 {
		es[i], es[j] = es[j], es[i]
	}
	return es
}

// TestAccountChangesAreAudited: an import logs itself and every limit it
// sets or changes with old and new values; an older ledger imported later
// changes no limit in force; saved calculator inputs and a link are
// logged with who, what and the values; the chain stays intact.
func TestAccountChangesAreAudited(t *testing.T) {
	eachEngine(t, func(t *testing.T, s *Store) {
		ctx := t.Context()
		_, err := s.ImportLedger(ctx, alice, ImportSpec{AsOf: date("2026-09-30"), File: "sep.csv",
			Lines: []LedgerLine{line("A-1", 1001, 1000), line("A-2", 0, 500)}})
		must(t, err)
		limits := auditOf(t, s, alice.Service, AuditActionLimit)
		if len(limits) != 2 || limits[0].Account != "A-1" || limits[0].OldValue != "" || limits[0].NewValue != "2000" ||
			limits[0].BusinessID != 1001 || limits[0].Actor != "alice" || limits[1].NewValue != "1000" {
			t.Fatalf("limits after the first import = %+v", limits)
		}
		imports := auditOf(t, s, alice.Service, AuditActionImport)
		if len(imports) != 1 || !strings.Contains(imports[0].NewValue, `2026-09-30: 2 accounts from "sep.csv"`) {
			t.Fatalf("imports = %+v", imports)
		}

		// October: A-1's limit changes, A-2 keeps its own, A-3 is new.
		a1 := line("A-1", 1001, 1500)
		_, err = s.ImportLedger(ctx, bob, ImportSpec{AsOf: date("2026-10-31"), File: "oct.csv",
			Lines: []LedgerLine{a1, line("A-2", 0, 500), line("A-3", 0, 100)}})
		must(t, err)
		limits = auditOf(t, s, alice.Service, AuditActionLimit)[2:]
		if len(limits) != 2 || limits[0].Account != "A-1" || limits[0].OldValue != "2000" || limits[0].NewValue != "3000" ||
			limits[0].Actor != "bob" || limits[1].Account != "A-3" || limits[1].OldValue != "" {
			t.Fatalf("limits after October = %+v", limits)
		}
		// An older ledger imported now sets no limit in force.
		_, err = s.ImportLedger(ctx, bob, ImportSpec{AsOf: date("2026-08-31"), File: "aug.csv",
			Lines: []LedgerLine{line("A-1", 1001, 9)}})
		must(t, err)
		if n := len(auditOf(t, s, alice.Service, AuditActionLimit)); n != 4 {
			t.Errorf("an older ledger logged limits: %d entries", n)
		}
		if n := len(auditOf(t, s, alice.Service, AuditActionImport)); n != 3 {
			t.Errorf("%d imports logged, want 3", n)
		}

		in := LimitInputs{MonthlySales: 10000, MonthsAllowed: 2, LossBudget: 500}
		must(t, s.SaveLimitInputs(ctx, alice, "A-1", in))
		in.MonthlySales, in.SheetCap = 12000, ptr(40000.5)
		must(t, s.SaveLimitInputs(ctx, bob, " A-1 ", in))
		saved := auditOf(t, s, alice.Service, AuditActionLimitInputs)
		if len(saved) != 2 || saved[0].OldValue != "" || saved[1].Actor != "bob" || saved[1].Account != "A-1" || saved[1].BusinessID != 1001 ||
			saved[1].OldValue != "monthly_sales=10000; months_allowed=2; loss_budget=500; sheet_cap=" ||
			saved[1].NewValue != "monthly_sales=12000; months_allowed=2; loss_budget=500; sheet_cap=40000.5" {
			t.Fatalf("inputs logged = %+v", saved)
		}
		wantErr(t, "inputs of no account", s.SaveLimitInputs(ctx, alice, "NOPE", in), ErrNotFound)

		must(t, s.LinkAccount(ctx, alice, "A-2", 2002))
		must(t, s.LinkAccount(ctx, alice, "A-2", 3003)) // already linked: nothing changes, nothing logged
		links := auditOf(t, s, alice.Service, AuditActionLink)
		if len(links) != 1 || links[0].Account != "A-2" || links[0].NewValue != "2002" || links[0].BusinessID != 2002 {
			t.Fatalf("links logged = %+v", links)
		}

		v, err := s.VerifyAudit(ctx, alice.Service)
		must(t, err)
		if !v.Intact || v.Entries != 3+4+2+1 {
			t.Errorf("verdict = %+v", v)
		}
		if v, _ := s.VerifyAudit(ctx, aliceElse.Service); v.Entries != 0 {
			t.Errorf("another team's log has %d entries", v.Entries)
		}
	})
}

// TestRefusedImportLogsNothing: an import refused past the bound writes
// neither the ledger nor an entry.
func TestRefusedImportLogsNothing(t *testing.T) {
	eachEngine(t, func(t *testing.T, s *Store) {
		lines := []LedgerLine{line("A-1", 0, 1), line("A-1", 0, 2)}
		_, err := s.ImportLedger(t.Context(), alice, ImportSpec{AsOf: date("2026-09-30"), Lines: lines})
		wantInvalid(t, "a doubled account", err, "account")
		if v, _ := s.VerifyAudit(t.Context(), alice.Service); v.Entries != 0 {
			t.Errorf("a refused import logged %d entries", v.Entries)
		}
	})
}
