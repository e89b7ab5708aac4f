package views

import (
	"context"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"creditdash/internal/upstream"
	"creditdash/internal/upstream/simulator"
)

// The benchmarks time the pure work of a page: view models and chart
// options from what the service answers. Their input is the stand-in's demo
// data for business 1001 and the demo user's portfolio, fetched once
// through the real client so the values are the ones the pages see.
// `make bench` runs them after its table; nothing here asserts on time.

// benchInput is what the report's tabs and the score map get from the service.
type benchInput struct {
	ref     upstream.BusinessRef
	ident   upstream.Identification
	naics   []upstream.NAICSCode
	summary upstream.BusinessSummary
	hist    []upstream.CreditScoreHistoryRow
	risk    []upstream.RiskHistoryRow
	monthly []upstream.PaymentSummaryRow
	sic     []upstream.PaymentSummaryRow
	pay     upstream.PortfolioScoreHistory
}

var (
	benchOnce sync.Once
	benchData benchInput
	benchErr  error
)

// loadBenchInput asks a stand-in with the demo data, once per test binary.
func loadBenchInput(b *testing.B) *benchInput {
	b.Helper()
	benchOnce.Do(func() {
		asOf := time.Date(2026, time.October, 1, 0, 0, 0, 0, time.UTC)
		ds := simulator.Generate(simulator.GenerateOptions{Seed: 1, AsOf: asOf})
		srv := httptest.NewServer(simulator.New(ds, simulator.Options{}))
		defer srv.Close()
		client, err := upstream.New(srv.URL, upstream.Options{Timeout: 10 * time.Second})
		if err != nil {
			benchErr = err
			return
		}
		ctx := context.Background()
		login, err := client.Login(ctx, "demo", simulator.DemoPassword)
		if err != nil {
			benchErr = err
			return
		}
		key, d := login.SessionKey, &benchData
		d.ref = upstream.ByID(1001)
		steps := []func() error{
			func() (err error) { d.ident, err = client.As(key).IdentificationGroup(ctx, d.ref); return },
			func() (err error) { d.naics, err = client.As(key).NAICSCodes(ctx, d.ref); return },
			func() (err error) { d.summary, err = client.As(key).Summary(ctx, d.ref); return },
			func() (err error) {
				d.hist, err = client.As(key).CreditScoreHistory(ctx, d.ref, time.Time{}, time.Time{})
				return
			},
			func() (err error) { d.risk, err = client.As(key).RiskHistory(ctx, d.ref, 24); return },
			func() (err error) { d.monthly, err = client.As(key).PaymentSummaryMonthly(ctx, d.ref); return },
			func() (err error) { d.sic, err = client.As(key).PaymentSummarySIC(ctx, d.ref); return },
			func() (err error) {
				// The score map's largest page.
				d.pay, err = client.As(key).PayScoreHistory(ctx, upstream.PortfolioQuery{StartRow: 1, EndRow: PageSizes[len(PageSizes)-1]})
				return
			},
		}
		for _, step := range steps {
			if benchErr = step(); benchErr != nil {
				return
			}
		}
	})
	if benchErr != nil {
		b.Fatal(benchErr)
	}
	return &benchData
}

// BenchmarkBusinessOverview builds the overview tab's view model as the
// handler does: header, summary, window, score cards, four score charts
// and the risk history chart.
func BenchmarkBusinessOverview(b *testing.B) {
	d := loadBenchInput(b)
	public := d.ident.Public
	b.ReportAllocs()
	for b.Loop() {
		_ = NewBusinessHeader(d.ref, &d.ident, d.naics, TabOverview, "http://127.0.0.1:8080/businesses/1001")
		_ = NewSummaryView(d.summary)
		var w TimeWindow
		w.FillFromHistory(d.hist)
		_ = ScoreCards(d.hist, &public)
		if _, err := ScoreCharts(d.hist); err != nil {
			b.Fatal(err)
		}
		if _, err := RiskHistoryChart(d.risk); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkScoreCharts is the overview's four score charts alone.
func BenchmarkScoreCharts(b *testing.B) {
	d := loadBenchInput(b)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := ScoreCharts(d.hist); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkBusinessPayments builds the payments tab: aging rows and chart,
// the latest SIC breakdown and its chart.
func BenchmarkBusinessPayments(b *testing.B) {
	d := loadBenchInput(b)
	b.ReportAllocs()
	for b.Loop() {
		_ = AgingRows(d.monthly)
		if _, err := AgingChart(d.monthly); err != nil {
			b.Fatal(err)
		}
		_, _ = SICLatest(d.sic)
		if _, err := SICDBTChart(d.sic); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkHeatMap lays out the score map's largest page and its chart.
func BenchmarkHeatMap(b *testing.B) {
	d := loadBenchInput(b)
	span, ok := LatestSpan(d.pay, 12)
	if !ok {
		b.Fatal("no scores in the portfolio history")
	}
	b.ReportAllocs()
	for b.Loop() {
		hm := NewHeatMap(PortfolioPay, d.pay, span)
		if _, err := hm.Chart("score-heatmap", HeatSize(len(hm.Rows))); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkFormat runs the number formatters over the values a payments
// table shows (amounts, percentages, decimals).
func BenchmarkFormat(b *testing.B) {
	d := loadBenchInput(b)
	b.ReportAllocs()
	for b.Loop() {
		for _, r := range d.monthly {
			_ = Money(r.TotalDue)
			_ = Money(r.PastDue30Days)
			_ = CompactMoney(float64(r.CurrentAmount))
			_ = Percent(r.CurrentAmountPercent)
			_ = Percent(r.PastDue90DaysPercent)
			_ = Int(int64(r.Accounts))
		}
	}
}
