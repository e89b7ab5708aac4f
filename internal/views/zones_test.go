package views

import (
	"math"
	"testing"
)

func TestRiskZone(t *testing.T) {
	cases := []struct {
		score int
		label string
		class string
	}{
		{0, "unknown", "zone-none"}, {11, "unknown", "zone-none"},
		{1, "severe", "zone-1"}, {2, "severe", "zone-1"},
		{3, "high", "zone-2"}, {4, "high", "zone-2"},
		{5, "elevated", "zone-3"},
		{6, "moderate", "zone-4"}, {7, "moderate", "zone-4"},
		{8, "low", "zone-5"}, {10, "low", "zone-5"},
	}
	for _, c := range cases {
		z := RiskZone(c.score)
		if z.Label != c.label || z.Class() != c.class {
			t.Errorf("RiskZone(%d) = %q %q, want %q %q", c.score, z.Label, z.Class(), c.label, c.class)
		}
	}
	for s := -1; s <= 11; s++ {
		if got, want := InRedZone(s), s >= 1 && s <= 5; got != want {
			t.Errorf("InRedZone(%d) = %v, want %v", s, got, want)
		}
	}
}

func TestDBTZone(t *testing.T) {
	cases := []struct {
		dbt   int
		label string
		level Level
	}{
		{-1, "unknown", LevelNone}, {0, "prompt", Level5}, {5, "prompt", Level5}, {6, "slow", Level4},
		{15, "slow", Level4}, {16, "late", Level3}, {30, "late", Level3}, {31, "delinquent", Level2},
		{60, "delinquent", Level2}, {61, "severe", Level1}, {120, "severe", Level1},
	}
	for _, c := range cases {
		if z := DBTZone(c.dbt); z.Label != c.label || z.Level != c.level {
			t.Errorf("DBTZone(%d) = %+v, want %s/%d", c.dbt, z, c.label, c.level)
		}
	}
}

func TestZScoreZone(t *testing.T) {
	cases := []struct {
		z     float64
		label string
	}{
		{math.NaN(), "unknown"}, {-4, "distress"}, {1.09, "distress"}, {1.10, "grey"},
		{2.60, "grey"}, {2.61, "safe"}, {12, "safe"},
	}
	for _, c := range cases {
		if z := ZScoreZone(c.z); z.Label != c.label {
			t.Errorf("ZScoreZone(%v) = %q, want %q", c.z, z.Label, c.label)
		}
	}
}

func TestRiskProbability(t *testing.T) {
	cases := map[int]string{0: "", 11: "", 1: "9.99–50%", 5: "0.87–1.40%", 10: "0–0.12%"}
	for s, want := range cases {
		if got := RiskProbability(s); got != want {
			t.Errorf("RiskProbability(%d) = %q, want %q", s, got, want)
		}
	}
}
