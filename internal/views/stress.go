package views

import (
	"math"
	"slices"
	"strconv"

	"creditdash/internal/upstream"
)

// payWeakZoneMax is the highest Pay score of the weakest zones: 1–2
// severe and 3–4 high risk.
const payWeakZoneMax = 4

// StressPage is /portfolio/stress: each folder's share of businesses in
// the weakest Pay zones and its median Z″, month by month.
type StressPage struct {
	Base
	// NoMembers says the service does not list folder members, without
	// which no folder can be measured.
	NoMembers bool
	Problem   *Problem
	// Capped says the histories hold only the first businesses by name.
	Capped bool
	View   StressView
}

// StressView is the page's data: one entry per folder and the two charts,
// each with its table.
type StressView struct {
	Folders []StressFolder
	Share   ChartPanel
	MedianZ ChartPanel
	// Drawn is false when no folder has a score in any month: no charts.
	Drawn bool
}

// StressFolder is what the page says about one folder.
type StressFolder struct {
	Name, URL string
	Members   int
	// Rise names the month the share in Pay zones 1–4 rose most, or says
	// why no month can be named; it follows "Name: ".
	Rise string
	// Note counts the members and says which are not counted; "" for an
	// empty folder.
	Note string
}

// folderSeries is one folder's monthly measures, indexed like the months.
type folderSeries struct {
	name          string
	share, median []float64 // NaN where no member had a score
	weak, paid    []int     // members in Pay zones 1–4, members with a Pay score
	zCount        []int
}

// FolderStress measures every folder month by month from the portfolio's
// Pay and Z″ histories. members is PortfolioBusinesses for the whole
// portfolio: a business in several folders counts in each. Folders missing
// from folders but holding members are named by their id.
func FolderStress(folders []upstream.Folder, members []upstream.PortfolioBusiness, pay, z upstream.PortfolioScoreHistory) (StressView, error) {
	payBy, zBy := scoresByBusiness(pay), scoresByBusiness(z)
	months := monthSpan(pay, z)
	// Past the rows fetched (the first MovesCompared by name) a member has
	// no row at all: not measured, which is not having no score.
	capped := pay.TotalResults > len(pay.Businesses) || z.TotalResults > len(z.Businesses)
	fetched := map[int32]bool{}
	for _, b := range slices.Concat(pay.Businesses, z.Businesses) {
		fetched[b.BusinessID] = true
	}
	type membership struct {
		folder   int
		business int32
	}
	seen := map[membership]bool{}
	byFolder := map[int][]int32{}
	listed := map[int]bool{}
	for _, f := range folders {
		listed[f.FolderID] = true
	}
	order := slices.Clone(folders)
	for _, m := range members {
		k := membership{m.FolderID, m.BusinessID}
		if m.FolderID <= 0 || seen[k] {
			continue
		}
		seen[k] = true
		byFolder[m.FolderID] = append(byFolder[m.FolderID], m.BusinessID)
		if !listed[m.FolderID] {
			listed[m.FolderID] = true
			order = append(order, upstream.Folder{FolderID: m.FolderID})
		}
	}
	var v StressView
	var series []folderSeries
	for _, f := range order {
		ids := byFolder[f.FolderID]
		sf := StressFolder{Name: folderName(f), URL: FolderURL(f.FolderID), Members: len(ids)}
		s := measureFolder(sf.Name, ids, months, payBy, zBy)
		withPay, withZ, unmeasured := 0, 0, 0
		for _, id := range ids {
			if len(payBy[id]) > 0 {
				withPay++
			}
			if len(zBy[id]) > 0 {
				withZ++
			}
			if capped && !fetched[id] {
				unmeasured++
			}
		}
		switch {
		case len(ids) == 0:
			sf.Rise = "no businesses in this folder."
		case unmeasured == len(ids):
			verb := " come"
			if len(ids) == 1 {
				verb = " comes"
			}
			sf.Rise = "not measured: only the first " + Int(MovesCompared) + " businesses by name are, and its " + businesses(len(ids)) + verb + " after them."
		case withPay == 0 && withZ == 0:
			sf.Rise = "none of its " + businesses(len(ids)) + " has a Pay score or a Z″ in these months."
		default:
			sf.Rise = biggestRise(months, s)
			sf.Note = uncounted(len(ids), withPay, withZ, unmeasured)
			series = append(series, s)
		}
		v.Folders = append(v.Folders, sf)
	}
	if len(series) == 0 {
		return v, nil
	}
	var err error
	v.Drawn = true
	if v.Share, err = shareChart(months, series); err != nil {
		return v, err
	}
	v.MedianZ, err = medianZChart(months, series)
	return v, err
}

// scoresByBusiness keeps each business's reported scores by month.
func scoresByBusiness(h upstream.PortfolioScoreHistory) map[int32]map[monthIndex]float64 {
	out := map[int32]map[monthIndex]float64{}
	for _, b := range h.Businesses {
		for _, s := range b.Scores {
			if !s.Score.OK || math.IsNaN(s.Score.V) || s.Month < 1 || s.Month > 12 {
				continue
			}
			if out[b.BusinessID] == nil {
				out[b.BusinessID] = map[monthIndex]float64{}
			}
			out[b.BusinessID][monthIndexOf(s.Year, s.Month)] = s.Score.V
		}
	}
	return out
}

// maxStressMonths bounds the months folder stress follows, as the score
// map's do.
const maxStressMonths = 36

// monthSpan is every month from the oldest to the newest with a score in
// either history, gaps included, so the axis keeps time's true spacing,
// and at most the newest maxStressMonths.
func monthSpan(hs ...upstream.PortfolioScoreHistory) []monthIndex {
	first, last, found := monthIndex(0), monthIndex(0), false
	for _, h := range hs {
		for _, b := range h.Businesses {
			for _, s := range b.Scores {
				if !s.Score.OK || s.Month < 1 || s.Month > 12 {
					continue
				}
				m := monthIndexOf(s.Year, s.Month)
				if !found || m < first {
					first = m
				}
				if !found || m > last {
					last = m
				}
				found = true
			}
		}
	}
	if !found {
		return nil
	}
	// A stray score years back must not stretch every folder's series
	// over the years between: the span ends with the newest month.
	first = max(first, last-(maxStressMonths-1))
	out := make([]monthIndex, 0, last-first+1)
	for m := first; m <= last; m++ {
		out = append(out, m)
	}
	return out
}

// measureFolder computes the share in Pay zones 1–4 among the members with
// a Pay score that month, and the median of their Z″.
func measureFolder(name string, ids []int32, months []monthIndex, payBy, zBy map[int32]map[monthIndex]float64) folderSeries {
	s := folderSeries{name: name, share: make([]float64, len(months)), median: make([]float64, len(months)),
		weak: make([]int, len(months)), paid: make([]int, len(months)), zCount: make([]int, len(months))}
	zs := make([]float64, 0, len(ids))
	for i, m := range months {
		zs = zs[:0]
		for _, id := range ids {
			if p, ok := payBy[id][m]; ok {
				s.paid[i]++
				if math.Round(p) <= payWeakZoneMax {
					s.weak[i]++
				}
			}
			if v, ok := zBy[id][m]; ok {
				zs = append(zs, v)
			}
		}
		// Rounded once, as it is shown: the median of 2.59 and 2.62 is 2.60,
		// grey, not a "safe" 2.605 written 2.60.
		s.share[i], s.median[i], s.zCount[i] = math.NaN(), round(median(zs), 2), len(zs)
		if s.paid[i] > 0 {
			s.share[i] = 100 * float64(s.weak[i]) / float64(s.paid[i])
		}
	}
	return s
}

// median is the middle value (the mean of the two middle ones for an even
// count), NaN for none. It sorts vals.
func median(vals []float64) float64 {
	n := len(vals)
	if n == 0 {
		return math.NaN()
	}
	slices.Sort(vals)
	if n%2 == 1 {
		return vals[n/2]
	}
	return (vals[n/2-1] + vals[n/2]) / 2
}

// biggestRise names the month whose share rose most over the month before
// it with Pay scores; on a tie the later month, the more pressing one.
func biggestRise(months []monthIndex, s folderSeries) string {
	prev, best, bestAt, seen := -1, 0.0, -1, 0
	bestFrom := -1
	for i := range months {
		if math.IsNaN(s.share[i]) {
			continue
		}
		seen++
		if prev >= 0 {
			if d := s.share[i] - s.share[prev]; d > 0 && d >= best {
				best, bestAt, bestFrom = d, i, prev
			}
		}
		prev = i
	}
	switch {
	case seen == 0:
		return "no business has a Pay score in these months, so no share can be given."
	case seen == 1:
		return "only one month has Pay scores, so no rise can be measured."
	case bestAt < 0:
		return "the share in Pay zones 1–4 never rose from one month to the next."
	}
	from, to := sharePercents(s.share[bestFrom], s.share[bestAt])
	out := "the share in Pay zones 1–4 rose most in " + months[bestAt].param() + ", from " + from + " to " + to
	if bestFrom != bestAt-1 {
		out += " (against " + months[bestFrom].param() + ", the last month before it with Pay scores)"
	}
	return out + "."
}

// uncounted counts the members and says which have no score of a kind in
// any of these months, and which were past the rows fetched.
func uncounted(members, withPay, withZ, unmeasured int) string {
	out := businesses(members)
	if withPay == members && withZ == members {
		return out + ", each with a Pay score and a Z″."
	}
	if unmeasured > 0 {
		out += "; " + Int(int64(unmeasured)) + " past the first " + Int(MovesCompared) + " by name not measured"
	}
	measured := members - unmeasured
	if withPay < measured {
		out += "; " + Int(int64(measured-withPay)) + " without a Pay score (thin trade file) left out of the share"
	}
	if withZ < measured {
		out += "; " + Int(int64(measured-withZ)) + " without a Z″ (private company) left out of the median"
	}
	return out + "."
}

// businesses counts businesses: "1 business", "3 businesses".
func businesses(n int) string {
	if n == 1 {
		return "1 business"
	}
	return strconv.Itoa(n) + " businesses"
}

// sharePercent is a share as a whole percentage: "25 %".
func sharePercent(v float64) string {
	return strconv.Itoa(int(math.Round(v))) + " %"
}

// sharePercents writes a rise's two shares with as few decimals as tell
// them apart: "from 13 % to 13 %" would say nothing rose.
func sharePercents(from, to float64) (string, string) {
	if f, t := sharePercent(from), sharePercent(to); f != t {
		return f, t // whole, as the table shows them
	}
	for prec := 1; prec < 3; prec++ {
		f, t := strconv.FormatFloat(from, 'f', prec, 64), strconv.FormatFloat(to, 'f', prec, 64)
		if f != t {
			return f + " %", t + " %"
		}
	}
	return strconv.FormatFloat(from, 'f', 3, 64) + " %", strconv.FormatFloat(to, 'f', 3, 64) + " %"
}
