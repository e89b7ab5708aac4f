package credit

import (
	"cmp"
	"math"
	"slices"

	"creditdash/internal/store"
	"creditdash/internal/upstream"
)

// PrevLookback is how many months before the latest the previous value is
// looked for: Pay scores are monthly, Z″ scores quarterly.
const PrevLookback = 3

// Latest is a business's latest value of one score and the one before it
// (at most PrevLookback months earlier).
type Latest struct {
	Year, Month int
	Value       float64
	Prev        *float64
	PrevYear    int
	PrevMonth   int
}

// ScoreSeries is one business's latest value of one score, with the month
// before it, as a rule reads them.
type ScoreSeries struct {
	BusinessID   int32
	BusinessName string
	Score        store.Score
	Latest       Latest
}

// monthValue is one month's value of a score.
type monthValue struct {
	month MonthIndex
	value float64
}

// inOrder sorts values by month and keeps the last of each month, as the
// service's order has it.
func inOrder(buf []monthValue) []monthValue {
	slices.SortStableFunc(buf, func(a, b monthValue) int { return cmp.Compare(a.month, b.month) })
	out := buf[:0]
	for _, s := range buf {
		if n := len(out); n > 0 && out[n-1].month == s.month {
			out[n-1] = s
			continue
		}
		out = append(out, s)
	}
	return out
}

// portfolioValues indexes a business's usable scores by month into buf's
// storage, reused from one business to the next.
func portfolioValues(buf []monthValue, scores []upstream.MonthlyScore) []monthValue {
	buf = buf[:0]
	for _, s := range scores {
		if s.Score.OK && s.Month >= 1 && s.Month <= 12 && !math.IsNaN(s.Score.V) && !math.IsInf(s.Score.V, 0) {
			buf = append(buf, monthValue{MonthOf(s.Year, s.Month), s.Score.V})
		}
	}
	return inOrder(buf)
}

// latestOf finds the latest month of a series in month order and its
// predecessor within PrevLookback months.
func latestOf(byMonth []monthValue) (Latest, bool) {
	if len(byMonth) == 0 {
		return Latest{}, false
	}
	last := byMonth[len(byMonth)-1]
	l := Latest{Year: last.month.Year(), Month: last.month.Month(), Value: last.value}
	for back := 1; back <= PrevLookback; back++ {
		m := last.month - MonthIndex(back)
		if i, ok := slices.BinarySearchFunc(byMonth, m, func(s monthValue, m MonthIndex) int { return cmp.Compare(s.month, m) }); ok {
			v := byMonth[i].value
			l.Prev, l.PrevYear, l.PrevMonth = &v, m.Year(), m.Month()
			break
		}
	}
	return l, true
}

// ReportSeries reads the four scores' latest values from a report's
// CreditScoreHistory.
func ReportSeries(id int32, name string, rows []upstream.CreditScoreHistoryRow) []ScoreSeries {
	by := map[store.Score][]monthValue{}
	put := func(s store.Score, y, m int, v float64) {
		if m < 1 || m > 12 || math.IsNaN(v) || math.IsInf(v, 0) {
			return
		}
		by[s] = append(by[s], monthValue{MonthOf(y, m), v})
	}
	for _, r := range rows {
		if r.RiskScore.OK {
			put(store.ScoreRisk, r.Year, r.Month, float64(r.RiskScore.V))
		}
		if r.PayScore.OK {
			put(store.ScorePay, r.Year, r.Month, float64(r.PayScore.V))
		}
		if r.DBTScore.OK {
			put(store.ScoreDBT, r.Year, r.Month, float64(r.DBTScore.V))
		}
		if r.ZScore.OK {
			put(store.ScoreZ, r.Year, r.Month, r.ZScore.V)
		}
	}
	var out []ScoreSeries
	for _, s := range store.Scores {
		if l, ok := latestOf(inOrder(by[s])); ok {
			out = append(out, ScoreSeries{BusinessID: id, BusinessName: name, Score: s, Latest: l})
		}
	}
	return out
}

// PortfolioSeries reads a portfolio history of score s (Pay or Z″): each
// business's latest value.
func PortfolioSeries(s store.Score, h upstream.PortfolioScoreHistory) []ScoreSeries {
	out := make([]ScoreSeries, 0, len(h.Businesses))
	var byMonth []monthValue
	for _, b := range h.Businesses {
		byMonth = portfolioValues(byMonth, b.Scores)
		if l, ok := latestOf(byMonth); ok {
			out = append(out, ScoreSeries{BusinessID: b.BusinessID, BusinessName: b.BusinessName, Score: s, Latest: l})
		}
	}
	return out
}

// PortfolioLatest reads each business's latest value from a portfolio
// score history, with the previous value for rules that compare months.
func PortfolioLatest(h upstream.PortfolioScoreHistory) map[int32]Latest {
	out := make(map[int32]Latest, len(h.Businesses))
	var byMonth []monthValue
	for _, b := range h.Businesses {
		byMonth = portfolioValues(byMonth, b.Scores)
		if l, ok := latestOf(byMonth); ok {
			out[b.BusinessID] = l
		}
	}
	return out
}
