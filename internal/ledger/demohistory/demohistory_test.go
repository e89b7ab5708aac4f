package demohistory

import (
	"testing"
	"time"

	"creditdash/internal/policy"
	"creditdash/internal/upstream/simulator"
)

// demoData is the stand-in's demo data as of a fixed month.
func demoData() *simulator.Dataset {
	return simulator.Generate(simulator.GenerateOptions{Seed: 1, AsOf: time.Date(2026, 10, 1, 0, 0, 0, 0, time.UTC)})
}

// validation is the history with the scores the stand-in gives for each
// month-end, validated with the team's standard default.
func validation(t *testing.T, data *simulator.Dataset, months []Month) (*policy.History, *policy.Report) {
	t.Helper()
	byID := map[int32]simulator.Business{}
	for _, b := range data.Businesses {
		byID[b.ID] = b
	}
	ym := make([]int, len(months))
	for i, m := range months {
		ym[i] = m.AsOf.Year()*100 + int(m.AsOf.Month())
	}
	book := policy.NewBook(ym)
	for i, m := range months {
		for _, l := range m.Lines {
			p := policy.Blank()
			p.Balance, p.Current, p.Days1to30, p.Days31to60, p.Days61to90, p.Over90 = l.Balance, l.Current, l.Days1to30, l.Days31to60, l.Days61to90, l.DaysOver90
			for _, s := range byID[l.BusinessID].Scores {
				if s.Year*100+s.Month == ym[i] {
					if s.Risk != nil {
						p.Risk = int8(*s.Risk)
					}
					if s.Pay != nil {
						p.Pay = int8(*s.Pay)
					}
					if s.DBT != nil {
						p.DBT = int16(*s.DBT)
					}
					if s.Z != nil {
						p.Z = float32(*s.Z)
					}
				}
			}
			book.Add(i, l.Account, p)
		}
	}
	h := book.History()
	rep, err := policy.Validate(h, policy.StandardDefinition, policy.StandardModels())
	if err != nil {
		t.Fatal(err)
	}
	return h, rep
}

// TestDemoHistory: 36 month-ends of the demo portfolio in which 6–12
// accounts default (Redrock Freight Lines, 1004, among them), most do
// not, and the Risk score alone separates them clearly but not
// perfectly.
func TestDemoHistory(t *testing.T) {
	data := demoData()
	months := Build(data)
	if len(months) != 36 || months[35].AsOf.Format("2006-01-02") != "2026-10-31" || months[0].AsOf.Format("2006-01-02") != "2023-11-30" {
		t.Fatalf("%d months, %v to %v; want 36 month-ends 2023-11-30 to 2026-10-31", len(months), months[0].AsOf, months[len(months)-1].AsOf)
	}
	h, rep := validation(t, data, months)
	// Accounts in default at any month-end of the history, by the
	// ledger alone.
	defaulted := map[string]bool{}
	for _, lines := range h.Lines {
		for i := range lines {
			if policy.StandardDefinition.InDefault(&lines[i]) {
				defaulted[h.Accounts[lines[i].Account]] = true
			}
		}
	}
	redrock := ""
	for _, l := range months[35].Lines {
		if l.BusinessID == 1004 {
			redrock = l.Account
		}
	}
	if n := len(defaulted); n < 6 || n > 12 || !defaulted[redrock] || len(h.Accounts) < 60 {
		t.Errorf("%d of %d accounts defaulted (%v), Redrock (%s) among them: %v; want 6–12 with Redrock", n, len(h.Accounts), defaulted, redrock, defaulted[redrock])
	}
	for _, r := range rep.Results {
		f := r.Figures
		t.Logf("%s: AUC %.3f [%.3f, %.3f] KS %.3f, %d accounts, %d defaults, %d months", r.Model.Name, f.AUC, r.Intervals.AUC.Low, r.Intervals.AUC.High, f.KS, f.Accounts, f.Defaults, f.Months)
	}
	risk := rep.Results[1].Figures
	if rep.Results[1].Model.Name != "risk" || risk.AUC < 0.7 || risk.AUC > 0.85 || risk.Defaults < 5 || risk.Months != 24 {
		t.Errorf("Risk alone: AUC %.3f with %d defaults over %d months; want 0.7–0.85, at least 5, 24 months", risk.AUC, risk.Defaults, risk.Months)
	}
}

// TestDemoHistoryDeterministic: the same seed, the same ledgers.
func TestDemoHistoryDeterministic(t *testing.T) {
	one, two := Build(demoData()), Build(demoData())
	for m := range one {
		if len(one[m].Lines) != len(two[m].Lines) {
			t.Fatalf("month %d: %d lines, then %d", m, len(one[m].Lines), len(two[m].Lines))
		}
		for i := range one[m].Lines {
			a, b := one[m].Lines[i], two[m].Lines[i]
			if a.Account != b.Account || a.Balance != b.Balance || a.DaysOver90 != b.DaysOver90 {
				t.Fatalf("month %d line %d differs", m, i)
			}
		}
	}
}
