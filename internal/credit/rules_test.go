package credit

import (
	"testing"

	"creditdash/internal/store"
)

func TestFires(t *testing.T) {
	f := func(v float64) *float64 { return &v }
	series := func(s store.Score, prev *float64, now float64) ScoreSeries {
		return ScoreSeries{BusinessID: 1001, Score: s, Latest: Latest{Year: 2026, Month: 10, Value: now, Prev: prev}}
	}
	cases := []struct {
		name string
		rule store.RuleSpec
		s    ScoreSeries
		want bool
	}{
		{"risk below", store.RuleSpec{Score: store.ScoreRisk, Condition: store.Below, Threshold: 3}, series(store.ScoreRisk, f(3), 2), true},
		{"risk not below", store.RuleSpec{Score: store.ScoreRisk, Condition: store.Below, Threshold: 3}, series(store.ScoreRisk, nil, 3), false},
		{"other score", store.RuleSpec{Score: store.ScorePay, Condition: store.Below, Threshold: 3}, series(store.ScoreRisk, nil, 2), false},
		{"pay above", store.RuleSpec{Score: store.ScorePay, Condition: store.Above, Threshold: 6}, series(store.ScorePay, nil, 7), true},
		{"risk fall of 2", store.RuleSpec{Score: store.ScoreRisk, Condition: store.Fall, Threshold: 2}, series(store.ScoreRisk, f(6), 4), true},
		{"risk fall of 1 only", store.RuleSpec{Score: store.ScoreRisk, Condition: store.Fall, Threshold: 2}, series(store.ScoreRisk, f(5), 4), false},
		{"fall without a previous month", store.RuleSpec{Score: store.ScoreRisk, Condition: store.Fall, Threshold: 1}, series(store.ScoreRisk, nil, 1), false},
		// DBT worsens upwards: a rise in days is its fall.
		{"dbt rise is a fall", store.RuleSpec{Score: store.ScoreDBT, Condition: store.Fall, Threshold: 10}, series(store.ScoreDBT, f(5), 20), true},
		{"dbt drop is no fall", store.RuleSpec{Score: store.ScoreDBT, Condition: store.Fall, Threshold: 10}, series(store.ScoreDBT, f(20), 5), false},
		{"z into distress", store.RuleSpec{Score: store.ScoreZ, Condition: store.WorseZone}, series(store.ScoreZ, f(1.5), 1.05), true},
		{"z better zone", store.RuleSpec{Score: store.ScoreZ, Condition: store.WorseZone}, series(store.ScoreZ, f(1.05), 1.5), false},
		{"risk same zone", store.RuleSpec{Score: store.ScoreRisk, Condition: store.WorseZone}, series(store.ScoreRisk, f(4), 3), false},
		{"z fall of exactly the threshold", store.RuleSpec{Score: store.ScoreZ, Condition: store.Fall, Threshold: 0.12}, series(store.ScoreZ, f(2.09), 1.97), true},
		{"z fall of exactly 0.01", store.RuleSpec{Score: store.ScoreZ, Condition: store.Fall, Threshold: 0.01}, series(store.ScoreZ, f(4.13), 4.12), true},
		{"z fall short of the threshold", store.RuleSpec{Score: store.ScoreZ, Condition: store.Fall, Threshold: 0.13}, series(store.ScoreZ, f(2.09), 1.97), false},
		{"z compares as shown", store.RuleSpec{Score: store.ScoreZ, Condition: store.Below, Threshold: 1.1}, series(store.ScoreZ, nil, 1.0999), false},
	}
	for _, c := range cases {
		if got := Fires(c.rule, c.s); got != c.want {
			t.Errorf("%s: Fires = %v, want %v", c.name, got, c.want)
		}
	}
}
