package policy

import (
	"math"
	"sync"
)

// Result is one model's validation.
type Result struct {
	Model     Model
	Figures   Figures
	Intervals Intervals
	// Classes are the bad rates of its classes, safest first.
	Classes []ClassRate
	// Obs are its observations, month by month.
	Obs []Obs
}

// Report is every model validated on one history.
type Report struct {
	Definition Definition
	// Months are the history's months (YYYYMM); Scored the month-ends
	// scored, those with a whole window after them.
	Months, Scored []int
	Results        []Result
}

// trendMonths is how far back the balance trend looks.
const trendMonths = 3

// Validate scores every account at every month-end that has a whole
// window of def.Horizon months after it, with each model, against
// whether it defaults in that window. An account already in default at
// a month-end is not scored then: it has nothing left to predict. An
// account that leaves the ledgers within the window without defaulting
// counts as good: the team saw no default.
func Validate(h *History, def Definition, models []Model) (*Report, error) {
	if err := h.check(def); err != nil {
		return nil, err
	}
	for _, m := range models {
		if err := checkClasses(m.Classes); err != nil {
			return nil, err
		}
	}
	g := place(h, def)
	first := make([]int, len(h.Accounts))
	for a := range first {
		first[a] = -1
	}
	for m, lines := range h.Lines {
		for i := range lines {
			if a := lines[i].Account; first[a] < 0 {
				first[a] = m
			}
		}
	}
	last := len(h.Months) - 1 - def.Horizon
	rep := &Report{Definition: def, Months: h.Months, Scored: h.Months[:last+1], Results: make([]Result, len(models))}
	size := 0
	for m := 0; m <= last; m++ {
		size += len(h.Lines[m])
	}
	for i := range models {
		rep.Results[i] = Result{Model: models[i], Obs: make([]Obs, 0, size)}
	}
	for m := 0; m <= last; m++ {
		lines := h.Lines[m]
		for i := range lines {
			l := &lines[i]
			a := int(l.Account)
			if g.bad[a*g.months+m] {
				continue
			}
			var before *Line
			if m >= trendMonths {
				if at := g.at[a*g.months+m-trendMonths]; at > 0 {
					before = &h.Lines[m-trendMonths][at-1]
				}
			}
			f := featuresOf(l, before, m, first[a])
			bad := g.outcome(a, m, def.Horizon)
			for k := range models {
				s, ok := models[k].score(&f)
				if !ok {
					continue
				}
				s = min(max(s, math.MinInt32), math.MaxInt32)
				rep.Results[k].Obs = append(rep.Results[k].Obs, Obs{Account: l.Account, Month: int16(m), Score: int32(s), Bad: bad})
			}
		}
	}
	// The models' figures are apart from each other: one goroutine each
	// (the bootstrap is most of the time).
	var wg sync.WaitGroup
	for i := range rep.Results {
		r := &rep.Results[i]
		wg.Go(func() {
			r.Figures = Measure(r.Obs)
			var rates []Interval
			r.Intervals, rates = bootstrap(r.Obs, BootstrapDraws, BootstrapSeed, r.Model.Classes)
			r.Classes = BadRates(r.Obs, r.Model.Classes)
			for k := range r.Classes {
				r.Classes[k].Interval = rates[k]
			}
		})
	}
	wg.Wait()
	return rep, nil
}
