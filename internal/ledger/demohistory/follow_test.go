package demohistory

import (
	"testing"

	"creditdash/internal/policy"
	"creditdash/internal/upstream/simulator"
)

// TestArrearsFollowTheScores: the history is consistent with the
// stand-in's score histories. Every account that falls into default by
// its ledger (share over 90 days above the team's standard), Redrock
// Freight Lines (1004) among them, had its business's score fall first:
// the worst score in the six months before its first month in default
// is below the best in the year before that (a few disputed invoices
// aside, at most two).
func TestArrearsFollowTheScores(t *testing.T) {
	data := demoData()
	months := Build(data)
	byID := map[int32]simulator.Business{}
	for _, b := range data.Businesses {
		byID[b.ID] = b
	}
	first := map[string]int{} // account -> first month in default
	business := map[string]int32{}
	for m, month := range months {
		for _, l := range month.Lines {
			business[l.Account] = l.BusinessID
			line := policy.Blank()
			line.Balance, line.Over90 = l.Balance, l.DaysOver90
			if _, seen := first[l.Account]; !seen && policy.StandardDefinition.InDefault(&line) {
				first[l.Account] = m
			}
		}
	}
	if len(first) < 5 {
		t.Fatalf("%d accounts default, want at least five", len(first))
	}
	unexplained := 0
	redrock := false
	for acc, d := range first {
		b := byID[business[acc]]
		before, recent := 0.0, 11.0
		for k := d - 18; k < d-6; k++ {
			before = max(before, score(b, months[0].AsOf.AddDate(0, k, 0)))
		}
		for k := d - 6; k <= d; k++ {
			recent = min(recent, score(b, months[0].AsOf.AddDate(0, k, 0)))
		}
		fell := recent < before
		t.Logf("%s (%d): first in default %s; best score before %v, worst in the six months before %v", acc, b.ID,
			months[d].AsOf.Format("2006-01"), before, recent)
		if b.ID == 1004 {
			redrock = true
			if !fell {
				t.Errorf("Redrock defaults in %s without its score falling first", months[d].AsOf.Format("2006-01"))
			}
		}
		if !fell {
			unexplained++
		}
	}
	if !redrock {
		t.Error("Redrock Freight Lines (1004) never defaults")
	}
	if unexplained > 2 {
		t.Errorf("%d of %d defaults without a score falling first; want at most two (disputed invoices)", unexplained, len(first))
	}
}
