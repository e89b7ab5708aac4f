package views

import (
	"strings"
	"testing"
	"time"

	"creditdash/internal/credit"
	"creditdash/internal/store"
)

// TestPlainDecimal: at most the places asked for, no trailing zeros, no
// binary noise; band 6's PD, 0.0055 and 0.0087 halved, reads 0.0071.
func TestPlainDecimal(t *testing.T) {
	pd, _ := credit.PD(6)
	for _, c := range []struct {
		v      float64
		places int
		want   string
	}{{pd, 6, "0.0071"}, {1.5, 6, "1.5"}, {2, 6, "2"}, {1.0 / 3, 6, "0.333333"}, {-0.0000001, 6, "0"}, {908426.7700000001, 2, "908426.77"}} {
		if got := PlainDecimal(c.v, c.places); got != c.want {
			t.Errorf("PlainDecimal(%v, %d) = %q, want %q", c.v, c.places, got, c.want)
		}
	}
	f := credit.NewFigures(store.Account{LedgerLine: store.LedgerLine{Account: "A-1", BusinessID: 1001, Balance: 1000}, Limit: ptrF(3000)},
		map[store.Score]store.KnownScore{store.ScoreRisk: {Value: 6, Month: 202610}})
	rec := AccountCSVRecord(f)
	if rec[13] != "0.0071" || rec[11] != "0.333333" {
		t.Errorf("accounts.csv pd %q, utilization %q; want 0.0071 and 0.333333", rec[13], rec[11])
	}
}

func ptrF(v float64) *float64 { return &v }

// TestUnknownExpectedLoss: before any score is known the expected loss is
// unknown on the exposure page, in its breakdowns, its chart's table and
// the accounts' totals, never "$0"; once one account is scored it is an
// amount.
func TestUnknownExpectedLoss(t *testing.T) {
	ps := []credit.Position{{Account: "A-1", Balance: 1000, Industry: "Retail"}, {Account: "A-2", Balance: 500, Industry: "Mining"}}
	sum, groups := NewExposureSummary(credit.Summarise(ps))
	if sum.EL != UnknownEL {
		t.Errorf("summary EL = %q, want unknown", sum.EL)
	}
	for _, b := range groups {
		for _, r := range b.Rows {
			if r.EL != UnknownEL {
				t.Errorf("%s %s: EL = %q, want unknown", b.Dimension, r.Name, r.EL)
			}
		}
	}
	for _, row := range ExposureCSV(credit.Summarise(ps)) {
		if row[4] != "" {
			t.Errorf("exposure.csv %v: expected_loss %q, want empty (unknown)", row, row[4])
		}
	}
	chart, err := ExposureBandChart(credit.Summarise(ps))
	if err != nil || chart.Table.Rows[0].Cells[2].Text != UnknownEL {
		t.Errorf("chart table = %+v (%v), want unknown", chart.Table.Rows, err)
	}
	figs := []credit.Figures{figure("A-1", 1001, 1000, 0, time.Time{})}
	if tot := NewAccountTotals(pointers(figs)); tot.EL != UnknownEL {
		t.Errorf("accounts' total EL = %q, want unknown", tot.EL)
	}
	if p := NewAccountPanel(1001, []store.Account{figs[0].Account}, nil); p.EL != UnknownEL {
		t.Errorf("report panel EL = %q, want unknown", p.EL)
	}
	ps[0].Band = 5
	if sum, _ := NewExposureSummary(credit.Summarise(ps)); sum.EL != "$11" {
		t.Errorf("one account scored: EL = %q, want $11", sum.EL)
	}
}

// TestCreditBalancesExplained: with an account in credit, exposure
// exceeds the balances' sum and the pages say why; without, nothing.
func TestCreditBalancesExplained(t *testing.T) {
	figs := []credit.Figures{figure("A-1", 1001, 908_776, 5, time.Time{}), figure("A-2", 1002, -350, 5, time.Time{})}
	tot := NewAccountTotals(pointers(figs))
	if tot.Balance != "$908,426" || tot.Exposure != "$908,776" || !strings.Contains(tot.Credit, "$350 less than the exposure") ||
		!strings.Contains(tot.Credit, "in credit") {
		t.Errorf("totals = %+v, want the $350 of credit balances explained", tot)
	}
	if tot := NewAccountTotals(pointers(figs[:1])); tot.Credit != "" {
		t.Errorf("no account in credit, yet %q", tot.Credit)
	}
	sum, _ := NewExposureSummary(credit.Summarise([]credit.Position{{Balance: 100}, {Balance: -40}}))
	if !strings.Contains(sum.Credit, "$40 less than the exposure") {
		t.Errorf("exposure page note = %q", sum.Credit)
	}
}

// TestStaleText: under an hour in minutes, under a day in hours, else
// days, so a priority never stands beside "0.0 days".
func TestStaleText(t *testing.T) {
	for days, want := range map[float64]string{1.0 / 24 / 60 * 40: "40 minutes", 1.0 / 24: "1 hour", 5.0 / 24: "5 hours", 2.5: "2.5 days"} {
		if got := StaleText(days); got != want {
			t.Errorf("StaleText(%v) = %q, want %q", days, got, want)
		}
	}
	now := time.Date(2026, 11, 20, 12, 0, 0, 0, time.UTC)
	noName := figure("A-1", 1009, 1000, 5, now.Add(-time.Hour))
	noName.Name = ""
	ranked := credit.RankRefresh([]credit.Figures{noName, figure("A-2", 1009, 1000, 5, now.Add(-time.Hour))}, nil, now)
	row := NewRefreshRow(1, ranked[0])
	if row.Name != "N A-2" || row.Stale != "1 hour" {
		t.Errorf("row = %+v, want the named account's name and 1 hour", row)
	}
}

// pointers points at each of figs, as the accounts page keeps them.
func pointers(figs []credit.Figures) []*credit.Figures {
	out := make([]*credit.Figures, len(figs))
	for i := range figs {
		out[i] = &figs[i]
	}
	return out
}
