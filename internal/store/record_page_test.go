package store

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"
)

// TestRecordPageAgreesWithTheRecord (issue 43.6): a page of the record read
// in SQL holds the accounts, in the order, that sorting and filtering every
// account of Accounts gives, whatever the sort, direction, filter and page;
// its summary counts and sums what Accounts holds.
func TestRecordPageAgreesWithTheRecord(t *testing.T) {
	eachEngine(t, func(t *testing.T, s *Store) {
		ctx := t.Context()
		var old, newest []LedgerLine
		for i := range 30 {
			l := line(fmt.Sprintf("K-%02d", (i*7)%30), []int32{0, 1001, 1002, 1003}[i%4], float64((i*3779)%9000-1500))
			l.Owner = []string{"alice", "Bob", "", "bob"}[(i/4)%4]
			if l.BusinessID == 0 && i%8 == 0 {
				l.CustomerID = fmt.Sprintf("CU-%d", i)
			}
			l.ERPLimit = ptr(2 * math.Abs(l.Balance))
			if i%5 == 0 {
				l.ERPLimit = nil
			}
			old = append(old, l)
			if i%6 != 5 { // some accounts the newest ledger leaves out
				newest = append(newest, l)
			}
		}
		_, err := s.ImportLedger(ctx, alice, ImportSpec{AsOf: date("2026-09-30"), File: "sep.csv", Lines: old})
		must(t, err)
		_, err = s.ImportLedger(ctx, alice, ImportSpec{AsOf: date("2026-10-31"), File: "oct.csv", Lines: newest})
		must(t, err)
		for i, l := range old {
			if i%3 == 0 { // limits in force, some below the balance, one the ERP's
				amount := max(math.Abs(l.Balance)*float64(i%4+1)/3, 1)
				if i == 3 && l.ERPLimit != nil {
					amount = *l.ERPLimit
				}
				_, err := s.RequestLimit(ctx, alice, RequestSpec{Account: l.Account, Amount: amount, Reason: "set", Authority: 1e9})
				must(t, err)
			}
		}
		all, err := s.Accounts(ctx, alice, "")
		must(t, err)

		var queries []RecordQuery
		for _, sort := range RecordSorts {
			for _, desc := range []bool{false, true} {
				queries = append(queries, RecordQuery{Sort: sort, Desc: desc}, RecordQuery{Sort: sort, Desc: desc, OverLimit: true},
					RecordQuery{Sort: sort, Desc: desc, NotLinked: true, Owner: "BOB"}, RecordQuery{Sort: sort, Desc: desc, ERPDiffers: true})
			}
		}
		for _, q := range queries {
			want := recordReference(all, q)
			if len(want) == 0 || len(want) == len(all) && (q.OverLimit || q.NotLinked || q.ERPDiffers) {
				t.Fatalf("%+v keeps %d of %d accounts: the data tries nothing", q, len(want), len(all))
			}
			for _, page := range [][2]int{{0, 100}, {4, 7}, {28, 5}} {
				q.Offset, q.Limit = page[0], page[1]
				rows, err := s.RecordRows(ctx, alice, q)
				must(t, err)
				var got []string
				for _, r := range rows {
					got = append(got, r.Account)
				}
				w := want[min(page[0], len(want)):min(page[0]+page[1], len(want))]
				if !slices.Equal(got, w) {
					t.Errorf("%+v: rows %v, want %v", q, got, w)
				}
			}
			sum, err := s.RecordSummary(ctx, alice, q)
			must(t, err)
			var kept, accounts, unlinked, erp, out int
			var bal, exp float64
			for _, g := range sum.Groups {
				kept, accounts, unlinked, erp, out = kept+g.Kept, accounts+g.Accounts, unlinked+g.Unlinked, erp+g.ERPDiffers, out+g.NotInLedger
				bal, exp = bal+g.Balance, exp+g.Exposure
			}
			var wbal, wexp float64
			wunlinked, werp, wout := 0, 0, 0
			for _, a := range all {
				if recordKeeps(a, q) {
					wbal, wexp = wbal+a.Balance, wexp+max(a.Balance, 0)
				}
				if a.BusinessID == 0 && (a.CustomerID != "" || a.SupplierID != "") {
					wunlinked++
				}
				if a.ERPDiffers() {
					werp++
				}
				if !a.InLedger() {
					wout++
				}
			}
			if kept != len(want) || accounts != len(all) || unlinked != wunlinked || erp != werp || out != wout ||
				math.Abs(bal-wbal) > 1e-6 || math.Abs(exp-wexp) > 1e-6 {
				t.Errorf("%+v: summary kept %d of %d, unlinked %d, erp %d, out %d, balance %v, exposure %v; want %d of %d, %d, %d, %d, %v, %v",
					q, kept, accounts, unlinked, erp, out, bal, exp, len(want), len(all), wunlinked, werp, wout, wbal, wexp)
			}
			if !slices.Equal(sum.Owners, []string{"Bob", "alice", "bob"}) {
				t.Errorf("owners %q", sum.Owners)
			}
		}
		if wout := len(old) - len(newest); wout == 0 || len(all) != len(old) {
			t.Fatalf("the record holds %d accounts, %d of them out of the newest ledger", len(all), wout)
		}
		if _, err := s.RecordRows(ctx, alice, RecordQuery{Sort: "el"}); err == nil {
			t.Error("a sort SQL does not read was taken")
		}
	})
}

// recordKeeps is the filter of /accounts over one account.
func recordKeeps(a Account, q RecordQuery) bool {
	return (!q.OverLimit || a.Limit != nil && a.Balance > *a.Limit) && (!q.NotLinked || a.BusinessID == 0) &&
		(!q.ERPDiffers || a.ERPDiffers()) && (q.Owner == "" || strings.EqualFold(q.Owner, a.Owner))
}

// recordReference is the accounts q keeps, in q's order, as /accounts
// orders every account's figures: unknown values last either way, ties by
// account number.
func recordReference(all []Account, q RecordQuery) []string {
	var kept []Account
	for _, a := range all {
		if recordKeeps(a, q) {
			kept = append(kept, a)
		}
	}
	key := func(a Account) (float64, bool) {
		switch q.Sort {
		case "balance":
			return a.Balance, true
		case "limit":
			if a.Limit == nil {
				return 0, false
			}
			return *a.Limit, true
		case "utilization":
			if a.Limit == nil || *a.Limit <= 0 {
				return 0, false
			}
			return a.Balance / *a.Limit, true
		}
		return 0, true
	}
	slices.SortFunc(kept, func(a, b Account) int {
		ka, oka := key(a)
		kb, okb := key(b)
		if oka != okb {
			if oka {
				return -1
			}
			return 1
		}
		c := cmp.Compare(ka, kb)
		if q.Desc {
			c = -c
		}
		return cmp.Or(c, strings.Compare(a.Account, b.Account))
	})
	var out []string
	for _, a := range kept {
		out = append(out, a.Account)
	}
	return out
}
