package views

import (
	"slices"
	"testing"

	"creditdash/internal/credit"
	"creditdash/internal/upstream"
)

func payment(month, code, name string, total int64, dbt upstream.Num[int]) upstream.PaymentSummaryRow {
	return upstream.PaymentSummaryRow{
		CategoryName: name, CategoryCode: code, MonthReported: month, Accounts: 1234,
		DBTIndex: dbt, AverageDBTIndex: ip(6), TotalDue: total,
		CurrentAmount: total * 29 / 100, PastDue30Days: 100, PastDue60Days: 200, PastDue90Days: 300,
		PastDueOver90Days: total * 41 / 100, OtherAmount: 50, CreditBalance: total / 10,
		CurrentAmountPercent: 29, PastDue30DaysPercent: 12.34, PastDue60DaysPercent: 8.23,
		PastDue90DaysPercent: 8.23, PastDueOver90DaysPercent: 41.14, OtherAmountPercent: 1.06,
	}
}

func TestAgingRows(t *testing.T) {
	rows := AgingRows([]upstream.PaymentSummaryRow{
		payment("2026-09", "", "All categories", 1000000, ip(52)),
		payment("2026-10", "", "All categories", 1148966, ip(55)),
		payment("garbage", "", "All categories", 10, upstream.Num[int]{}),
	})
	if len(rows) != 3 {
		t.Fatalf("got %d rows", len(rows))
	}
	r := rows[0]
	if r.Month != "Oct 2026" || rows[1].Month != "Sep 2026" || rows[2].Month != "garbage" {
		t.Errorf("months in order: %q %q %q, want newest first and the unreadable last", r.Month, rows[1].Month, rows[2].Month)
	}
	if r.Accounts != "1,234" || r.TotalDue != "$1,148,966" {
		t.Errorf("accounts %q total %q", r.Accounts, r.TotalDue)
	}
	wantBuckets := [len(AgingColumns)]AmountCell{
		{"$333,200", "29.0%"}, {"$100", "12.3%"}, {"$200", "8.2%"}, {"$300", "8.2%"},
		{"$471,076", "41.1%"}, {"$50", "1.1%"}, {"$114,896", "10.0%"},
	}
	if r.Buckets != wantBuckets {
		t.Errorf("buckets = %v,\nwant %v", r.Buckets, wantBuckets)
	}
	if r.DBT != "55" || r.DBTZone.Label != "delinquent" || r.IndustryDBT != "6" {
		t.Errorf("DBT %q (%s), industry %q", r.DBT, r.DBTZone.Label, r.IndustryDBT)
	}
	if m := rows[2]; m.DBT != "missing" || m.DBTZone.Level != credit.LevelNone {
		t.Errorf("a missing DBT reads %q %+v, want missing, no zone", m.DBT, m.DBTZone)
	}
	zero := AgingRows([]upstream.PaymentSummaryRow{{MonthReported: "2026-10"}})[0]
	if zero.Buckets[6].Percent != Dash || zero.IndustryDBT != Dash {
		t.Errorf("credit balance share without a total = %q, industry %q", zero.Buckets[6].Percent, zero.IndustryDBT)
	}
}

func TestSICLatest(t *testing.T) {
	month, rows := SICLatest([]upstream.PaymentSummaryRow{
		payment("2026-09", "73", "Business Services", 900, ip(4)),
		payment("2026-10", "50", "Wholesale Trade - Durable Goods", 100, ip(3)),
		payment("2026-10", "73", "Business Services", 500, ip(12)),
		payment("2026-10", "", "No code", 500, upstream.Num[int]{}),
	})
	if month != "Oct 2026" {
		t.Errorf("month = %q", month)
	}
	var got []string
	for _, r := range rows {
		got = append(got, r.Category)
	}
	want := []string{"73 Business Services", "No code", "50 Wholesale Trade - Durable Goods"}
	if len(got) != len(want) {
		t.Fatalf("categories = %q, want %q", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("categories = %q, want %q (largest amount first, then by name)", got, want)
		}
	}
	if m, r := SICLatest(nil); m != "" || r != nil {
		t.Errorf("no rows: %q %v", m, r)
	}
}

// TestSortedPaymentsLeavesItsInput: rows out of order are sorted in a
// copy, never in the answer they came from (a kept copy other pages
// read); rows in order come back as they are.
func TestSortedPaymentsLeavesItsInput(t *testing.T) {
	in := []upstream.PaymentSummaryRow{
		payment("2026-09", "", "All", 1, ip(1)),
		payment("bad", "", "All", 2, ip(2)),
		payment("2026-10", "", "All", 3, ip(3)),
		payment("2026-08", "", "All", 4, ip(4)),
	}
	months := func(rows []upstream.PaymentSummaryRow) (out []string) {
		for _, r := range rows {
			out = append(out, r.MonthReported)
		}
		return out
	}
	got := sortedPayments(in, false)
	if want := []string{"2026-10", "2026-09", "2026-08", "bad"}; !slices.Equal(months(got), want) {
		t.Errorf("newest first: %q, want %q", months(got), want)
	}
	if want := []string{"2026-09", "bad", "2026-10", "2026-08"}; !slices.Equal(months(in), want) {
		t.Errorf("the input was reordered: %q", months(in))
	}
	if again := sortedPayments(got, false); &again[0] != &got[0] {
		t.Error("rows already in order were copied")
	}
	if old := sortedPayments(got, true); !slices.Equal(months(old), []string{"2026-08", "2026-09", "2026-10", "bad"}) || &old[0] == &got[0] {
		t.Errorf("oldest first: %q, in a copy", months(old))
	}
}

// The divergence panel names the category as the SIC summary does, and
// nothing when no DBT was reported toward it.
func TestDivergenceLabel(t *testing.T) {
	d := credit.Divergence{Code: "36", Name: "Cat 36", Category: []credit.DBTPoint{{Month: credit.MonthOf(2026, 10), DBT: 4}}}
	if got := divergenceLabel(d); got != "36 Cat 36" {
		t.Errorf("label %q, want \"36 Cat 36\"", got)
	}
	if d.Name = ""; divergenceLabel(d) != "36" {
		t.Errorf("a category without a name: %q", divergenceLabel(d))
	}
	if got := divergenceLabel(credit.Divergence{Code: "99", Name: "Cat 99"}); got != "" {
		t.Errorf("a category without rows: %q", got)
	}
}
