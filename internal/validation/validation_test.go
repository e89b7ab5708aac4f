package validation

import (
	"context"
	"errors"
	"math"
	"strings"
	"sync"
	"testing"
	"time"

	"creditdash/internal/policy"
	"creditdash/internal/store"
	"creditdash/internal/store/storetest"
)

// team is the team the tests' analysts belong to.
var team = store.Analyst{Service: "http://127.0.0.1:8081", User: "ana"}

// clock is a store clock a test sets: decisions are dated by it.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(time.Second)
	return c.t
}

func (c *clock) set(t time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = t
}

// eachEngine runs fn on a fresh store of each engine, with its clock.
func eachEngine(t *testing.T, fn func(t *testing.T, st *store.Store, c *clock)) {
	for _, e := range []store.Engine{store.SQLite, store.Postgres} {
		t.Run(string(e), func(t *testing.T) {
			t.Parallel()
			c := &clock{t: time.Date(2025, 3, 10, 9, 0, 0, 0, time.UTC)}
			cfg := store.Config{Now: c.Now}
			if e == store.SQLite {
				cfg.DataDir = t.TempDir()
			} else {
				cfg.DatabaseURL = storetest.Database(t)
			}
			st, err := store.Open(context.Background(), cfg)
			if err != nil {
				t.Fatalf("Open(%s): %v", e, err)
			}
			t.Cleanup(func() { st.Close() })
			fn(t, st, c)
		})
	}
}

func must(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// monthEndDate is the last day of month i after January 2024.
func monthEndDate(i int) time.Time {
	return time.Date(2024, time.Month(i+2), 1, 0, 0, 0, 0, time.UTC).AddDate(0, 0, -1)
}

// importMonths imports n month-ends from January 2024 of three accounts:
// A-1 (business 1001) and A-3 (unlinked) always current, A-2 (business
// 1002) with 40 % of its balance over 90 days from July 2024 on.
func importMonths(t *testing.T, st *store.Store, n int) {
	t.Helper()
	for i := range n {
		over := 0.0
		if i >= 6 {
			over = 4000
		}
		lines := []store.LedgerLine{
			{Account: "A-1", Name: "Alder Supply", BusinessID: 1001, Balance: 5000, Current: 5000},
			{Account: "A-2", Name: "Birch Freight", BusinessID: 1002, Balance: 10000, Current: 10000 - over, DaysOver90: over},
			{Account: "A-3", Name: "Cedar Foods", Balance: 2000, Current: 2000},
		}
		_, err := st.ImportLedger(t.Context(), team, store.ImportSpec{AsOf: monthEndDate(i), File: "aging.csv", Lines: lines})
		must(t, err)
	}
}

// TestValidateTeamHistory: the history read from the store carries the
// limit in force at each month-end from the dated decisions (not today's),
// the Risk known then and the defaults that followed; the scorecard
// validated is the version in force, a named draft, or the starting one.
func TestValidateTeamHistory(t *testing.T) {
	eachEngine(t, func(t *testing.T, st *store.Store, c *clock) {
		ctx := t.Context()
		importMonths(t, st, 14)
		// Risk, Pay and DBT by month: 1001 safe, 1002 not; 1001's Pay
		// known only from February 2024.
		for b, risk := range map[int32]float64{1001: 9, 1002: 2} {
			var months, pay, dbt []store.ScoreMonth
			for m := 202312; m <= 202412; m++ {
				if m%100 >= 1 && m%100 <= 12 {
					months = append(months, store.ScoreMonth{Month: m, Value: risk})
					dbt = append(dbt, store.ScoreMonth{Month: m, Value: 40 - 4*risk})
					if b == 1002 || m >= 202402 {
						pay = append(pay, store.ScoreMonth{Month: m, Value: risk - 1})
					}
				}
			}
			_, err := st.RecordScores(ctx, team, store.Observation{BusinessID: b, Risk: months, Fetched: time.Now(),
				Monthly: map[store.Score][]store.ScoreMonth{store.ScorePay: pay, store.ScoreDBT: dbt}})
			must(t, err)
		}
		// A-1's limits: none until 15 March 2024, 10,000 to 10 June,
		// 20,000 since (its limit today).
		c.set(time.Date(2024, 3, 15, 12, 0, 0, 0, time.UTC))
		_, err := st.RequestLimit(ctx, team, store.RequestSpec{Account: "A-1", Amount: 10000, Reason: "opening", Authority: 1e6})
		must(t, err)
		c.set(time.Date(2024, 6, 10, 12, 0, 0, 0, time.UTC))
		_, err = st.RequestLimit(ctx, team, store.RequestSpec{Account: "A-1", Amount: 20000, Reason: "more trade", Authority: 1e6})
		must(t, err)

		// A-2, in default since July, given 30,000 at once in August.
		c.set(time.Date(2024, 8, 20, 12, 0, 0, 0, time.UTC))
		_, err = st.RequestLimit(ctx, team, store.RequestSpec{Account: "A-2", Amount: 30000, Reason: "seasonal", Authority: 1e6})
		must(t, err)

		run, err := Validate(ctx, st, team, 0)
		must(t, err)
		// The replay under the starting policy: A-1's two limits stand
		// (class A); A-2's, scored at July's month-end in class E (no
		// credit, nothing at once), goes to 0 and to a second person. E
		// scored no account-month, so its bad rate is unknown.
		if run.Decisions != 3 || len(run.Replay) != 3 {
			t.Fatalf("replayed %d of %d decisions", len(run.Replay), run.Decisions)
		}
		for i, want := range []struct {
			account string
			month   int
			class   string
			changed bool
		}{{"A-1", 1, "A", false}, {"A-1", 4, "A", false}, {"A-2", 6, "E", true}} {
			d := run.Replay[i]
			if d.Account != want.account || d.Month != want.month || run.Scorecard.Policy.Scorecard.Classes[d.Class].Name != want.class || d.Changed() != want.changed {
				t.Errorf("replayed decision %d: %+v, want %+v", i, d, want)
			}
		}
		if d := run.Replay[2]; d.Limit != 0 || !d.FourEyes || !math.IsNaN(d.PD) || run.LGD != 1 {
			t.Errorf("A-2's decision replayed: %+v (LGD %v)", d, run.LGD)
		}
		h := run.History
		if h == nil || len(h.Months) != 14 || h.Months[0] != 202401 || h.Months[13] != 202502 || run.Report == nil {
			t.Fatalf("history %+v, report %v", h, run.Report)
		}
		if run.Scorecard.Version != 0 || !strings.HasPrefix(run.Report.Results[0].Model.Label, "Starting scorecard") {
			t.Errorf("with no version in force: %+v, %q", run.Scorecard, run.Report.Results[0].Model.Label)
		}
		a1 := -1
		for i, acct := range h.Accounts {
			if acct == "A-1" {
				a1 = i
			}
		}
		want := map[int]float64{0: math.NaN(), 1: math.NaN(), 2: 10000, 4: 10000, 5: 20000, 13: 20000}
		for m, w := range want {
			var got float64 = -1
			for _, l := range h.Lines[m] {
				if int(l.Account) == a1 {
					got = l.Limit
				}
			}
			if !(got == w || math.IsNaN(got) && math.IsNaN(w)) {
				t.Errorf("A-1's limit at %d = %v, want %v", h.Months[m], got, w)
			}
		}
		// Risk alone: A-1 (9, good) and A-2 (2, defaults in July) at the
		// two month-ends scored; A-3 has no Risk.
		risk := run.Report.Results[1].Figures
		if risk.Observations != 4 || risk.Bads != 2 || risk.AUC != 1 || risk.Defaults != 1 || risk.Months != 2 {
			t.Errorf("Risk alone: %+v", risk)
		}
		// Pay alone: 1002 at both month-ends, 1001 at February's only.
		if pay := run.Report.Results[2].Figures; pay.Observations != 3 || pay.Bads != 2 || pay.AUC != 1 || pay.Months != 2 {
			t.Errorf("Pay alone: %+v", pay)
		}
		for _, l := range h.Lines[0] {
			if int(l.Account) == a1 && (l.Risk != 9 || l.Pay != policy.Missing || l.DBT != 4) {
				t.Errorf("A-1's scores at January 2024: Risk %d Pay %d DBT %d; want 9, missing, 4", l.Risk, l.Pay, l.DBT)
			}
		}
		if run.History.RiskKnown != 2 || run.History.PayKnown != 2 || run.History.Linked != 2 {
			t.Errorf("known at the newest month-end: %+v", run.History)
		}
		if sc := run.Report.Results[0].Figures; sc.Observations != 6 || sc.Accounts != 3 {
			t.Errorf("scorecard: %+v", sc)
		}

		// A draft: Risk alone as a scorecard.
		p := policy.Starting()
		p.Scorecard.Factors = []policy.Factor{{Kind: policy.FactorRisk, Edges: []float64{5}, Points: []int{0, 100}, Missing: 50}}
		body, err := p.Marshal()
		must(t, err)
		_, err = st.SavePolicy(ctx, store.Analyst{Service: team.Service, User: "mia"}, body, "Risk only")
		must(t, err)
		run, err = Validate(ctx, st, team, 1)
		must(t, err)
		if run.Scorecard.Version != 1 || run.Scorecard.Active || run.Report.Results[0].Model.Label != "Team scorecard (version 1, not in force)" {
			t.Errorf("the draft: %+v, %q", run.Scorecard, run.Report.Results[0].Model.Label)
		}
		if f := run.Report.Results[0].Figures; f.AUC != 1 || f.Observations != 6 {
			t.Errorf("the draft's figures: %+v", f)
		}
		if _, err := Validate(ctx, st, team, 2); !errors.Is(err, ErrNoVersion) {
			t.Errorf("no version 2: %v", err)
		}
		vs, err := st.Policies(ctx, team)
		must(t, err)
		_, err = st.ActivatePolicy(ctx, store.Analyst{Service: team.Service, User: "noor"}, vs[0].ID)
		must(t, err)
		run, err = Validate(ctx, st, team, 0)
		must(t, err)
		if run.Scorecard.Version != 1 || !run.Scorecard.Active || run.Report.Results[0].Model.Label != "Team scorecard (version 1, in force)" {
			t.Errorf("in force: %+v, %q", run.Scorecard, run.Report.Results[0].Model.Label)
		}
	})
}

// TestShortHistory: fewer than 13 month-ends read, no report.
func TestShortHistory(t *testing.T) {
	eachEngine(t, func(t *testing.T, st *store.Store, _ *clock) {
		run, err := Validate(t.Context(), st, team, 0)
		must(t, err)
		if run.History != nil || run.Report != nil {
			t.Errorf("no ledger: %+v", run)
		}
		importMonths(t, st, 12)
		run, err = Validate(t.Context(), st, team, 0)
		must(t, err)
		if run.History == nil || len(run.History.Months) != 12 || run.Report != nil {
			t.Errorf("12 month-ends: %+v", run)
		}
	})
}

// TestReplayOnTheDaysCalculator: a policy whose every class takes half
// the trade cap, with no maximum, caps past decisions at half the trade
// cap of their day, rebuilt from the calculator inputs saved by then (not
// today's): A-1's 30,000 of March 2024, when its inputs gave a trade cap
// of 20,000, goes to 10,000; its 60,000 of June, after inputs giving
// 100,000, to 50,000. A-3 never had inputs saved, so its decision's
// figures were not kept: bounded by no ceiling, and told apart.
func TestReplayOnTheDaysCalculator(t *testing.T) {
	eachEngine(t, func(t *testing.T, st *store.Store, c *clock) {
		ctx := t.Context()
		importMonths(t, st, 14)
		c.set(time.Date(2024, 2, 10, 12, 0, 0, 0, time.UTC))
		must(t, st.SaveLimitInputs(ctx, team, "A-1", store.LimitInputs{MonthlySales: 10_000, MonthsAllowed: 2}))
		c.set(time.Date(2024, 3, 15, 12, 0, 0, 0, time.UTC))
		_, err := st.RequestLimit(ctx, team, store.RequestSpec{Account: "A-1", Amount: 30_000, Reason: "opening", Authority: 1e6})
		must(t, err)
		c.set(time.Date(2024, 5, 2, 12, 0, 0, 0, time.UTC))
		must(t, st.SaveLimitInputs(ctx, team, "A-1", store.LimitInputs{MonthlySales: 50_000, MonthsAllowed: 2}))
		c.set(time.Date(2024, 6, 10, 12, 0, 0, 0, time.UTC))
		_, err = st.RequestLimit(ctx, team, store.RequestSpec{Account: "A-1", Amount: 60_000, Reason: "more trade", Authority: 1e6})
		must(t, err)
		c.set(time.Date(2024, 7, 10, 12, 0, 0, 0, time.UTC))
		_, err = st.RequestLimit(ctx, team, store.RequestSpec{Account: "A-3", Amount: 8_000, Reason: "opening", Authority: 1e6})
		must(t, err)

		p := policy.Starting()
		for i := range p.Limits {
			p.Limits[i].Cap, p.Limits[i].Share, p.Limits[i].Max, p.Limits[i].AtOnce = policy.CapTrade, 0.5, 0, 1e6
		}
		body, err := p.Marshal()
		must(t, err)
		_, err = st.SavePolicy(ctx, store.Analyst{Service: team.Service, User: "mia"}, body, "half the trade cap")
		must(t, err)
		run, err := Validate(ctx, st, team, 1)
		must(t, err)
		if run.Decisions != 3 || len(run.Replay) != 3 {
			t.Fatalf("replayed %d of %d decisions", len(run.Replay), run.Decisions)
		}
		for i, want := range []struct {
			account       string
			kept          bool
			policy, limit float64
		}{{"A-1", true, 10_000, 10_000}, {"A-1", true, 50_000, 50_000}, {"A-3", false, 0, 8_000}} {
			d := run.Replay[i]
			if d.Account != want.account || d.Kept != want.kept || d.PolicyLimit != want.policy || d.Limit != want.limit || d.Reduced() != want.kept ||
				d.FourEyes != want.kept || !math.IsInf(d.Ceiling, 1) {
				t.Errorf("decision %d replayed: %+v, want %+v", i, d, want)
			}
		}
	})
}
