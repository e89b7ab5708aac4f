package credit

import "creditdash/internal/store"

// Fires decides whether a rule fires on a series; the caller has checked
// that the rule is about this business.
func Fires(r store.RuleSpec, s ScoreSeries) bool {
	if r.Score != s.Score {
		return false
	}
	now := Shown(s.Score, s.Latest.Value)
	switch r.Condition {
	case store.Below:
		return now < r.Threshold
	case store.Above:
		return now > r.Threshold
	case store.Fall:
		if s.Latest.Prev == nil {
			return false
		}
		// The change is rounded as the values are shown: 2.09 - 1.97 in
		// floating point is 0.11999…, and "at least 0.12" must hold.
		d := Shown(s.Score, Shown(s.Score, *s.Latest.Prev)-now)
		if !s.Score.HigherIsBetter() {
			d = -d
		}
		return d >= r.Threshold
	case store.WorseZone:
		if s.Latest.Prev == nil {
			return false
		}
		was, is := ScoreZone(s.Score, *s.Latest.Prev), ScoreZone(s.Score, s.Latest.Value)
		return was.Level != LevelNone && is.Level != LevelNone && is.Level < was.Level
	}
	return false
}
