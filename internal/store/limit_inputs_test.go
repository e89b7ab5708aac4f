package store

import (
	"strconv"
	"testing"
	"time"
)

// TestLimitInputsKeptAsVersions: each save of an account's calculator
// inputs is a new dated version, never a change to the one before; the
// record reads the newest, the history every one in order, and At the one
// in force at an instant (none before the first).
func TestLimitInputsKeptAsVersions(t *testing.T) {
	eachEngine(t, func(t *testing.T, s *Store) {
		ctx := t.Context()
		_, err := s.ImportLedger(ctx, bob, ImportSpec{AsOf: date("2026-10-31"), File: "oct.csv",
			Lines: []LedgerLine{line("A-1", 1001, 1500), line("A-2", 0, 500)}})
		must(t, err)
		must(t, s.SaveLimitInputs(ctx, alice, "A-1", LimitInputs{MonthlySales: 10000, MonthsAllowed: 2, LossBudget: 500}))
		must(t, s.SaveLimitInputs(ctx, bob, "A-1", LimitInputs{MonthlySales: 12000, MonthsAllowed: 3, LossBudget: 600, SheetCap: ptr(40000.5)}))
		must(t, s.SaveLimitInputs(ctx, bob, "A-2", LimitInputs{MonthlySales: 900, MonthsAllowed: 1, LossBudget: 50}))

		r := recordOf(t, s)
		if in := r["A-1"].Inputs; in == nil || in.MonthlySales != 12000 || in.SavedBy != "bob" || amountText(in.SheetCap) != "40000.5" {
			t.Errorf("A-1's inputs in force: %+v", in)
		}
		if n := len(r); n != 2 {
			t.Errorf("the record lists %d accounts, want 2 (one row each, whatever the versions)", n)
		}
		h, err := s.LimitInputHistory(ctx, alice)
		must(t, err)
		a1 := h["A-1"]
		if len(h) != 2 || len(a1) != 2 || a1[0].MonthlySales != 10000 || a1[0].SavedBy != "alice" || a1[0].SheetCap != nil ||
			a1[1].MonthlySales != 12000 || !a1[1].SavedAt.After(a1[0].SavedAt) {
			t.Fatalf("history: %+v", h)
		}
		if in := a1.At(a1[0].SavedAt.Add(-time.Microsecond)); in != nil {
			t.Errorf("before the first save: %+v", in)
		}
		if in := a1.At(a1[0].SavedAt); in == nil || in.MonthlySales != 10000 {
			t.Errorf("at the first save: %+v", in)
		}
		if in := a1.At(a1[1].SavedAt.Add(-time.Microsecond)); in == nil || in.MonthlySales != 10000 {
			t.Errorf("between the saves: %+v", in)
		}
		if in := a1.At(a1[1].SavedAt.Add(time.Hour)); in == nil || in.MonthlySales != 12000 {
			t.Errorf("after the second save: %+v", in)
		}
		if h, err := s.LimitInputHistory(ctx, aliceElse); err != nil || len(h) != 0 {
			t.Errorf("another team's history: %v, %v", h, err)
		}
	})
}

// TestMigrationKeepsTodaysInputs: inputs saved before migration 00030 (one
// row an account, replaced by each save) become each account's version 1,
// dated by their save, and the next save is version 2.
func TestMigrationKeepsTodaysInputs(t *testing.T) {
	for _, e := range engines {
		t.Run(string(e), func(t *testing.T) {
			t.Parallel()
			cfg, db := migratedTo(t, e, 29)
			sv := alice.Service
			saved := time.Date(2026, 5, 4, 10, 0, 0, 0, time.UTC)
			for _, q := range []string{
				"INSERT INTO team_accounts (id, service, account, name, business_id, customer_id, supplier_id, owner, as_of, created_at, created_by, updated_at, updated_by) VALUES (1, '" + sv + "', 'A-1', 'One', 1001, '', '', '', '2026-10-31', 1, 'x', 1, 'x')",
				"INSERT INTO limit_inputs (account_id, monthly_sales, months_allowed, loss_budget, sheet_cap, saved_at, saved_by) VALUES (1, 8000, 2, 400, 25000, " +
					strconv.FormatInt(saved.UnixMicro(), 10) + ", 'carol')",
			} {
				if _, err := db.ExecContext(t.Context(), q); err != nil {
					t.Fatalf("%s: %v", q, err)
				}
			}
			must(t, db.Close())
			s := openTest(t, e, cfg)
			h, err := s.LimitInputHistory(t.Context(), alice)
			must(t, err)
			a1 := h["A-1"]
			if len(a1) != 1 || a1[0].MonthlySales != 8000 || amountText(a1[0].SheetCap) != "25000" || a1[0].SavedBy != "carol" || !a1[0].SavedAt.Equal(saved) {
				t.Fatalf("moved: %+v", h)
			}
			must(t, s.SaveLimitInputs(t.Context(), alice, "A-1", LimitInputs{MonthlySales: 9000, MonthsAllowed: 2, LossBudget: 400}))
			if n := countWhere(t, s, "limit_input_versions", "account_id = 1 AND version = 2 AND monthly_sales = 9000"); n != 1 {
				t.Errorf("the next save is not version 2 (%d rows)", n)
			}
		})
	}
}
