package views

import "math"

// Level orders zones from worst to best so pages can compare and colour
// them; the CSS classes zone-1 (worst) to zone-5 (best) carry the colours.
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

// Zone is the band a score falls in: a word for people and a level for colour.
// Pages always show the word or the number beside the colour.
type Zone struct {
	Label string
	Level Level
}

// zoneColours mirror --zone-none and --zone-1 .. --zone-5 of app.css, so
// charts and tables agree (a chart cannot read CSS variables; a test keeps
// the two in step). White text on each reaches 4.5:1, except on zone 3,
// which carries dark text.
var zoneColours = [...]string{
	LevelNone: "#667085",
	Level1:    "#b3261e",
	Level2:    "#c0561c",
	Level3:    "#d9a31c",
	Level4:    "#527f26",
	Level5:    "#2e7d4f",
}

// Class is the CSS class that colours the zone.
func (z Zone) Class() string {
	if z.Level == LevelNone {
		return "zone-none"
	}
	return "zone-" + string(rune('0'+int(z.Level)))
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

// riskProbability is the probability of bankruptcy within 12 months for
// each Risk band, indexed by score.
var riskProbability = [...]string{
	1: "9.99–50%", 2: "4.00–9.99%", 3: "2.10–4.00%", 4: "1.40–2.10%", 5: "0.87–1.40%",
	6: "0.55–0.87%", 7: "0.34–0.55%", 8: "0.27–0.34%", 9: "0.12–0.27%", 10: "0–0.12%",
}

// RiskProbability is the 12-month bankruptcy probability range of a Risk
// score, e.g. "0.87–1.40%", or "" for a score out of range. Pay scores use
// the same table by assumption; pages say so.
func RiskProbability(score int) string {
	if score < 1 || score > 10 {
		return ""
	}
	return riskProbability[score]
}
