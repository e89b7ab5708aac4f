package store

import "math"

// Score is one of the four scores a rule or a last-seen mark is about.
type Score string

// The scores, as stored and as forms send them.
const (
	ScoreRisk Score = "risk"
	ScorePay  Score = "pay"
	ScoreDBT  Score = "dbt"
	ScoreZ    Score = "z"
)

// Scores lists them in the order pages show them.
var Scores = []Score{ScoreRisk, ScorePay, ScoreDBT, ScoreZ}

// scoreRange is the span a score's values take (the stand-in's and the
// service's documented ranges, as internal/views zones them) and whether
// they are whole numbers.
type scoreRange struct {
	min, max float64
	whole    bool
	name     string
}

// ranges: Risk and Pay 1–10 (10 safest), DBT 0–120 days (lower is
// better), Z″ about −4 to 12 (two decimals).
var ranges = map[Score]scoreRange{
	ScoreRisk: {1, 10, true, "Risk"},
	ScorePay:  {1, 10, true, "Pay"},
	ScoreDBT:  {0, 120, true, "DBT"},
	ScoreZ:    {-4, 12, false, "Z″"},
}

// Valid reports whether s is one of the four scores.
func (s Score) Valid() bool { _, ok := ranges[s]; return ok }

// Name is the score's short name for messages: "Risk", "Pay", "DBT", "Z″".
func (s Score) Name() string { return ranges[s].name }

// Range is the lowest and highest value the score takes; thresholds must
// lie within it.
func (s Score) Range() (lo, hi float64) { r := ranges[s]; return r.min, r.max }

// HigherIsBetter says which way the score improves: DBT is the one where
// fewer days is better, so its "fall" is a rise in days.
func (s Score) HigherIsBetter() bool { return s != ScoreDBT }

// Whole reports whether the score takes only whole numbers.
func (s Score) Whole() bool { return ranges[s].whole }

// isWhole is true for finite values without a fraction.
func isWhole(v float64) bool { return v == math.Trunc(v) && !math.IsInf(v, 0) }
