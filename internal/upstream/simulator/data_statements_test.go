package simulator

import (
	"fmt"
	"math"
	"strings"
	"testing"
	"time"
)

// genValue returns a statement value, or NaN when absent.
func genValue(s *Statement, key string) float64 {
	if p, ok := s.Values[key]; ok && p.Value != nil {
		return *p.Value
	}
	return math.NaN()
}

func TestDataStatements(t *testing.T) {
	for _, d := range genTestDatasets(t) {
		e := &genErrs{t: t}
		asOf, _ := genParseMonth(d.AsOf)
		for i := range d.Businesses {
			b := &d.Businesses[i]
			n := len(b.Statements)
			switch {
			case b.Public && (n < 3 || n > 5):
				e.Errorf("business %d: public with %d fiscal years, want 3-5", b.ID, n)
			case !b.Public && n != 0 && n != 3:
				e.Errorf("business %d: private with %d fiscal years, want none or 3", b.ID, n)
			}
			for k := range b.Statements {
				s := &b.Statements[k]
				where := fmt.Sprintf("business %d FY%d", b.ID, s.FiscalYear)
				if k > 0 && s.FiscalYear != b.Statements[k-1].FiscalYear-1 {
					e.Errorf("%s: follows FY%d; want newest first, one a year", where, b.Statements[k-1].FiscalYear)
				}
				end, err := time.Parse(LayoutDateTime, s.PeriodEndDate)
				if err != nil || end.Year() != s.FiscalYear || genMonthOf(end)+3 > asOf {
					e.Errorf("%s: period end %q (err %v) not in the fiscal year or not filed 3 months before %s", where, s.PeriodEndDate, err, d.AsOf)
				}
				if p := s.Values[KeyPeriodEndDate]; p.Text != s.PeriodEndDate || p.Value != nil {
					e.Errorf("%s: PeriodEndDate data point %+v", where, p)
				}
				if genValue(s, KeyFiscalYear) != float64(s.FiscalYear) {
					e.Errorf("%s: FiscalYear data point %v", where, genValue(s, KeyFiscalYear))
				}
				for _, key := range StatementKeys() {
					p, ok := s.Values[key]
					if !ok || p.Label == "" {
						e.Errorf("%s: key %s missing or unlabelled", where, key)
					}
					if p.Value == nil && key != KeyPeriodEndDate && key != KeyCashAndEquivalents {
						e.Errorf("%s: %s has no value", where, key)
					}
				}
				genCheckFigures(e, where, s)
			}
		}
	}
}

// genCheckFigures checks one year's ranges (DEMO-DATA "Statements") and
// accounting identities.
func genCheckFigures(e *genErrs, where string, s *Statement) {
	v := func(k string) float64 { return genValue(s, k) }
	sales, ta, tl := v(KeySales), v(KeyTotalAssets), v(KeyTotalLiabilities)
	ca, cl := v(KeyCurrentAssets), v(KeyCurrentLiabilities)
	if sales < 50e6 || sales > 50e9 {
		e.Errorf("%s: sales %.0f outside $50M-$50B", where, sales)
	}
	if cr := ca / cl; cr < 0.8 || cr > 2.5 {
		e.Errorf("%s: current ratio %.3f outside 0.8-2.5", where, cr)
	}
	if lev := tl / ta; lev < 0.3 || lev > 0.9 {
		e.Errorf("%s: liabilities/assets %.3f outside 0.3-0.9", where, lev)
	}
	if m := v(KeyEBIT) / sales; m < -0.05 || m > 0.25 {
		e.Errorf("%s: EBIT margin %.3f outside -5%%..25%%", where, m)
	}
	if v(KeyGrossProfit) != sales-v(KeyCostOfSales) || v(KeyGrossProfit) < v(KeyEBIT) {
		e.Errorf("%s: gross profit %.0f is not sales less cost of sales, or below EBIT", where, v(KeyGrossProfit))
	}
	if v(KeyWorkingCapital) != ca-cl || v(KeyShareholdersEquity) != ta-tl {
		e.Errorf("%s: working capital or equity does not follow from the balance sheet", where)
	}
	if c := v(KeyCashAndEquivalents); !math.IsNaN(c) && (c < 0 || c > ca) {
		e.Errorf("%s: cash %.0f outside 0..current assets", where, c)
	}
}

// TestDataZMatchesStatements checks the Z/statement rule: the Z-Score of
// the calendar quarter holding a fiscal year's period end is the Z″ of that
// year's statements (6.56·WC/TA + 3.26·RE/TA + 6.72·EBIT/TA + 1.05·Equity/TL)
// rounded to two decimals.
func TestDataZMatchesStatements(t *testing.T) {
	for _, d := range genTestDatasets(t) {
		e := &genErrs{t: t}
		checked := 0
		for i := range d.Businesses {
			b := &d.Businesses[i]
			if !b.Public {
				continue
			}
			for k := range b.Statements {
				s := &b.Statements[k]
				end, _ := time.Parse(LayoutDateTime, s.PeriodEndDate)
				v := func(k string) float64 { return genValue(s, k) }
				ta := v(KeyTotalAssets)
				want := 6.56*v(KeyWorkingCapital)/ta + 3.26*v(KeyRetainedEarnings)/ta +
					6.72*v(KeyEBIT)/ta + 1.05*v(KeyShareholdersEquity)/v(KeyTotalLiabilities)
				for _, sc := range b.Scores {
					if genMonth(sc.Year*12+sc.Month-1).quarter() != genMonthOf(end).quarter() || sc.Z == nil {
						continue
					}
					checked++
					if math.Abs(*sc.Z-want) > 0.0051 {
						e.Errorf("business %d %d-%02d: Z %.2f, statements of FY%d give %.4f", b.ID, sc.Year, sc.Month, *sc.Z, s.FiscalYear, want)
					}
				}
			}
		}
		if checked < 500 {
			t.Errorf("seed %d: only %d Z-Scores could be checked against statements", d.Seed, checked)
		}
	}
}

// TestDataCommentsAgree checks that the analyst's note says what the
// numbers say: revenue direction, margin direction, profit or loss, the
// current ratio and its change, the latest DBT and its change over the year.
func TestDataCommentsAgree(t *testing.T) {
	for _, d := range genTestDatasets(t) {
		e := &genErrs{t: t}
		for i := range d.Businesses {
			b := &d.Businesses[i]
			text := b.FinancialComments
			dbt := *b.PaymentsMonthly[0].DBTIndex
			if !strings.Contains(text, fmt.Sprintf("on average %d days beyond terms", dbt)) {
				e.Errorf("business %d: note does not give the latest DBT %d: %q", b.ID, dbt, text)
			}
			then := *b.Scores[len(b.Scores)-13].DBT
			trend := fmt.Sprintf("Payments are about as timely as a year earlier (%d days beyond terms).", then)
			switch {
			case dbt <= then-3:
				trend = fmt.Sprintf("Payments have improved from %d days beyond terms a year earlier.", then)
			case dbt >= then+3:
				trend = fmt.Sprintf("Payments have slowed from %d days beyond terms a year earlier.", then)
			}
			if !strings.Contains(text, trend) {
				e.Errorf("business %d: DBT %d now and %d a year earlier, but the note lacks %q: %q", b.ID, dbt, then, trend, text)
			}
			if len(b.Statements) < 2 {
				if !strings.Contains(text, "No financial statements") {
					e.Errorf("business %d: no statements, but the note does not say so: %q", b.ID, text)
				}
				continue
			}
			cur, prev := &b.Statements[0], &b.Statements[1]
			g := math.Round((genValue(cur, KeySales)/genValue(prev, KeySales)-1)*1000) / 10
			m0 := math.Round(genValue(cur, KeyEBIT)/genValue(cur, KeySales)*1000) / 10
			m1 := math.Round(genValue(prev, KeyEBIT)/genValue(prev, KeySales)*1000) / 10
			cr0 := genValue(cur, KeyCurrentAssets) / genValue(cur, KeyCurrentLiabilities)
			cr1 := genValue(prev, KeyCurrentAssets) / genValue(prev, KeyCurrentLiabilities)
			liquidity := fmt.Sprintf("current ratio of %.2f and", cr0)
			switch d := math.Round(cr0*100) - math.Round(cr1*100); {
			case d <= -10:
				liquidity = fmt.Sprintf("weakening, with a current ratio of %.2f, down from %.2f", cr0, cr1)
			case d >= 10:
				liquidity = fmt.Sprintf("improving, with a current ratio of %.2f, up from %.2f", cr0, cr1)
			}
			want := []string{
				map[bool]string{true: "Revenue rose", false: "Revenue fell"}[g > 0],
				liquidity,
				map[bool]string{true: "net loss", false: "net income"}[genValue(cur, KeyNetIncome) < 0],
			}
			if g == 0 {
				want[0] = "Revenue was flat"
			}
			switch {
			case m0 > m1:
				want = append(want, "margin improved")
			case m0 < m1:
				want = append(want, "margin slipped")
			default:
				want = append(want, "margin held")
			}
			for _, w := range want {
				if !strings.Contains(text, w) {
					e.Errorf("business %d: note lacks %q: %q", b.ID, w, text)
				}
			}
		}
	}
}
