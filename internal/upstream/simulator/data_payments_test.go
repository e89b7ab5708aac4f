package simulator

import (
	"fmt"
	"math"
	"testing"
)

// genErrs stops a consistency test from printing thousands of lines when a
// rule breaks everywhere.
type genErrs struct {
	t *testing.T
	n int
}

func (e *genErrs) Errorf(format string, args ...any) {
	e.t.Helper()
	if e.n++; e.n <= 15 {
		e.t.Errorf(format, args...)
	}
}

// genAmounts returns a row's bucket amounts in DBT-formula order.
func genAmounts(p *PaymentRow) [6]int64 {
	return [6]int64{p.CurrentAmount, p.PastDue30Days, p.PastDue60Days, p.PastDue90Days, p.PastDueOver90Days, p.OtherAmount}
}

// genCheckRow checks the arithmetic of one payment row: buckets add up to
// the total due, percents add up to 100 and match the amounts, and the DBT
// index is the bucket formula rounded.
func genCheckRow(e *genErrs, where string, p *PaymentRow) {
	amt := genAmounts(p)
	var sum int64
	for _, a := range amt {
		if a < 0 {
			e.Errorf("%s: negative amount in %v", where, amt)
		}
		sum += a
	}
	if sum != p.TotalDue {
		e.Errorf("%s: buckets add up to %d, TotalDue = %d", where, sum, p.TotalDue)
	}
	pcts := []float64{p.CurrentAmountPercent, p.PastDue30DaysPercent, p.PastDue60DaysPercent,
		p.PastDue90DaysPercent, p.PastDueOver90DaysPercent, p.OtherAmountPercent}
	total := 0.0
	for i, x := range pcts {
		total += x
		if want := float64(amt[i]) / float64(p.TotalDue) * 100; math.Abs(x-want) > 0.006 {
			e.Errorf("%s: percent %d = %v, amounts say %.4f", where, i, x, want)
		}
	}
	if math.Abs(total-100) > 0.1 {
		e.Errorf("%s: percents add up to %v, want 100", where, total)
	}
	if p.DBTIndex == nil || p.AverageDBTIndex == nil {
		e.Errorf("%s: DBTIndex or AverageDBTIndex missing", where)
		return
	}
	exact := (15*float64(amt[1]) + 45*float64(amt[2]) + 75*float64(amt[3]) + 105*float64(amt[4])) / float64(p.TotalDue)
	if math.Abs(float64(*p.DBTIndex)-exact) > 0.51 {
		e.Errorf("%s: DBTIndex = %d, bucket formula gives %.3f", where, *p.DBTIndex, exact)
	}
	if a := *p.AverageDBTIndex; a < 4 || a > 10 {
		e.Errorf("%s: AverageDBTIndex = %d, want 4-10", where, a)
	}
}

func TestDataPaymentsMonthly(t *testing.T) {
	for _, d := range genTestDatasets(t) {
		e := &genErrs{t: t}
		asOf, _ := genParseMonth(d.AsOf)
		for i := range d.Businesses {
			b := &d.Businesses[i]
			rows := b.PaymentsMonthly
			if n := len(rows); n < 12 || n > 24 {
				e.Errorf("business %d: %d payment months, want 12-24", b.ID, n)
			}
			dbtByMonth := map[string]*int{}
			for _, s := range b.Scores {
				dbtByMonth[genMonth(s.Year*12+s.Month-1).String()] = s.DBT
			}
			for k := range rows {
				p := &rows[k]
				where := fmt.Sprintf("business %d %s", b.ID, p.MonthReported)
				if want := (asOf - genMonth(k)).String(); p.MonthReported != want {
					e.Errorf("%s: row %d month, want %s (newest first, no gaps)", where, k, want)
				}
				if p.CategoryName != genAllCategories {
					e.Errorf("%s: CategoryName %q, want %q", where, p.CategoryName, genAllCategories)
				}
				lo := 5
				if b.Story == StoryThinTradeFile {
					lo = 3
				}
				if p.Accounts < lo || p.Accounts > 400 {
					e.Errorf("%s: %d accounts, want %d-400", where, p.Accounts, lo)
				}
				if p.TotalDue < 20e3 || p.TotalDue > 50e6 {
					e.Errorf("%s: TotalDue %d outside $20k-$50M", where, p.TotalDue)
				}
				genCheckRow(e, where, p)
				if s := dbtByMonth[p.MonthReported]; s == nil || p.DBTIndex == nil || *s != *p.DBTIndex {
					e.Errorf("%s: DBTIndex %v differs from the DBT score %v of the month", where, p.DBTIndex, s)
				}
			}
		}
	}
}

func TestDataPaymentsSIC(t *testing.T) {
	for _, d := range genTestDatasets(t) {
		e := &genErrs{t: t}
		for i := range d.Businesses {
			b := &d.Businesses[i]
			if len(b.PaymentsMonthly) == 0 || len(b.PaymentsSIC)%len(b.PaymentsMonthly) != 0 {
				e.Errorf("business %d: %d SIC rows for %d months", b.ID, len(b.PaymentsSIC), len(b.PaymentsMonthly))
				continue
			}
			k := len(b.PaymentsSIC) / len(b.PaymentsMonthly)
			if k < 3 || k > 8 {
				e.Errorf("business %d: %d supplier categories, want 3-8", b.ID, k)
			}
			dbts := map[int]bool{}
			for m := range b.PaymentsMonthly {
				all := &b.PaymentsMonthly[m]
				cats := b.PaymentsSIC[m*k : (m+1)*k]
				var sum [6]int64
				var accounts int
				var credit int64
				for c := range cats {
					p := &cats[c]
					where := fmt.Sprintf("business %d %s SIC %s", b.ID, p.MonthReported, p.CategoryCode)
					if p.MonthReported != all.MonthReported {
						e.Errorf("%s: in the block of month %s", where, all.MonthReported)
					}
					if c > 0 && cats[c-1].CategoryCode >= p.CategoryCode {
						e.Errorf("%s: categories not in code order", where)
					}
					if idx := genSICIndex(p.CategoryCode); idx < 0 || genSICs[idx].name != p.CategoryName {
						e.Errorf("%s: %q is not a known SIC major group", where, p.CategoryName)
					}
					if cats[c].CategoryCode != b.PaymentsSIC[c].CategoryCode {
						e.Errorf("%s: categories change from month to month", where)
					}
					genCheckRow(e, where, p)
					if p.Accounts < 1 {
						e.Errorf("%s: %d accounts", where, p.Accounts)
					}
					if p.DBTIndex != nil {
						dbts[*p.DBTIndex] = true
					}
					a := genAmounts(p)
					for x := range sum {
						sum[x] += a[x]
					}
					accounts += p.Accounts
					credit += p.CreditBalance
				}
				if sum != genAmounts(all) || accounts != all.Accounts || credit != all.CreditBalance {
					e.Errorf("business %d %s: categories add up to %v, %d accounts, credit %d; month has %v, %d, %d",
						b.ID, all.MonthReported, sum, accounts, credit, genAmounts(all), all.Accounts, all.CreditBalance)
				}
			}
			if len(dbts) < 2 && b.Story != StoryThinTradeFile {
				e.Errorf("business %d: every category has the same DBT; each should have its own", b.ID)
			}
		}
	}
}
