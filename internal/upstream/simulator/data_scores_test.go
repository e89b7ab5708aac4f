package simulator

import (
	"math"
	"testing"
)

func TestDataScoreHistories(t *testing.T) {
	for _, d := range genTestDatasets(t) {
		e := &genErrs{t: t}
		asOf, _ := genParseMonth(d.AsOf)
		for i := range d.Businesses {
			b := &d.Businesses[i]
			n := len(b.Scores)
			if n < 24 || n > 36 {
				e.Errorf("business %d: %d months of scores, want 24-36", b.ID, n)
			}
			thin := true
			for k, s := range b.Scores {
				mo := genMonth(s.Year*12 + s.Month - 1)
				if want := asOf - genMonth(n-1-k); mo != want {
					e.Errorf("business %d: scores[%d] is %s, want %s (oldest first, no gaps)", b.ID, k, mo, want)
				}
				switch {
				case s.Risk == nil || *s.Risk < 1 || *s.Risk > 10:
					e.Errorf("business %d %s: Risk %v, want 1-10", b.ID, mo, s.Risk)
				case s.AverageRisk == nil || *s.AverageRisk < 1 || *s.AverageRisk > 10 || math.Round(*s.AverageRisk) != float64(*s.Risk):
					e.Errorf("business %d %s: AverageRisk %v does not round to Risk %d", b.ID, mo, s.AverageRisk, *s.Risk)
				case s.DBT == nil || *s.DBT < 0 || *s.DBT > 120:
					e.Errorf("business %d %s: DBT %v, want 0-120", b.ID, mo, s.DBT)
				case s.Pay != nil && (*s.Pay < 1 || *s.Pay > 10):
					e.Errorf("business %d %s: Pay %d, want 1-10", b.ID, mo, *s.Pay)
				case s.Z != nil && (*s.Z < -4 || *s.Z > 12 || *s.Z != genRound2(*s.Z)):
					e.Errorf("business %d %s: Z %v, want -4 to 12 with two decimals", b.ID, mo, *s.Z)
				case s.Z != nil && !b.Public:
					e.Errorf("business %d %s: private business with a Z-Score", b.ID, mo)
				case s.Z == nil && b.Public && b.Story != StoryZScoreMissing:
					e.Errorf("business %d %s: public business without a Z-Score", b.ID, mo)
				}
				thin = thin && s.Pay == nil
			}
			if thin != (b.Story == StoryThinTradeFile) {
				e.Errorf("business %d: no Pay score at all = %v, but Story = %q", b.ID, thin, b.Story)
			}
			if thin && b.Public {
				e.Errorf("business %d: a public business with a thin trade file", b.ID)
			}
		}
	}
}

// TestDataZQuarterly checks the quarterly rule: the months of a calendar
// quarter carry one value, or none.
func TestDataZQuarterly(t *testing.T) {
	for _, d := range genTestDatasets(t) {
		e := &genErrs{t: t}
		for i := range d.Businesses {
			b := &d.Businesses[i]
			byQuarter := map[int]*float64{}
			for _, s := range b.Scores {
				q := genMonth(s.Year*12 + s.Month - 1).quarter()
				prev, seen := byQuarter[q]
				switch {
				case !seen:
					byQuarter[q] = s.Z
				case (prev == nil) != (s.Z == nil) || (prev != nil && *prev != *s.Z):
					e.Errorf("business %d %d-%02d: Z %v differs within its quarter (%v)", b.ID, s.Year, s.Month, s.Z, prev)
				}
			}
		}
	}
}

func TestDataScoreMovement(t *testing.T) {
	d := genTestDataset(t)
	e := &genErrs{t: t}
	var moves, still, slid int
	for i := range d.Businesses {
		b := &d.Businesses[i]
		best := 0
		for k := 1; k < len(b.Scores); k++ {
			r0, r1 := *b.Scores[k-1].Risk, *b.Scores[k].Risk
			if r1-r0 > 1 || r0-r1 > 1 {
				e.Errorf("business %d: Risk moved %d -> %d in one month", b.ID, r0, r1)
			}
			if p0, p1 := b.Scores[k-1].Pay, b.Scores[k].Pay; p0 != nil && p1 != nil && (*p1-*p0 > 1 || *p0-*p1 > 1) {
				e.Errorf("business %d: Pay moved %d -> %d in one month", b.ID, *p0, *p1)
			}
			moves++
			if r0 == r1 {
				still++
			}
			if k >= len(b.Scores)-12 {
				best = max(best, r0)
			}
		}
		if latest := *b.Scores[len(b.Scores)-1].Risk; latest <= 4 && best-latest >= 2 {
			slid++
		}
	}
	if share := float64(still) / float64(moves); share < 0.75 {
		t.Errorf("Risk unchanged in %.0f%% of months, want most (>= 75%%)", share*100)
	}
	if slid < 10 {
		t.Errorf("%d weak businesses slid 2+ points in the last year, want distressed slides to show", slid)
	}
}

func TestDataPopulation(t *testing.T) {
	for _, d := range genTestDatasets(t) {
		var public, private, thin int
		var risk [11]int
		for i := range d.Businesses {
			b := &d.Businesses[i]
			if b.Public {
				public++
			} else {
				private++
				if b.Story == StoryThinTradeFile {
					thin++
				}
			}
			risk[*b.Scores[len(b.Scores)-1].Risk]++
		}
		n := float64(len(d.Businesses))
		if s := float64(public) / n; s < 0.55 || s > 0.65 {
			t.Errorf("seed %d: %.1f%% public, want about 60%%", d.Seed, s*100)
		}
		if s := float64(thin) / float64(private); s < 0.10 || s > 0.15 {
			t.Errorf("seed %d: %.1f%% of private businesses have no Pay score, want 10-15%%", d.Seed, s*100)
		}
		for r := 1; r <= 10; r++ {
			got, want := float64(risk[r])/n, genRiskShares[r-1]
			if math.Abs(got-want) > 0.02 {
				t.Errorf("seed %d: latest Risk %d for %.1f%% of businesses, want %.0f%% (±2)", d.Seed, r, got*100, want*100)
			}
		}
	}
}

// TestDataZFollowsRisk checks that the two views of credit quality agree in
// the large: strong Risk scores come with safe Z-Scores, weak with distress.
func TestDataZFollowsRisk(t *testing.T) {
	d := genTestDataset(t)
	var sum [3]float64
	var count [3]int
	for i := range d.Businesses {
		last := d.Businesses[i].Scores[len(d.Businesses[i].Scores)-1]
		if last.Z == nil {
			continue
		}
		band := 1
		switch {
		case *last.Risk <= 3:
			band = 0
		case *last.Risk >= 8:
			band = 2
		}
		sum[band] += *last.Z
		count[band]++
	}
	weak, strong := sum[0]/float64(count[0]), sum[2]/float64(count[2])
	if weak >= 1.1 || strong <= 2.6 {
		t.Errorf("mean Z-Score: %.2f for Risk 1-3 (want distress, < 1.1), %.2f for Risk 8-10 (want safe, > 2.6)", weak, strong)
	}
}
