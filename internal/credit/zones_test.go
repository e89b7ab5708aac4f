package credit

import (
	"math"
	"testing"
)

// TestRiskZone: Risk and Pay zones by score, and the red zone 1–5.
func TestRiskZone(t *testing.T) {
	cases := []struct {
		score int
		label string
		level Level
	}{
		{0, "unknown", LevelNone}, {11, "unknown", LevelNone},
		{1, "severe", Level1}, {2, "severe", Level1},
		{3, "high", Level2}, {4, "high", Level2},
		{5, "elevated", Level3},
		{6, "moderate", Level4}, {7, "moderate", Level4},
		{8, "low", Level5}, {10, "low", Level5},
	}
	for _, c := range cases {
		if z := RiskZone(c.score); z.Label != c.label || z.Level != c.level {
			t.Errorf("RiskZone(%d) = %+v, want %s/%d", c.score, z, c.label, c.level)
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
