package views

import (
	"cmp"
	"slices"

	"creditdash/internal/upstream"
)

// AgingColumns names the aging buckets of a payment row, in table order.
var AgingColumns = [...]string{"Current", "1–30 days", "31–60 days", "61–90 days", "91+ days", "Other", "Credit balance"}

// AgingRow is one month of trade-payment aging (overall or for one SIC
// category), formatted for the table.
type AgingRow struct {
	Month string
	// Category is "73 Business Services" on SIC rows, "" on monthly rows.
	Category string
	Accounts string
	TotalDue string
	// Buckets follow AgingColumns.
	Buckets [len(AgingColumns)]AmountCell
	// DBT is the days-beyond-terms index, "missing" when absent.
	DBT     string
	DBTZone Zone
	// IndustryDBT is the industry's average DBT index.
	IndustryDBT string
}

// AmountCell is an amount with its share of the total due.
type AmountCell struct {
	Amount  string
	Percent string
}

// AgingRows formats the monthly aging table, newest month first.
func AgingRows(rows []upstream.PaymentSummaryRow) []AgingRow {
	rows = sortedPayments(rows, false)
	out := make([]AgingRow, 0, len(rows))
	for _, r := range rows {
		out = append(out, agingRow(r))
	}
	return out
}

func agingRow(r upstream.PaymentSummaryRow) AgingRow {
	a := AgingRow{
		Month:       paymentMonth(r),
		Category:    categoryLabel(r),
		Accounts:    Int(int64(r.Accounts)),
		TotalDue:    Money(r.TotalDue),
		DBT:         "missing",
		IndustryDBT: Dash,
	}
	amounts := [...]int64{r.CurrentAmount, r.PastDue30Days, r.PastDue60Days, r.PastDue90Days, r.PastDueOver90Days, r.OtherAmount, r.CreditBalance}
	percents := [...]float64{r.CurrentAmountPercent, r.PastDue30DaysPercent, r.PastDue60DaysPercent, r.PastDue90DaysPercent, r.PastDueOver90DaysPercent, r.OtherAmountPercent}
	for i, amt := range amounts {
		a.Buckets[i].Amount = Money(amt)
		switch {
		case i < len(percents):
			a.Buckets[i].Percent = Percent(percents[i])
		case r.TotalDue > 0:
			// The service gives no percent for credit balances; it is
			// shown against the total due like the other buckets.
			a.Buckets[i].Percent = Percent(float64(amt) / float64(r.TotalDue) * 100)
		default:
			a.Buckets[i].Percent = Dash
		}
	}
	if r.DBTIndex.OK {
		a.DBT = Int(int64(r.DBTIndex.V))
		a.DBTZone = DBTZone(r.DBTIndex.V)
	}
	if r.AverageDBTIndex.OK {
		a.IndustryDBT = Int(int64(r.AverageDBTIndex.V))
	}
	return a
}

// SICLatest returns the month of the newest SIC rows and those rows, the
// largest amounts owed first.
func SICLatest(rows []upstream.PaymentSummaryRow) (month string, out []AgingRow) {
	rows = sortedPayments(rows, false)
	if len(rows) == 0 {
		return "", nil
	}
	latest := rows[0].MonthReported
	var same []upstream.PaymentSummaryRow
	for _, r := range rows {
		if r.MonthReported == latest {
			same = append(same, r)
		}
	}
	slices.SortStableFunc(same, func(a, b upstream.PaymentSummaryRow) int {
		if c := cmp.Compare(b.TotalDue, a.TotalDue); c != 0 {
			return c
		}
		return cmp.Compare(categoryLabel(a), categoryLabel(b))
	})
	for _, r := range same {
		out = append(out, agingRow(r))
	}
	return paymentMonth(rows[0]), out
}

// sortedPayments orders rows by month (newest first unless oldestFirst);
// rows whose month cannot be read go last, in the order they came. Rows
// already in that order (as the service sends them) are returned as they
// are, not copied: like every view, callers only read them.
func sortedPayments(rows []upstream.PaymentSummaryRow, oldestFirst bool) []upstream.PaymentSummaryRow {
	order := func(a, b upstream.PaymentSummaryRow) int {
		ta, oka := a.Month()
		tb, okb := b.Month()
		switch {
		case !oka || !okb:
			return cmp.Compare(boolRank(!oka), boolRank(!okb))
		case oldestFirst:
			return ta.Compare(tb)
		default:
			return tb.Compare(ta)
		}
	}
	if slices.IsSortedFunc(rows, order) {
		return rows
	}
	rows = slices.Clone(rows)
	slices.SortStableFunc(rows, order)
	return rows
}

// boolRank orders false before true.
func boolRank(b bool) int {
	if b {
		return 1
	}
	return 0
}

// paymentMonth is "Oct 2026", or the service's own text when it cannot be read.
func paymentMonth(r upstream.PaymentSummaryRow) string {
	if t, ok := r.Month(); ok {
		return MonthOf(t)
	}
	if r.MonthReported == "" {
		return Dash
	}
	return r.MonthReported
}

// paymentMonthIndex is the row's month for chart axes; ok is false when unreadable.
func paymentMonthIndex(r upstream.PaymentSummaryRow) (monthIndex, bool) {
	t, ok := r.Month()
	if !ok {
		return 0, false
	}
	return monthIndexOf(t.Year(), int(t.Month())), true
}

// categoryLabel is "73 Business Services", or the name alone without a code.
func categoryLabel(r upstream.PaymentSummaryRow) string {
	return categoryName(r.CategoryCode, r.CategoryName)
}

// categoryName is "73 Business Services" from a code and a name, either
// of which may be blank.
func categoryName(code, name string) string {
	if code == "" {
		return name
	}
	if name == "" {
		return code
	}
	return code + " " + name
}
