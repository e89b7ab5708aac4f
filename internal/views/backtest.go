package views

import (
	"math"
	"slices"

	"creditdash/internal/credit"
	"creditdash/internal/store"
	"creditdash/internal/upstream"
)

// A back-test replays an alert rule over the portfolio's monthly score
// histories, as if it had been on all along. It uses credit.Fires, the very
// condition the live rules use, month by month, so a back-test and the rule
// it turns on agree.

// Back-test windows, in months.
const (
	BacktestMinMonths     = 6
	BacktestMaxMonths     = 36
	BacktestDefaultMonths = 24
)

// Outcome is what followed a firing.
type Outcome int

// The outcomes.
const (
	// TooRecent: the business has no later month in the window, so
	// nothing followed the firing yet.
	TooRecent Outcome = iota
	// Deterioration: a later month in the window has a worse score than
	// the firing's month. A score that merely stays where it was is not
	// one: under "Pay below 4" a 3 that stays 3 would otherwise count.
	Deterioration
	// NoDeterioration: no later month is worse and the condition stopped
	// holding before the window's end (a false alarm, as far as the
	// window tells).
	NoDeterioration
	// StillTrue: no later month is worse but the condition still held at
	// the window's end, so the window cannot tell a false alarm from one
	// whose trouble is yet to come; counted apart from both.
	StillTrue
)

// Firing is one month in which the rule fired for a business.
type Firing struct {
	BusinessID   int32
	BusinessName string
	Month        monthIndex
	Value        float64
	// Prev is the value the condition compared with (the previous month
	// with a value, within the lookback), nil without one.
	Prev *float64
	// Worst is the business's worst value after the firing month, and
	// Lead the months from the firing to it (the earliest if it recurs);
	// both are meaningless for TooRecent.
	Worst   float64
	Lead    int
	Outcome Outcome
}

// Replay is a back-test's result.
type Replay struct {
	// Months are the window's months, oldest first, and Alerts the
	// firings in each.
	Months []monthIndex
	Alerts []int
	// Firings in month order, then by business as the history lists them.
	Firings []Firing
	// Businesses counts those in scope with at least one value in the
	// window; Fired those that fired at least once.
	Businesses, Fired int
}

// ReplayRule replays rule over the businesses of hist that in admits (the
// rule's scope), over the months months ending at the newest month hist
// holds. A business fires in month m when the condition holds at m and did
// not at its previous month with a value; the first month with a value in
// the window only sets that state, and a month without a value neither
// fires nor resets it. No months in hist gives an empty Replay.
func ReplayRule(rule store.RuleSpec, hist upstream.PortfolioScoreHistory, in func(int32) bool, months int) Replay {
	months = min(max(months, 1), BacktestMaxMonths)
	end, ok := historyEnd(hist)
	if !ok {
		return Replay{}
	}
	start := end - monthIndex(months-1)
	out := Replay{Months: make([]monthIndex, months), Alerts: make([]int, months)}
	for i := range out.Months {
		out.Months[i] = start + monthIndex(i)
	}
	var byMonth monthScores
	var holds []bool
	for _, b := range hist.Businesses {
		if in != nil && !in(b.BusinessID) {
			continue
		}
		byMonth = monthValues(byMonth, b.Scores)
		lo, _ := slices.BinarySearchFunc(byMonth, start, func(s monthScore, m monthIndex) int { return int(s.month - m) })
		if lo == len(byMonth) || byMonth[lo].month > end {
			continue
		}
		out.Businesses++
		// Whether the condition holds at each month of the window; the
		// firings need it to tell whether they still held at its end.
		holds = holds[:0]
		hi := lo
		for ; hi < len(byMonth) && byMonth[hi].month <= end; hi++ {
			holds = append(holds, credit.Fires(rule, replaySeries(b, rule.Score, byMonth, hi)))
		}
		// A firing after the last month the condition did not hold still
		// holds at the window's end.
		lastOff := -1
		for k, h := range holds {
			if !h {
				lastOff = k
			}
		}
		fired := false
		for k := 1; k < len(holds); k++ {
			if !holds[k] || holds[k-1] {
				continue
			}
			i := lo + k
			s := replaySeries(b, rule.Score, byMonth, i)
			f := Firing{BusinessID: b.BusinessID, BusinessName: b.BusinessName, Month: byMonth[i].month, Value: s.Latest.Value, Prev: s.Latest.Prev}
			follow(&f, rule.Score, byMonth[i+1:hi], k > lastOff)
			out.Firings = append(out.Firings, f)
			out.Alerts[byMonth[i].month-start]++
			fired = true
		}
		if fired {
			out.Fired++
		}
	}
	slices.SortStableFunc(out.Firings, func(a, b Firing) int { return int(a.Month - b.Month) })
	return out
}

// historyEnd is the newest month any business of hist has a value in.
func historyEnd(hist upstream.PortfolioScoreHistory) (monthIndex, bool) {
	var end monthIndex
	ok := false
	for _, b := range hist.Businesses {
		for _, s := range b.Scores {
			if usableScore(s) {
				if m := monthIndexOf(s.Year, s.Month); !ok || m > end {
					end, ok = m, true
				}
			}
		}
	}
	return end, ok
}

// replaySeries is month i of a business as a live rule would read it: that
// month's value and the previous one within the lookback.
func replaySeries(b upstream.PortfolioBusinessScores, score store.Score, byMonth monthScores, i int) credit.ScoreSeries {
	m := byMonth[i].month
	l := credit.Latest{Year: m.year(), Month: m.month(), Value: byMonth[i].value}
	if i > 0 && m-byMonth[i-1].month <= credit.PrevLookback {
		prev := byMonth[i-1]
		v := prev.value
		l.Prev, l.PrevYear, l.PrevMonth = &v, prev.month.year(), prev.month.month()
	}
	return credit.ScoreSeries{BusinessID: b.BusinessID, BusinessName: b.BusinessName, Score: score, Latest: l}
}

// follow finds the worst value after a firing among later, the
// business's months after it up to the window's end, and what followed:
// deterioration when one of them is worse than the firing's own value;
// otherwise still true when the condition held to the window's end
// (stillTrue), no deterioration when it stopped holding.
func follow(f *Firing, score store.Score, later monthScores, stillTrue bool) {
	if len(later) == 0 {
		f.Outcome = TooRecent
		return
	}
	for k, s := range later {
		v := credit.Shown(score, s.value)
		if k == 0 || worse(score, v, f.Worst) {
			f.Worst, f.Lead = v, int(s.month-f.Month)
		}
	}
	switch {
	case worse(score, f.Worst, credit.Shown(score, f.Value)):
		f.Outcome = Deterioration
	case stillTrue:
		f.Outcome = StillTrue
	default:
		f.Outcome = NoDeterioration
	}
}

// worse reports whether a is a worse value of the score than b.
func worse(score store.Score, a, b float64) bool {
	if score.HigherIsBetter() {
		return a < b
	}
	return a > b
}

// MedianLead is the median lead time, in months, of the firings followed
// by deterioration; ok is false when there are none.
func (r Replay) MedianLead() (float64, bool) {
	var leads []float64
	for _, f := range r.Firings {
		if f.Outcome == Deterioration {
			leads = append(leads, float64(f.Lead))
		}
	}
	m := median(leads)
	return m, !math.IsNaN(m)
}

// Outcomes counts the firings by outcome.
func (r Replay) Outcomes() (deterioration, none, stillTrue, recent int) {
	for _, f := range r.Firings {
		switch f.Outcome {
		case Deterioration:
			deterioration++
		case NoDeterioration:
			none++
		case StillTrue:
			stillTrue++
		default:
			recent++
		}
	}
	return
}

// PerMonth is the mean number of alerts a month over the window.
func (r Replay) PerMonth() float64 {
	if len(r.Months) == 0 {
		return 0
	}
	return float64(len(r.Firings)) / float64(len(r.Months))
}
