package views

import (
	"cmp"
	"math"
	"slices"
	"strings"

	"creditdash/internal/upstream"
)

// ScoreKind is one of the four scores of CreditScoreHistory.
type ScoreKind int

// The four scores, in the order the overview shows them.
const (
	ScoreRisk ScoreKind = iota
	ScorePay
	ScoreDBT
	ScoreZ
)

// scoreKinds lists the kinds in display order.
var scoreKinds = [...]ScoreKind{ScoreRisk, ScorePay, ScoreDBT, ScoreZ}

// Name is the score's name as people read it.
func (k ScoreKind) Name() string {
	switch k {
	case ScoreRisk:
		return "Risk score"
	case ScorePay:
		return "Pay score"
	case ScoreDBT:
		return "DBT (days beyond terms)"
	default:
		return "Z″-Score (four-ratio)"
	}
}

// Scale says how to read the score.
func (k ScoreKind) Scale() string {
	switch k {
	case ScoreRisk, ScorePay:
		return "1–10, 10 safest"
	case ScoreDBT:
		return "days, lower is better"
	default:
		return "below 1.10 distress, above 2.60 safe"
	}
}

// short is the name used inside sentences and tooltips.
func (k ScoreKind) short() string {
	switch k {
	case ScoreRisk:
		return "Risk"
	case ScorePay:
		return "Pay"
	case ScoreDBT:
		return "DBT"
	default:
		return "Z″"
	}
}

// decimals is how many decimals the score is shown with.
func (k ScoreKind) decimals() int {
	if k == ScoreZ {
		return 2
	}
	return 0
}

// higherIsBetter says which way an improvement goes.
func (k ScoreKind) higherIsBetter() bool { return k != ScoreDBT }

// zone places a value of this score in its band.
func (k ScoreKind) zone(v float64) Zone {
	switch k {
	case ScoreRisk, ScorePay:
		return RiskZone(int(math.Round(v)))
	case ScoreDBT:
		return DBTZone(int(math.Round(v)))
	default:
		return ZScoreZone(v)
	}
}

// format shows a value of this score: "7", "3 days", "1.80".
func (k ScoreKind) format(v float64) string {
	s := Decimal(v, k.decimals())
	if k == ScoreDBT {
		if s == "1" {
			return "1 day"
		}
		return s + " days"
	}
	return s
}

// scorePoint is one month of one score; ok is false when the service had none.
type scorePoint struct {
	month monthIndex
	value float64
	ok    bool
}

// scoreHistory is the monthly history of every score, oldest first.
type scoreHistory struct {
	months []monthIndex
	points [len(scoreKinds)][]scorePoint
}

// of is the history of score k, nil for a kind there is none of.
func (h scoreHistory) of(k ScoreKind) []scorePoint {
	if k < 0 || int(k) >= len(h.points) {
		return nil
	}
	return h.points[k]
}

// newScoreHistory splits the rows per score by month. The service sends
// them oldest first, but the page must not depend on it: rows out of
// order are sorted in a copy.
func newScoreHistory(rows []upstream.CreditScoreHistoryRow) scoreHistory {
	order := func(a, b upstream.CreditScoreHistoryRow) int {
		return cmp.Compare(monthIndexOf(a.Year, a.Month), monthIndexOf(b.Year, b.Month))
	}
	if !slices.IsSortedFunc(rows, order) {
		rows = slices.Clone(rows)
		slices.SortStableFunc(rows, order)
	}
	n := len(rows)
	h := scoreHistory{months: make([]monthIndex, 0, n)}
	// One block for the four histories: a report makes a few of these.
	block := make([]scorePoint, 0, len(scoreKinds)*n)
	for _, k := range scoreKinds {
		h.points[k] = block[len(block) : len(block) : len(block)+n]
		block = block[:len(block)+n]
	}
	for _, r := range rows {
		m := monthIndexOf(r.Year, r.Month)
		h.months = append(h.months, m)
		h.points[ScoreRisk] = append(h.points[ScoreRisk], intPoint(m, r.RiskScore))
		h.points[ScorePay] = append(h.points[ScorePay], intPoint(m, r.PayScore))
		h.points[ScoreDBT] = append(h.points[ScoreDBT], intPoint(m, r.DBTScore))
		zp := scorePoint{month: m}
		if r.ZScore.OK && !math.IsNaN(r.ZScore.V) {
			zp.value, zp.ok = r.ZScore.V, true
		}
		h.points[ScoreZ] = append(h.points[ScoreZ], zp)
	}
	return h
}

func intPoint(m monthIndex, n upstream.Num[int]) scorePoint {
	v, ok := n.Get()
	return scorePoint{month: m, value: float64(v), ok: ok}
}

// lastReported is the newest point with a value.
func lastReported(pts []scorePoint) (scorePoint, bool) {
	for i := len(pts) - 1; i >= 0; i-- {
		if pts[i].ok {
			return pts[i], true
		}
	}
	return scorePoint{}, false
}

// at finds the point of month m.
func at(pts []scorePoint, m monthIndex) (scorePoint, bool) {
	for _, p := range pts {
		if p.month == m {
			return p, p.ok
		}
	}
	return scorePoint{}, false
}

// missingQuarters lists the quarters after the last reported month, for a
// quarterly score that stopped: "Q2 2026, Q3 2026, Q4 2026".
func missingQuarters(pts []scorePoint, after monthIndex) string {
	var qs []string
	for _, p := range pts {
		if p.month <= after || p.ok {
			continue
		}
		if q := p.month.quarter(); len(qs) == 0 || qs[len(qs)-1] != q {
			qs = append(qs, q)
		}
	}
	return strings.Join(qs, ", ")
}
