package simulator

import (
	"math"
	"slices"
	"time"
)

// peerRatio is one ratio of PeerAnalysis: numerator over denominator, both
// statement keys. The denominator must be positive: a ratio over negative
// equity or no sales would rank a failing business first.
type peerRatio struct {
	name        string
	num, den    string
	lowerBetter bool
}

// peerRatios are CONTRACT-CHOICES "Peer analysis" ratios, in answer order.
var peerRatios = [...]peerRatio{
	{"CurrentRatio", KeyCurrentAssets, KeyCurrentLiabilities, false},
	{"CashRatio", KeyCashAndEquivalents, KeyCurrentLiabilities, false},
	{"WorkingCapitalToAssets", KeyWorkingCapital, KeyTotalAssets, false},
	{"LiabilitiesToAssets", KeyTotalLiabilities, KeyTotalAssets, true},
	{"DebtToEquity", KeyTotalLiabilities, KeyShareholdersEquity, true},
	{"GrossMargin", KeyGrossProfit, KeySales, false},
	{"EBITMargin", KeyEBIT, KeySales, false},
	{"NetMargin", KeyNetIncome, KeySales, false},
	{"ReturnOnAssets", KeyNetIncome, KeyTotalAssets, false},
	{"ReturnOnEquity", KeyNetIncome, KeyShareholdersEquity, false},
	{"AssetTurnover", KeySales, KeyTotalAssets, false},
	{"RetainedEarningsToAssets", KeyRetainedEarnings, KeyTotalAssets, false},
}

// value computes the ratio from one statement, rounded to four decimals so
// that ranks and the median are taken on the numbers the answer shows.
func (p *peerRatio) value(st *Statement) (float64, bool) {
	num, ok1 := st.Values[p.num]
	den, ok2 := st.Values[p.den]
	if !ok1 || !ok2 || num.Value == nil || den.Value == nil || *den.Value <= 0 {
		return 0, false
	}
	return math.Round(*num.Value / *den.Value * 1e4) / 1e4, true
}

// visibleRatios are the ratios whose inputs the access model shows.
func visibleRatios(access string) []*peerRatio {
	var allowed map[string]bool
	if access == AccessAPIOnly {
		allowed = map[string]bool{}
		for _, k := range APIOnlyKeys() {
			allowed[k] = true
		}
	}
	var out []*peerRatio
	for i := range peerRatios {
		p := &peerRatios[i]
		if allowed == nil || (allowed[p.num] && allowed[p.den]) {
			out = append(out, p)
		}
	}
	return out
}

// stats ranks own among values (own included when present): Count, Min,
// Median, Max, and Rank 1 for the best in the ratio's good direction, ties
// sharing the better rank.
func (p *peerRatio) stats(own *float64, values []float64) wirePeerRatio {
	out := wirePeerRatio{Ratio: p.name, Value: own, Count: len(values)}
	if len(values) == 0 {
		return out
	}
	v := slices.Sorted(slices.Values(values))
	n := len(v)
	lo, hi := v[0], v[n-1]
	med := v[n/2]
	if n%2 == 0 {
		med = math.Round((v[n/2-1]+v[n/2])/2*1e4) / 1e4
	}
	out.Min, out.Max, out.Median = &lo, &hi, &med
	if own != nil {
		rank := 1
		for _, x := range v {
			if (p.lowerBetter && x < *own) || (!p.lowerBetter && x > *own) {
				rank++
			}
		}
		out.Rank = &rank
	}
	return out
}

// periodEnd is the month a statement's period ends in: from PeriodEndDate,
// or December of FiscalYear when a hand-made dataset gives no date.
func periodEnd(st *Statement) month {
	if len(st.PeriodEndDate) >= 7 {
		if t, err := time.Parse("2006-01", st.PeriodEndDate[:7]); err == nil {
			return monthOfTime(t)
		}
	}
	return monthOf(st.FiscalYear, 12)
}

// statementAt is the statement of the peer period ending with month end:
// the latest whose period ended in the twelve months up to it. With the
// default quarter 4 that is the fiscal year ending in that calendar year,
// the column the Financials tab shows for it.
func statementAt(b *Business, end month) *Statement {
	var best *Statement
	for i := range b.Statements {
		st := &b.Statements[i]
		if m := periodEnd(st); m <= end && m > end-12 && (best == nil || m > periodEnd(best)) {
			best = st
		}
	}
	return best
}

// latestYear is the calendar year of the business's newest period end; 0
// without statements.
func latestYear(b *Business) int {
	y := 0
	for i := range b.Statements {
		y = max(y, periodEnd(&b.Statements[i]).year())
	}
	return y
}

// peerScores are a business's latest scores as the export shows them, for
// the filters; Z is in hundredths so that every filter compares integers.
type peerScores struct {
	risk, pay, dbt, z100 *int
}

func scoresOf(b *Business) peerScores {
	risk, pay, dbt, z := latestScores(b.Scores)
	out := peerScores{risk: risk, pay: pay, dbt: dbt}
	if z != nil {
		z100 := int(math.Round(*z * 100))
		out.z100 = &z100
	}
	return out
}

// quarterEnd is the last month of quarter q of year.
func quarterEnd(year, q int) month { return monthOf(year, 3*q) }
