package views

import (
	"creditdash/internal/credit"
	"creditdash/internal/store"
)

// Zone is the band a score falls in (credit.Zone) as pages show it: a
// word for people and a level for colour. Pages always show the word or
// the number beside the colour.
type Zone credit.Zone

// zoneColours mirror --zone-none and --zone-1 .. --zone-5 of app.css, so
// charts and tables agree (a chart cannot read CSS variables; a test keeps
// the two in step). White text on each reaches 4.5:1, except on zone 3,
// which carries dark text.
var zoneColours = [...]string{
	credit.LevelNone: "#667085",
	credit.Level1:    "#b3261e",
	credit.Level2:    "#c0561c",
	credit.Level3:    "#d9a31c",
	credit.Level4:    "#527f26",
	credit.Level5:    "#2e7d4f",
}

// Class is the CSS class that colours the zone.
func (z Zone) Class() string {
	if z.Level == credit.LevelNone {
		return "zone-none"
	}
	return "zone-" + string(rune('0'+int(z.Level)))
}

// RiskZone places a Risk or Pay score (1–10, 10 safest).
func RiskZone(score int) Zone { return Zone(credit.RiskZone(score)) }

// DBTZone places days beyond terms (lower is better).
func DBTZone(dbt int) Zone { return Zone(credit.DBTZone(dbt)) }

// ZScoreZone places a Z″-Score (the four-ratio variant; higher is better).
func ZScoreZone(z float64) Zone { return Zone(credit.ZScoreZone(z)) }

// scoreZone places a value of any of the four scores in its zone.
func scoreZone(s store.Score, v float64) Zone { return Zone(credit.ScoreZone(s, v)) }

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
