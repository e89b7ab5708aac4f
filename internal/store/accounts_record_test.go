package store

import (
	"slices"
	"strings"
	"testing"
)

// recordOf is the team's record, account by account.
func recordOf(t *testing.T, s *Store) map[string]Account {
	t.Helper()
	list, err := s.Accounts(t.Context(), alice, "")
	must(t, err)
	out := map[string]Account{}
	for _, a := range list {
		out[a.Account] = a
	}
	return out
}

// TestReimportsKeepTheRecord: after a month's file, a limit approved, an
// owner assigned, inputs saved and a review, importing the month again,
// a one-line file (both modes) and the full file again leaves every
// account with its limit in force, owner, inputs and review; the ERP's
// limit is kept beside the limit in force; the replaced versions are kept.
func TestReimportsKeepTheRecord(t *testing.T) {
	eachEngine(t, func(t *testing.T, s *Store) {
		ctx := t.Context()
		full := []LedgerLine{line("A-1", 1001, 1000), line("A-2", 1002, 500), line("A-3", 0, 300)}
		_, err := s.ImportLedger(ctx, alice, ImportSpec{AsOf: date("2026-10-31"), File: "oct.csv", Lines: slices.Clone(full)})
		must(t, err)
		_, err = s.RequestLimit(ctx, bob, RequestSpec{Account: "A-1", Amount: 40000, Reason: "approved", Authority: 50000})
		must(t, err)
		_, err = s.AssignOwner(ctx, bob, []string{"A-2"}, "carol", "")
		must(t, err)
		must(t, s.SaveLimitInputs(ctx, bob, "A-3", LimitInputs{MonthlySales: 900, MonthsAllowed: 2, LossBudget: 50}))
		_, err = s.RecordReview(ctx, bob, Review{Account: "A-1", Outcome: "keep", Note: "fine"})
		must(t, err)
		before := recordOf(t, s)

		one := line("A-1", 1001, 50)
		one.ERPLimit = ptr(900000.0) // an ERP limit far past the one in force
		plan, err := s.PlanImport(ctx, alice, date("2026-10-31"), []LedgerLine{one}, false)
		must(t, err)
		if !plan.Replaces || plan.ReplacesLines != 3 || plan.Missing.N != 2 || strings.Join(plan.Missing.Names, ",") != "A-2,A-3" ||
			plan.Changed.N != 1 || plan.ERPDiffers != 1 || *plan.Diffs[0].InForce != 40000 || plan.New.N != 0 || plan.Total != 50 {
			t.Errorf("plan of a one-line file = %+v", plan)
		}
		for _, spec := range []ImportSpec{
			{File: "oct again.csv", Lines: slices.Clone(full)},
			{File: "one line.csv", Lines: []LedgerLine{one}, Update: true},
			{File: "one line.csv", Lines: []LedgerLine{one}},
			{File: "oct again.csv", Lines: slices.Clone(full)},
		} {
			spec.AsOf = date("2026-10-31")
			_, err := s.ImportLedger(ctx, bob, spec)
			must(t, err)
			after := recordOf(t, s)
			if len(after) != 3 {
				t.Fatalf("after %q (update %v): %d accounts in the record", spec.File, spec.Update, len(after))
			}
			for acc, b := range before {
				a := after[acc]
				if amountText(a.Limit) != amountText(b.Limit) || a.Owner != b.Owner || inputsText(a.Inputs) != inputsText(b.Inputs) {
					t.Errorf("after %q (update %v): %s = limit %s, owner %s, inputs %s; was %s, %s, %s", spec.File, spec.Update, acc,
						amountText(a.Limit), a.Owner, inputsText(a.Inputs), amountText(b.Limit), b.Owner, inputsText(b.Inputs))
				}
			}
			switch {
			case spec.Update && (after["A-2"].Balance != 500 || !after["A-2"].InLedger() || after["A-1"].Balance != 50):
				t.Errorf("update: A-1 %v, A-2 %v (in ledger %v); want 50 and 500 kept", after["A-1"].Balance, after["A-2"].Balance, after["A-2"].InLedger())
			case !spec.Update && len(spec.Lines) == 1 && (after["A-2"].InLedger() || after["A-2"].Balance != 0):
				t.Errorf("full ledger of one line: A-2 still owes %v", after["A-2"].Balance)
			}
		}
		if a := recordOf(t, s)["A-1"]; *a.Limit != 40000 || *a.ERPLimit != 2000 || !a.ERPDiffers() {
			t.Errorf("A-1: limit in force %v, ERP %v", amountText(a.Limit), amountText(a.ERPLimit))
		}
		if last, err := s.LastReviews(ctx, alice); err != nil || last["A-1"].Outcome != "keep" {
			t.Errorf("reviews after the imports = %+v, %v", last, err)
		}
		vs, err := s.LedgerVersions(ctx, alice)
		must(t, err)
		if len(vs) != MaxVersionsPerDate || vs[0].File != "one line.csv" || vs[0].Lines != 1 || vs[0].ReplacedBy != "bob" ||
			!strings.HasPrefix(vs[0].ReplacedHow, "import ") {
			t.Fatalf("versions = %+v", vs)
		}
	})
}

// TestRestoreVersion: a replaced version is put back in one step, the
// ledger it replaces kept in turn, the restore audited; another team's
// version is not found.
func TestRestoreVersion(t *testing.T) {
	eachEngine(t, func(t *testing.T, s *Store) {
		ctx := t.Context()
		_, err := s.ImportLedger(ctx, alice, ImportSpec{AsOf: date("2026-10-31"), File: "full.csv",
			Lines: []LedgerLine{line("A-1", 1001, 1000), line("A-2", 1002, 500)}})
		must(t, err)
		_, err = s.ImportLedger(ctx, bob, ImportSpec{AsOf: date("2026-10-31"), File: "partial.csv", Lines: []LedgerLine{line("A-1", 1001, 7)}})
		must(t, err)
		vs, err := s.LedgerVersions(ctx, alice)
		must(t, err)
		if len(vs) != 1 || vs[0].File != "full.csv" || vs[0].Lines != 2 {
			t.Fatalf("versions = %+v", vs)
		}
		_, err = s.RestoreVersion(ctx, aliceElse, vs[0].ID)
		wantErr(t, "another team's version", err, ErrNotFound)
		v, err := s.RestoreVersion(ctx, carol, vs[0].ID)
		must(t, err)
		if v.AsOf != "2026-10-31" || v.Lines != 2 {
			t.Errorf("restored %+v", v)
		}
		r := recordOf(t, s)
		if r["A-1"].Balance != 1000 || r["A-2"].Balance != 500 {
			t.Errorf("after the restore: A-1 %v, A-2 %v", r["A-1"].Balance, r["A-2"].Balance)
		}
		vs, err = s.LedgerVersions(ctx, alice)
		must(t, err)
		if len(vs) != 1 || vs[0].File != "partial.csv" || vs[0].ReplacedBy != "carol" || !strings.HasPrefix(vs[0].ReplacedHow, "restore of version") {
			t.Errorf("versions after the restore = %+v", vs)
		}
		es := auditOf(t, s, alice.Service, AuditActionRestore)
		if len(es) != 1 || es[0].Actor != "carol" || !strings.Contains(es[0].NewValue, "2026-10-31") {
			t.Errorf("restores logged = %+v", es)
		}
		_, err = s.RestoreVersion(ctx, carol, v.ID)
		wantErr(t, "a version restored already", err, ErrNotFound)
	})
}

// TestAddAccount: an account added by hand is in the record, linked, with
// no ledger line and no limit; audited; a number taken or a missing link
// refused.
func TestAddAccount(t *testing.T) {
	eachEngine(t, func(t *testing.T, s *Store) {
		ctx := t.Context()
		must(t, s.AddAccount(ctx, bob, NewAccount{Account: " N-1 ", Name: "Newco", BusinessID: 1005, Owner: "bob", Reason: "new customer"}))
		r := recordOf(t, s)["N-1"]
		if r.Name != "Newco" || r.BusinessID != 1005 || r.Owner != "bob" || r.Limit != nil || r.InLedger() {
			t.Fatalf("N-1 = %+v", r)
		}
		wantInvalid(t, "taken", s.AddAccount(ctx, bob, NewAccount{Account: "N-1", Name: "x", BusinessID: 1, Reason: "r"}), "account")
		wantInvalid(t, "no link", s.AddAccount(ctx, bob, NewAccount{Account: "N-2", Name: "x", Reason: "r"}), "business")
		wantInvalid(t, "no name", s.AddAccount(ctx, bob, NewAccount{Account: "N-2", BusinessID: 1, Reason: "r"}), "name")
		wantInvalid(t, "no reason", s.AddAccount(ctx, bob, NewAccount{Account: "N-2", Name: "x", BusinessID: 1}), "reason")
		es := auditOf(t, s, alice.Service, AuditActionAccount)
		if len(es) != 1 || es[0].Account != "N-1" || es[0].BusinessID != 1005 || es[0].Reason != "added by hand: new customer" {
			t.Errorf("logged %+v", es)
		}
		// A request for the new customer has its account.
		req, err := s.RequestLimit(ctx, bob, RequestSpec{Account: "N-1", Amount: 5000, Reason: "first order", Authority: 1000})
		must(t, err)
		if req.BusinessID != 1005 || req.Status != StatusPending {
			t.Errorf("request = %+v", req)
		}
		// A later ledger fills its balance and keeps the hand-made link.
		l := line("N-1", 0, 80)
		_, err = s.ImportLedger(ctx, alice, ImportSpec{AsOf: date("2026-10-31"), Lines: []LedgerLine{l}})
		must(t, err)
		if r := recordOf(t, s)["N-1"]; r.BusinessID != 1005 || r.Balance != 80 || r.Owner != "bob" {
			t.Errorf("after a ledger N-1 = %+v", r)
		}
	})
}
