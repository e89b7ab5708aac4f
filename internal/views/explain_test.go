package views

import (
	"maps"
	"math"
	"slices"
	"strings"
	"testing"
	"time"

	"creditdash/internal/upstream"
	"creditdash/internal/upstream/simulator"
)

var demoAsOf = time.Date(2026, time.October, 1, 0, 0, 0, 0, time.UTC)

// demoBusiness converts a generated business into what the client would
// hand the views: same fields, the client's types.
func demoBusiness(t *testing.T, id int32) ([]upstream.AnnualFinancials, []upstream.CreditScoreHistoryRow, []upstream.PaymentSummaryRow) {
	t.Helper()
	b := simulator.GenerateBusiness(1, demoAsOf, id)
	var stmts []upstream.AnnualFinancials
	for _, s := range b.Statements {
		v := map[string]upstream.DataPoint{}
		for k, dp := range s.Values {
			v[k] = upstream.DataPoint{Label: dp.Label, Value: num(dp.Value), Text: dp.Text}
		}
		stmts = append(stmts, upstream.AnnualFinancials{Values: v})
	}
	var hist []upstream.CreditScoreHistoryRow
	for _, m := range b.Scores {
		hist = append(hist, upstream.CreditScoreHistoryRow{Year: m.Year, Month: m.Month, RiskScore: num(m.Risk),
			PayScore: num(m.Pay), DBTScore: num(m.DBT), ZScore: num(m.Z)})
	}
	var pays []upstream.PaymentSummaryRow
	for _, r := range b.PaymentsMonthly {
		pays = append(pays, upstream.PaymentSummaryRow{CategoryName: r.CategoryName, CategoryCode: r.CategoryCode,
			MonthReported: r.MonthReported, Accounts: r.Accounts, DBTIndex: num(r.DBTIndex), AverageDBTIndex: num(r.AverageDBTIndex),
			TotalDue: r.TotalDue, CurrentAmount: r.CurrentAmount, PastDue30Days: r.PastDue30Days, PastDue60Days: r.PastDue60Days,
			PastDue90Days: r.PastDue90Days, PastDueOver90Days: r.PastDueOver90Days, OtherAmount: r.OtherAmount, CreditBalance: r.CreditBalance,
			CurrentAmountPercent: r.CurrentAmountPercent, PastDue30DaysPercent: r.PastDue30DaysPercent, PastDue60DaysPercent: r.PastDue60DaysPercent,
			PastDue90DaysPercent: r.PastDue90DaysPercent, PastDueOver90DaysPercent: r.PastDueOver90DaysPercent, OtherAmountPercent: r.OtherAmountPercent})
	}
	return stmts, hist, pays
}

// num is the stand-in's optional number as the client decodes it.
func num[T int | float64](p *T) upstream.Num[T] {
	if p == nil {
		return upstream.Num[T]{}
	}
	return upstream.Some(*p)
}

// The four terms of every scenario business's fiscal years sum to the Z″
// the service reports for the year-end month (when its history reaches
// back that far), to two decimals.
func TestExplainZAgreesWithDemoData(t *testing.T) {
	for _, id := range []int32{1001, 1002, 1004, 1006} {
		stmts, hist, _ := demoBusiness(t, id)
		if len(stmts) == 0 {
			t.Fatalf("%d: no statements in the demo data", id)
		}
		e := ExplainZ(stmts, hist)
		compared := 0
		for _, y := range e.Years {
			if len(y.Terms) != 4 || y.Computed == "" {
				t.Errorf("%d %s: terms %d, computed %q, missing %v", id, y.Year, len(y.Terms), y.Computed, y.Missing)
				continue
			}
			if y.Differs {
				t.Errorf("%d %s: computed %s, service %s: %s", id, y.Year, y.Computed, y.Service, y.Verdict)
			}
			if y.Verdict != "" {
				compared++
			}
		}
		if compared == 0 && id != 1006 {
			t.Errorf("%d: no fiscal year compared with the service's Z″: %+v", id, e.Years)
		}
	}
}

func TestExplainZArithmetic(t *testing.T) {
	f := func(v float64) upstream.DataPoint { return upstream.DataPoint{Value: upstream.Some(v)} }
	z := func(v float64) upstream.Num[float64] { return upstream.Some(v) }
	stmt := upstream.AnnualFinancials{Values: map[string]upstream.DataPoint{
		"FiscalYear":    f(2025),
		"PeriodEndDate": {Text: "2025-12-31T00:00:00"},
		"TotalAssets":   f(1000), "WorkingCapital": f(200), "RetainedEarnings": f(300),
		"EBIT": f(100), "ShareholdersEquity": f(400), "TotalLiabilities": f(600),
	}}
	// 6.56·0.2 + 3.26·0.3 + 6.72·0.1 + 1.05·(400/600) = 1.312 + 0.978 + 0.672 + 0.7 = 3.662
	want := 3.662
	tests := []struct {
		name        string
		service     upstream.Num[float64]
		wantVerdict string
		wantDiffers bool
	}{
		{"agrees", z(3.66), "agrees (same to two decimals)", false},
		{"differs", z(3.50), "differs by +0.16 — beyond rounding", true},
		{"not reported", upstream.Num[float64]{}, "", false},
	}
	for _, tt := range tests {
		hist := []upstream.CreditScoreHistoryRow{{Year: 2025, Month: 12, ZScore: tt.service}}
		e := ExplainZ([]upstream.AnnualFinancials{stmt}, hist)
		y := e.Years[0]
		if math.Abs(y.raw-want) > 1e-9 || y.Computed != "3.66" || y.End != "Dec 2025" || y.Year != "FY 2025" {
			t.Errorf("%s: raw %v computed %q end %q year %q", tt.name, y.raw, y.Computed, y.End, y.Year)
		}
		if y.Verdict != tt.wantVerdict || y.Differs != tt.wantDiffers {
			t.Errorf("%s: verdict %q differs %v, want %q %v", tt.name, y.Verdict, y.Differs, tt.wantVerdict, tt.wantDiffers)
		}
		if y.Terms[3].Product != "0.7000" {
			t.Errorf("%s: equity term %q", tt.name, y.Terms[3].Product)
		}
	}
	// API-Only: the inputs are withheld, so no sum, and they are named.
	limited := upstream.AnnualFinancials{Values: map[string]upstream.DataPoint{"TotalAssets": f(1000), "PeriodEndDate": {Text: "2025-12-31T00:00:00"}}}
	y := ExplainZ([]upstream.AnnualFinancials{limited}, nil).Years[0]
	if y.Computed != "" || len(y.Missing) == 0 || !strings.HasPrefix(y.Service, "outside") {
		t.Errorf("limited: %+v", y)
	}
	// No assets: three ratios divide by them, and they are named once, as
	// a zero, not as a value withheld.
	zero := upstream.AnnualFinancials{Values: maps.Clone(stmt.Values)}
	zero.Values["TotalAssets"] = f(0)
	y = ExplainZ([]upstream.AnnualFinancials{zero}, nil).Years[0]
	if y.Computed != "" || len(y.Missing) != 0 || !slices.Equal(y.Zero, []string{"TotalAssets"}) {
		t.Errorf("zero assets: computed %q, missing %v, zero %v; want no sum and TotalAssets once as zero", y.Computed, y.Missing, y.Zero)
	}
}

func TestExplainDBT(t *testing.T) {
	i := func(v int) upstream.Num[int] { return upstream.Some(v) }
	rows := []upstream.PaymentSummaryRow{
		{MonthReported: "2026-08", TotalDue: 1000, DBTIndex: i(99)},
		// 100·15 + 50·45 + 20·75 + 10·105 = 1500+2250+1500+1050 = 6300 / 1000 = 6.3
		{MonthReported: "2026-09", TotalDue: 1000, PastDue30Days: 100, PastDue60Days: 50, PastDue90Days: 20,
			PastDueOver90Days: 10, DBTIndex: i(6), AverageDBTIndex: i(7)},
	}
	e := ExplainDBT(rows)
	if e.Month != "Sep 2026" || e.Computed != "6.30" || e.Service != "6" || e.Industry != "7" || e.Differs {
		t.Errorf("got %+v", e)
	}
	if e.Buckets[1].Weighted != "2.25" || e.Buckets[3].Share != "1.0%" {
		t.Errorf("buckets %+v", e.Buckets)
	}
	rows[1].DBTIndex = i(9)
	if e := ExplainDBT(rows); !e.Differs {
		t.Errorf("9 vs 6.3 should differ: %+v", e)
	}
	// Nothing due: every share and the sum are a dash, never a blank cell.
	zero := []upstream.PaymentSummaryRow{{MonthReported: "2026-09", DBTIndex: i(0)}}
	if e := ExplainDBT(zero); e.Computed != Dash || e.Buckets[0].Share != Dash {
		t.Errorf("nothing due: computed %q, first share %q; want dashes", e.Computed, e.Buckets[0].Share)
	}
	if e := ExplainDBT(nil); e.Month != "" {
		t.Errorf("empty: %+v", e)
	}
	for _, id := range []int32{1001, 1002, 1004, 1005} {
		_, _, pays := demoBusiness(t, id)
		if e := ExplainDBT(pays); e.Differs || e.Verdict == "" {
			t.Errorf("%d: %+v", id, e)
		}
	}
}
