package views

import (
	"math"
	"slices"
	"time"

	"creditdash/internal/upstream"
)

// zTerms are the four-ratio Z″ weights (shared/DEMO-DATA.md):
// Z″ = 6.56·WC/TA + 3.26·RE/TA + 6.72·EBIT/TA + 1.05·Equity/TL.
var zTerms = [...]struct {
	label, num, den string
	weight          float64
}{
	{"Working capital / total assets", "WorkingCapital", "TotalAssets", 6.56},
	{"Retained earnings / total assets", "RetainedEarnings", "TotalAssets", 3.26},
	{"EBIT / total assets", "EBIT", "TotalAssets", 6.72},
	{"Shareholders' equity / total liabilities", "ShareholdersEquity", "TotalLiabilities", 1.05},
}

// zTolerance is how far the sum of the terms may sit from the service's
// two-decimal Z″ and still be the same number rounded (half a hundredth,
// with room for float noise).
const zTolerance = 0.0051

// ZExplanation shows how each fiscal year's Z″ is reached from its
// statements, beside the Z″ the service reports for the year-end month.
type ZExplanation struct {
	Years []ZYear
	// Overview is one line on the overview's Z″ (see Reconcile).
	Overview string
}

// ZYear is one fiscal year's Z″ worked out.
type ZYear struct {
	// Year is "FY 2025"; End the period end month ("Dec 2025").
	Year, End string
	Terms     []ZTerm
	// Computed is the sum of the terms ("2.34"), "" when inputs are missing.
	Computed string
	// Missing names the statement values the sum needs but lacks; Zero the
	// ones it would divide by that are zero, each once.
	Missing, Zero []string
	// Service is the service's Z″ for the year-end month, or a reason it
	// has none.
	Service string
	// Verdict says whether both agree: "agrees", "differs by 0.12" or "".
	Verdict string
	// Differs marks a difference beyond rounding, shown, never hidden.
	Differs bool
	// raw is the unrounded sum, kept for tests.
	raw float64
}

// ZTerm is one ratio times its weight.
type ZTerm struct {
	Label, Inputs, Ratio, Weight, Product string
}

// ExplainZ works out Z″ for every fiscal year of the statements and sets it
// beside the service's Z″ of the year-end month from the score history.
func ExplainZ(stmts []upstream.AnnualFinancials, hist []upstream.CreditScoreHistoryRow) ZExplanation {
	zs := map[monthIndex]upstream.Num[float64]{}
	for _, r := range hist {
		zs[monthIndexOf(r.Year, r.Month)] = r.ZScore
	}
	var out ZExplanation
	for i, s := range stmts {
		y := ZYear{Year: fiscalYearLabel(s, i), End: Dash}
		end, endOK := periodEnd(s)
		if endOK {
			y.End = end.String()
		}
		sum, complete := 0.0, true
		for _, t := range zTerms {
			num, okN := statementNumber(s, t.num)
			den, okD := statementNumber(s, t.den)
			term := ZTerm{Label: t.label, Weight: Decimal(t.weight, 2), Inputs: Dash, Ratio: Dash, Product: Dash}
			switch {
			case !okN || !okD:
				complete = false
				for _, in := range [...]struct {
					key string
					ok  bool
				}{{t.num, okN}, {t.den, okD}} {
					if !in.ok && !slices.Contains(y.Missing, in.key) {
						y.Missing = append(y.Missing, in.key)
					}
				}
			case den == 0:
				complete = false
				if !slices.Contains(y.Zero, t.den) {
					y.Zero = append(y.Zero, t.den)
				}
			default:
				r := num / den
				term.Inputs = CompactMoney(num) + " / " + CompactMoney(den)
				term.Ratio = Decimal(r, 4)
				term.Product = Decimal(t.weight*r, 4)
				sum += t.weight * r
			}
			y.Terms = append(y.Terms, term)
		}
		if complete {
			y.raw = sum
			y.Computed = Decimal(sum, 2)
		}
		switch z, ok := zs[end]; {
		case !endOK:
			y.Service = "no period end date"
		case !ok:
			y.Service = "outside the score history loaded (the last 24 months)"
		case !z.OK || math.IsNaN(z.V):
			y.Service = "not reported for " + end.String()
		default:
			y.Service = Decimal(z.V, 2)
			if complete {
				if d := sum - z.V; math.Abs(d) <= zTolerance {
					y.Verdict = "agrees (same to two decimals)"
				} else {
					y.Verdict, y.Differs = "differs by "+Signed(d, 2)+" — beyond rounding", true
				}
			}
		}
		out.Years = append(out.Years, y)
	}
	return out
}

// statementNumber is one value of a year's statements; WorkingCapital and
// ShareholdersEquity fall back on their identities when only their parts
// are sent.
func statementNumber(s upstream.AnnualFinancials, key string) (float64, bool) {
	if dp, ok := s.Values[key]; ok && dp.Value.OK && !math.IsNaN(dp.Value.V) && !math.IsInf(dp.Value.V, 0) {
		return dp.Value.V, true
	}
	var a, b string
	switch key {
	case "WorkingCapital":
		a, b = "CurrentAssets", "CurrentLiabilities"
	case "ShareholdersEquity":
		a, b = "TotalAssets", "TotalLiabilities"
	default:
		return 0, false
	}
	x, okA := statementNumber(s, a)
	y, okB := statementNumber(s, b)
	return x - y, okA && okB
}

// periodEnd is the month of the year's period end date.
func periodEnd(s upstream.AnnualFinancials) (monthIndex, bool) {
	dp, ok := s.Values[keyPeriodEndDate]
	if !ok || dp.Text == "" {
		return 0, false
	}
	for _, layout := range []string{"2006-01-02T15:04:05", "2006-01-02"} {
		if t, err := time.Parse(layout, dp.Text); err == nil {
			return monthOfTime(t), true
		}
	}
	return 0, false
}

// bucketDays are the days each past-due bucket stands for in the DBT
// formula: the middle of 1–30, 31–60, 61–90, and 105 for 91+.
var bucketDays = [...]struct {
	label string
	days  float64
}{{"1–30 days", 15}, {"31–60 days", 45}, {"61–90 days", 75}, {"91+ days", 105}}

// DBTExplanation shows how the latest month's DBT follows from its aging
// buckets, and the industry figure beside it.
type DBTExplanation struct {
	// Month is "Oct 2026"; empty when there are no payments.
	Month    string
	TotalDue string
	Buckets  []DBTBucket
	// Computed is the weighted days ("12.4"); Service the reported DBT.
	Computed, Service, Industry string
	Verdict                     string
	Differs                     bool
	raw                         float64
}

// DBTBucket is one past-due bucket: its amount, share of the total due,
// the days it stands for and the days it adds.
type DBTBucket struct {
	Label, Amount, Share, Days, Weighted string
}

// dbtTolerance allows the service's whole-day rounding (half a day) and
// the rounding of each bucket to whole dollars.
const dbtTolerance = 0.6

// ExplainDBT works out the newest month's DBT from its buckets:
// DBT ≈ (1–30 × 15 + 31–60 × 45 + 61–90 × 75 + 91+ × 105) / total due.
func ExplainDBT(rows []upstream.PaymentSummaryRow) DBTExplanation {
	rows = sortedPayments(rows, false)
	var e DBTExplanation
	if len(rows) == 0 {
		return e
	}
	r := rows[0]
	// Nothing due, nothing to weigh: the sum is a dash, as each share is.
	e.Month, e.TotalDue, e.Service, e.Industry, e.Computed = paymentMonth(r), Money(r.TotalDue), "not reported", Dash, Dash
	amounts := [...]int64{r.PastDue30Days, r.PastDue60Days, r.PastDue90Days, r.PastDueOver90Days}
	for i, b := range bucketDays {
		row := DBTBucket{Label: b.label, Amount: Money(amounts[i]), Days: Decimal(b.days, 0), Share: Dash, Weighted: Dash}
		if r.TotalDue > 0 {
			share := float64(amounts[i]) / float64(r.TotalDue)
			row.Share = Percent(share * 100)
			row.Weighted = Decimal(share*b.days, 2)
			e.raw += share * b.days
		}
		e.Buckets = append(e.Buckets, row)
	}
	if r.TotalDue > 0 {
		e.Computed = Decimal(e.raw, 2)
	}
	if r.AverageDBTIndex.OK {
		e.Industry = Int(int64(r.AverageDBTIndex.V))
	}
	if r.DBTIndex.OK {
		e.Service = Int(int64(r.DBTIndex.V))
		if r.TotalDue > 0 {
			if d := e.raw - float64(r.DBTIndex.V); math.Abs(d) <= dbtTolerance {
				e.Verdict = "agrees (the service rounds to whole days)"
			} else {
				e.Verdict, e.Differs = "differs by "+Signed(d, 1)+" days — beyond rounding", true
			}
		}
	}
	return e
}
