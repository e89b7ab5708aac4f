package store

import (
	"math"
	"strings"
	"testing"
)

// TestImportNamesTheFirstBadLine: with several mistakes the refusal names
// the first in file order, as a line-by-line check would, though repeats
// are found by sorting; nothing is written.
func TestImportNamesTheFirstBadLine(t *testing.T) {
	eachEngine(t, func(t *testing.T, s *Store) {
		ctx := t.Context()
		for _, c := range []struct {
			lines []LedgerLine
			field string
			says  string
		}{
			// Z repeats (line 3) before A does (line 4).
			{[]LedgerLine{line("Z", 1, 1), line("A", 1, 1), line("Z", 1, 1), line("A", 1, 1)}, "account", "account Z is listed twice"},
			{[]LedgerLine{line("A", 1, 1), line("Z", 1, 1), line("Z", 1, 1), line("A", 1, 1), line("A", 1, 1)}, "account", "account Z is listed twice"},
			// A bad amount on line 2 comes before the repeat on line 3.
			{[]LedgerLine{line("B", 1, 1), line("C", 1, math.NaN()), line("B", 1, 1)}, "balance", "account C"},
			// The repeat on line 2 comes before the bad amount on line 3.
			{[]LedgerLine{line("B", 1, 1), line("B", 1, 1), line("C", 1, math.NaN())}, "account", "account B is listed twice"},
			// Accounts are compared as stored, trimmed.
			{[]LedgerLine{line("B", 1, 1), line(" B ", 1, 1)}, "account", "account B is listed twice"},
		} {
			_, err := s.ImportLedger(ctx, alice, ImportSpec{AsOf: date("2026-10-31"), Lines: c.lines})
			wantInvalid(t, c.says, err, c.field)
			if !strings.Contains(err.Error(), c.says) {
				t.Errorf("err = %v, want it to say %q", err, c.says)
			}
		}
		if n := countWhere(t, s, "ledgers", "1 = 1"); n != 0 {
			t.Errorf("%d ledgers after refused imports", n)
		}
	})
}

// TestImportBatches: a ledger of several batches and a short last one
// keeps every account with its own line and one entry each for the
// account it creates; a second ledger keeps the accounts' ids, creates
// none, and logs no limit (the file's are the ERP's).
func TestImportBatches(t *testing.T) {
	eachEngine(t, func(t *testing.T, s *Store) {
		ctx := t.Context()
		n := 2*batchRows + 7
		first := ledgerLines(n, 1)
		_, err := s.ImportLedger(ctx, alice, ImportSpec{AsOf: date("2026-09-30"), File: "sep.csv", Lines: first})
		must(t, err)
		if got := countWhere(t, s, "team_accounts", "1 = 1"); got != n {
			t.Fatalf("%d accounts, want %d", got, n)
		}
		// Each line is the account's own: its balance is the one the
		// ledger gave that account.
		want := map[string]float64{}
		for _, l := range first {
			want[l.Account] = l.Balance
		}
		rows, err := s.r.QueryContext(ctx, "SELECT a.account, l.balance FROM ledger_lines l JOIN team_accounts a ON a.id = l.account_id")
		must(t, err)
		seen := 0
		for rows.Next() {
			var acc string
			var bal float64
			must(t, rows.Scan(&acc, &bal))
			if seen++; want[acc] != bal {
				t.Errorf("account %s has balance %v, want %v", acc, bal, want[acc])
			}
		}
		must(t, rows.Close())
		if seen != n {
			t.Errorf("%d ledger lines, want %d", seen, n)
		}
		if got := countWhere(t, s, "audit_entries", "action = 'account-create'"); got != n {
			t.Errorf("%d account entries, want %d", got, n)
		}
		ids := map[string]int64{}
		rows, err = s.r.QueryContext(ctx, "SELECT account, id FROM team_accounts")
		must(t, err)
		for rows.Next() {
			var acc string
			var id int64
			must(t, rows.Scan(&acc, &id))
			ids[acc] = id
		}
		must(t, rows.Close())
		// The next month changes every other limit.
		next := ledgerLines(n, 1)
		for i := range next {
			if i%2 == 0 {
				v := *next[i].ERPLimit + 1000
				next[i].ERPLimit = &v
			}
		}
		_, err = s.ImportLedger(ctx, alice, ImportSpec{AsOf: date("2026-10-31"), File: "oct.csv", Lines: next})
		must(t, err)
		if got := countWhere(t, s, "audit_entries", "action IN ('limit', 'account-create')"); got != n {
			t.Errorf("%d limit and account entries after the second ledger, want %d", got, n)
		}
		var moved int
		for acc, id := range ids {
			var now int64
			must(t, s.r.QueryRowContext(ctx, "SELECT id FROM team_accounts WHERE account = $1", acc).Scan(&now))
			if now != id {
				moved++
			}
		}
		if moved != 0 {
			t.Errorf("%d accounts changed id on the second ledger", moved)
		}
		if lines := countWhere(t, s, "ledger_lines", "1 = 1"); lines != 2*n {
			t.Errorf("%d ledger lines, want %d", lines, 2*n)
		}
		changes := countWhere(t, s, "audit_entries", "action = 'import-change'")
		if changes != (n+1)/2 {
			t.Errorf("%d import changes logged, want one per ERP limit changed, %d", changes, (n+1)/2)
		}
		// The chain holds across the batches: two imports, the accounts
		// and the ERP limits changed.
		v, err := s.VerifyAudit(ctx, alice.Service)
		must(t, err)
		if !v.Intact || v.Entries != int64(2+n+changes) {
			t.Errorf("verdict = %+v, want %d entries intact", v, 2+n+changes)
		}
	})
}
