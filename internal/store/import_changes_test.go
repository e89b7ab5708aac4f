package store

import (
	"strconv"
	"strings"
	"testing"
)

// TestEveryImportChangeIsAudited (issue 47.3): an import logs, one entry per
// account, each change it makes to an account of the record: the owner a
// file fills in, the link it makes, the ERP limit that differs from the
// account's last line, the balance of a date already held, and the
// account a full ledger leaves out; the replaced ledger is logged as a
// version kept; an account nothing changes on gets no entry, and an update
// logs no account left out. The entries commit with the import, in its
// chain.
func TestEveryImportChangeIsAudited(t *testing.T) {
	eachEngine(t, func(t *testing.T, s *Store) {
		ctx := t.Context()
		mk := func(acc string, business int32, owner string, balance, erp float64) LedgerLine {
			l := line(acc, business, balance)
			l.Owner, l.ERPLimit = owner, ptr(erp)
			return l
		}
		_, err := s.ImportLedger(ctx, alice, ImportSpec{AsOf: date("2026-10-31"), File: "oct.csv", Lines: []LedgerLine{
			mk("A-1", 1001, "alice", 1000, 5000), mk("A-2", 0, "", 200, 1000), mk("A-3", 1003, "alice", 300, 900), mk("A-5", 1005, "alice", 50, 100)}})
		must(t, err)
		if n := len(auditOf(t, s, alice.Service, AuditActionImportChange)); n != 0 {
			t.Fatalf("the first import logged %d changes; it only creates", n)
		}

		// The same date again, as the full ledger: A-1's balance changes,
		// A-2 gets an owner, a link and a new ERP limit, A-3 is left out,
		// A-4 is new, A-5 is as it was.
		rec, err := s.ImportLedger(ctx, bob, ImportSpec{AsOf: date("2026-10-31"), File: "oct again.csv", Lines: []LedgerLine{
			mk("A-1", 1001, "alice", 1200, 5000), mk("A-2", 2002, "bob", 200, 1500), mk("A-4", 1004, "", 10, 20), mk("A-5", 1005, "alice", 50, 100)}})
		must(t, err)
		changes := map[string]AuditEntry{}
		for _, e := range auditOf(t, s, alice.Service, AuditActionImportChange) {
			if _, twice := changes[e.Account]; twice {
				t.Errorf("%s logged twice", e.Account)
			}
			changes[e.Account] = e
		}
		want := map[string][3]string{
			"A-1": {"balance=1000", "balance=1200", "ledger of 2026-10-31"},
			"A-2": {"owner=; link=0; erp_limit=1000", "owner=bob; link=2002; erp_limit=1500", "ledger of 2026-10-31"},
			"A-3": {"balance=300", "no line", "not in the file: the full ledger of 2026-10-31"},
		}
		if len(changes) != len(want) {
			t.Errorf("changes logged for %d accounts, want %d: %+v", len(changes), len(want), changes)
		}
		for acc, w := range want {
			e := changes[acc]
			if e.Actor != "bob" || e.OldValue != w[0] || e.NewValue != w[1] || !strings.HasPrefix(e.Reason, w[2]) {
				t.Errorf("%s logged as %+v, want %q → %q (%s…)", acc, e.AuditChange, w[0], w[1], w[2])
			}
		}
		if changes["A-2"].BusinessID != 2002 || changes["A-3"].BusinessID != 1003 {
			t.Errorf("businesses logged: A-2 %d, A-3 %d", changes["A-2"].BusinessID, changes["A-3"].BusinessID)
		}
		versions := auditOf(t, s, alice.Service, AuditActionVersion)
		if len(versions) != 1 || !strings.Contains(versions[0].OldValue, "ledger of 2026-10-31 imported by alice") ||
			!strings.Contains(versions[0].OldValue, "4 lines") || !strings.HasPrefix(versions[0].NewValue, "version ") ||
			!strings.Contains(versions[0].Reason, "import "+strconv.FormatInt(rec.ID, 10)) {
			t.Errorf("version kept logged as %+v", versions)
		}
		if created := auditOf(t, s, alice.Service, AuditActionAccount); len(created) != 5 || created[4].Account != "A-4" {
			t.Errorf("accounts created = %+v", created)
		}

		// An update leaves the accounts out as they were: no entry for them.
		_, err = s.ImportLedger(ctx, bob, ImportSpec{AsOf: date("2026-10-31"), File: "one.csv", Update: true,
			Lines: []LedgerLine{mk("A-1", 1001, "alice", 1200, 5000)}})
		must(t, err)
		if n := len(auditOf(t, s, alice.Service, AuditActionImportChange)); n != 3 {
			t.Errorf("an update that changes nothing logged %d more changes", n-3)
		}
		v, err := s.VerifyAudit(ctx, alice.Service)
		must(t, err)
		if !v.Intact || v.Entries != 3+2+5+3 {
			t.Errorf("verdict = %+v, want %d intact", v, 3+2+5+3)
		}
	})
}
