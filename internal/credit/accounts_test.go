package credit

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"creditdash/internal/store"
)

// account is a ledger line of the team's, linked to business b (0: not),
// with a limit (0: none) and inputs saved giving an implied limit of
// implied (0: none saved).
func account(name string, b int32, balance, limit, implied float64) store.Account {
	a := store.Account{LedgerLine: store.LedgerLine{Account: name, Name: "Name " + name, BusinessID: b, Balance: balance}}
	if limit > 0 {
		a.Limit = &limit
	}
	if implied > 0 {
		// The trade cap alone: sales times months, rounded down to 1,000.
		a.Inputs = &store.LimitInputs{MonthlySales: implied, MonthsAllowed: 1}
	}
	return a
}

func risk(v float64) map[store.Score]store.KnownScore {
	return map[store.Score]store.KnownScore{store.ScoreRisk: {Value: v, Month: 202610}}
}

// TestNewFigures: a known Risk gives the band, PD and expected loss; an
// account not linked keeps no score; saved inputs give the implied limit.
func TestNewFigures(t *testing.T) {
	f := NewFigures(account("A-1", 1001, 100_000, 80_000, 50_000), risk(4.6))
	if f.Band != 5 || !f.ELOK || f.EL != 100_000*f.PD || f.Risk == nil {
		t.Errorf("band %d, EL %v (%v), risk %v", f.Band, f.EL, f.ELOK, f.Risk)
	}
	if !f.UtilOK || f.Utilization != 1.25 || !f.OverLimit() || !f.Linked() {
		t.Errorf("utilization %v (%v), over limit %v, linked %v", f.Utilization, f.UtilOK, f.OverLimit(), f.Linked())
	}
	if !f.ImpliedOK || f.Implied != 50_000 {
		t.Errorf("implied %v (%v), want 50,000", f.Implied, f.ImpliedOK)
	}
	g := NewFigures(account("A-2", 0, 100, 0, 0), risk(3))
	if g.Risk != nil || g.ELOK || g.Band != 0 || g.UtilOK || g.ImpliedOK || g.OverLimit() || g.Linked() {
		t.Errorf("an account not linked, without limit or inputs: %+v", g)
	}
}

// TestNewDrift: at risk where the limit exceeds the implied limit, largest
// gap first, 20 at most; headroom where it falls short, 10 at most;
// accounts without a limit or an implied limit are in neither.
func TestNewDrift(t *testing.T) {
	var fs []Figures
	for i := range 25 {
		// Limits 101,000 .. 125,000 over an implied 100,000: gaps 1,000 .. 25,000.
		fs = append(fs, NewFigures(account(fmt.Sprintf("R-%02d", i), int32(1000+i), 0, float64(101_000+1000*i), 100_000), nil))
	}
	for i := range 12 {
		fs = append(fs, NewFigures(account(fmt.Sprintf("H-%02d", i), 0, 0, float64(90_000-1000*i), 100_000), nil))
	}
	fs = append(fs, NewFigures(account("E-1", 0, 0, 100_000, 100_000), nil), NewFigures(account("N-1", 0, 0, 0, 100_000), nil),
		NewFigures(account("N-2", 0, 0, 50_000, 0), nil))
	atRisk, headroom := NewDrift(fs)
	if len(atRisk) != MaxAtRisk || atRisk[0].Account != "R-24" || atRisk[0].Gap != 25_000 || atRisk[19].Account != "R-05" {
		t.Errorf("at risk: %d, first %+v, last %+v", len(atRisk), atRisk[0], atRisk[len(atRisk)-1])
	}
	if atRisk[0].BusinessID != 1024 || atRisk[0].Limit != 125_000 || atRisk[0].Implied != 100_000 {
		t.Errorf("at risk first %+v", atRisk[0])
	}
	if len(headroom) != MaxHeadroom || headroom[0].Account != "H-11" || headroom[0].Gap != 21_000 || headroom[9].Account != "H-02" {
		t.Errorf("headroom: %d, first %+v, last %+v", len(headroom), headroom[0], headroom[len(headroom)-1])
	}
	for _, d := range slices.Concat(atRisk, headroom) {
		if d.Account == "E-1" || d.Account == "N-1" || d.Account == "N-2" {
			t.Errorf("%s drifts", d.Account)
		}
	}
}

// TestNewWorkItem: each reason an account is listed for, and none for an
// account that needs nothing.
func TestNewWorkItem(t *testing.T) {
	today := time.Date(2026, 11, 28, 15, 0, 0, 0, time.UTC)
	reviewed := func(daysAgo, band int) *LastReview {
		return &LastReview{At: today.AddDate(0, 0, -daysAgo), Band: band}
	}
	over90 := account("A-4", 1004, 100_000, 0, 0)
	over90.DaysOver90 = 20_000
	cases := []struct {
		name string
		a    store.Account
		risk float64
		in   WorkInputs
		want []WorkReason
	}{
		{"nothing", account("A-1", 1001, 10_000, 50_000, 60_000), 8, WorkInputs{LastReview: reviewed(10, 8)}, nil},
		{"over limit and at risk", account("A-2", 1002, 60_000, 50_000, 40_000), 8, WorkInputs{LastReview: reviewed(10, 8)},
			[]WorkReason{ReasonOverLimit, ReasonLimitAtRisk}},
		{"never reviewed: due today", account("A-3", 1003, 10_000, 0, 0), 8, WorkInputs{}, []WorkReason{ReasonReviewDue}},
		{"overdue", account("A-3", 1003, 10_000, 0, 0), 5, WorkInputs{LastReview: reviewed(100, 5)}, []WorkReason{ReasonReviewOverdue}},
		{"due within the week", account("A-3", 1003, 10_000, 0, 0), 5, WorkInputs{LastReview: reviewed(88, 5)}, []WorkReason{ReasonReviewDue}},
		{"severe band", account("A-5", 1005, 10_000, 0, 0), 2, WorkInputs{LastReview: reviewed(1, 2)}, []WorkReason{ReasonHold}},
		{"over 90 days", over90, 8, WorkInputs{LastReview: &LastReview{At: today, Band: 8, Over90: 0.2}}, []WorkReason{ReasonHold}},
		{"a decision waits", account("A-6", 1006, 10_000, 0, 0), 8, WorkInputs{LastReview: reviewed(10, 8), Waiting: 2}, []WorkReason{ReasonDecision}},
	}
	for _, c := range cases {
		f := NewFigures(c.a, risk(c.risk))
		w, ok := NewWorkItem(&f, c.in, today)
		var got []WorkReason
		for _, r := range WorkReasons {
			if w.Has(r) {
				got = append(got, r)
			}
		}
		if ok != (len(c.want) > 0) || !slices.Equal(got, c.want) || w.Figures != &f {
			t.Errorf("%s: listed %v for %v, want %v", c.name, ok, got, c.want)
		}
	}
}

// TestWorkOrder: largest expected loss first, then accounts without a
// band by balance, then by account number.
func TestWorkOrder(t *testing.T) {
	figs := []Figures{
		NewFigures(account("A-1", 1001, 1000, 0, 0), risk(9)),
		NewFigures(account("A-2", 0, 500_000, 0, 0), nil),
		NewFigures(account("A-3", 1003, 1000, 0, 0), risk(1)),
		NewFigures(account("A-5", 0, 1000, 0, 0), nil),
		NewFigures(account("A-4", 0, 1000, 0, 0), nil),
	}
	var got []string
	for _, i := range WorkOrder(figs) {
		got = append(got, figs[i].Account.Account)
	}
	if want := []string{"A-3", "A-1", "A-2", "A-4", "A-5"}; !slices.Equal(got, want) {
		t.Errorf("order %v, want %v", got, want)
	}
}
