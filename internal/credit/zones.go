package credit

import (
	"math"

	"creditdash/internal/store"
)

// Level orders zones from worst to best, so that rules and pages can
// compare them.
type Level int

// Zone levels, worst first.
const (
	LevelNone Level = iota // no score
	Level1                 // worst
	Level2
	Level3
	Level4
	Level5 // best
)

// Zone is the band a score falls in: a word for people and a level to
// compare.
type Zone struct {
	Label string
	Level Level
}

// RiskZone places a Risk or Pay score (1–10, 10 safest).
func RiskZone(score int) Zone {
	switch {
	case score < 1 || score > 10:
		return Zone{Label: "unknown"}
	case score <= 2:
		return Zone{"severe", Level1}
	case score <= 4:
		return Zone{"high", Level2}
	case score == 5:
		return Zone{"elevated", Level3}
	case score <= 7:
		return Zone{"moderate", Level4}
	default:
		return Zone{"low", Level5}
	}
}

// InRedZone reports whether a Risk or Pay score is in the red zone (1–5).
func InRedZone(score int) bool { return score >= 1 && score <= 5 }

// DBTZone places days beyond terms (lower is better).
func DBTZone(dbt int) Zone {
	switch {
	case dbt < 0:
		return Zone{Label: "unknown"}
	case dbt <= 5:
		return Zone{"prompt", Level5}
	case dbt <= 15:
		return Zone{"slow", Level4}
	case dbt <= 30:
		return Zone{"late", Level3}
	case dbt <= 60:
		return Zone{"delinquent", Level2}
	default:
		return Zone{"severe", Level1}
	}
}

// ZScoreZone places a Z″-Score (the four-ratio variant; higher is better).
func ZScoreZone(z float64) Zone {
	switch {
	case math.IsNaN(z):
		return Zone{Label: "unknown"}
	case z < 1.10:
		return Zone{"distress", Level1}
	case z <= 2.60:
		return Zone{"grey", Level3}
	default:
		return Zone{"safe", Level5}
	}
}

// ScoreZone places a value of any of the four scores in its zone.
func ScoreZone(s store.Score, v float64) Zone {
	switch s {
	case store.ScoreDBT:
		return DBTZone(int(math.Round(v)))
	case store.ScoreZ:
		return ZScoreZone(v)
	default:
		return RiskZone(int(math.Round(v)))
	}
}

// Shown rounds a value as the score is shown (whole, or two decimals), so
// that a rule or a mark compares like the page reads.
func Shown(s store.Score, v float64) float64 {
	if s.Whole() {
		return math.Round(v)
	}
	return math.Round(v*100) / 100
}
