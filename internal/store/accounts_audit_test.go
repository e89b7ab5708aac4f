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

// TestAccountChangesAreAudited: an import logs itself, counted and named,
// and every account it adds to the record; it never logs a limit (the
// file's limits are the ERP's); saved calculator inputs and a link are
// logged with who, what and the values; the chain stays intact.
func TestAccountChangesAreAudited(t *testing.T) {
	eachEngine(t, func(t *testing.T, s *Store) {
		ctx := t.Context()
		_, err := s.ImportLedger(ctx, alice, ImportSpec{AsOf: date("2026-09-30"), File: "sep.csv",
			Lines: []LedgerLine{line("A-1", 1001, 1000), line("A-2", 0, 500)}})
		must(t, err)
		if limits := auditOf(t, s, alice.Service, AuditActionLimit); len(limits) != 0 {
			t.Fatalf("an import logged limits: %+v", limits)
		}
		created := auditOf(t, s, alice.Service, AuditActionAccount)
		if len(created) != 2 || created[0].Account != "A-1" || created[0].BusinessID != 1001 || created[0].Actor != "alice" ||
			created[0].NewValue != "name=Name A-1; owner=alice" {
			t.Fatalf("accounts created = %+v", created)
		}
		imports := auditOf(t, s, alice.Service, AuditActionImport)
		if len(imports) != 1 || !strings.Contains(imports[0].NewValue, `"sep.csv": 2026-09-30, full ledger: 2 accounts in the file; 2 new (A-1, A-2)`) ||
			!strings.Contains(imports[0].NewValue, "2 ERP limits differ from the limit in force (A-1, A-2); total imported 1500") {
			t.Fatalf("imports = %+v", imports)
		}

		// October: A-3 is new; the ERP limits change, the limits in force do not.
		_, err = s.ImportLedger(ctx, bob, ImportSpec{AsOf: date("2026-10-31"), File: "oct.csv",
			Lines: []LedgerLine{line("A-1", 1001, 1500), line("A-2", 0, 500), line("A-3", 0, 100)}})
		must(t, err)
		created = auditOf(t, s, alice.Service, AuditActionAccount)
		if len(created) != 3 || created[2].Account != "A-3" || created[2].Actor != "bob" {
			t.Fatalf("accounts created after October = %+v", created)
		}
		imports = auditOf(t, s, alice.Service, AuditActionImport)
		if !strings.Contains(imports[1].NewValue, "1 new (A-3)") || !strings.Contains(imports[1].NewValue, "1 balances changed (A-1)") {
			t.Errorf("October's entry = %q", imports[1].NewValue)
		}
		_, err = s.ImportLedger(ctx, bob, ImportSpec{AsOf: date("2026-08-31"), File: "aug.csv",
			Lines: []LedgerLine{line("A-1", 1001, 9)}})
		must(t, err)
		if n := len(auditOf(t, s, alice.Service, AuditActionLimit)); n != 0 {
			t.Errorf("imports logged %d limits", n)
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
		// 3 imports, 3 accounts created, 2 ERP limits changed (A-1's in
		// October, and in August against no ledger before it), 2 inputs, 1 link.
		if !v.Intact || v.Entries != 3+3+2+2+1 {
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
