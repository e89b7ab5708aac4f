package views

import (
	"cmp"
	"slices"
	"strings"

	"creditdash/internal/credit"
	"creditdash/internal/upstream"
)

// RankScores narrows a portfolio score history to a folder's members
// (when byFolder) and orders it worst first by each business's latest
// score (when worst; businesses without one last, then by name), then
// keeps the page of size rows from offset. TotalResults is what is left
// before paging, so the pager counts the folder's businesses.
func RankScores(h upstream.PortfolioScoreHistory, members []Member, byFolder, worst bool, offset, size int) upstream.PortfolioScoreHistory {
	in := map[int32]bool{}
	for _, m := range members {
		in[m.ID] = true
	}
	rows := make([]upstream.PortfolioBusinessScores, 0, len(h.Businesses))
	for _, b := range h.Businesses {
		if !byFolder || in[b.BusinessID] {
			rows = append(rows, b)
		}
	}
	if worst {
		latest := credit.PortfolioLatest(upstream.PortfolioScoreHistory{Businesses: rows})
		slices.SortStableFunc(rows, func(a, b upstream.PortfolioBusinessScores) int {
			la, okA := latest[a.BusinessID]
			lb, okB := latest[b.BusinessID]
			switch {
			case okA && okB && la.Value != lb.Value:
				return cmp.Compare(la.Value, lb.Value)
			case okA != okB:
				if okA {
					return -1
				}
				return 1
			}
			return strings.Compare(a.BusinessName, b.BusinessName)
		})
	}
	out := h
	out.TotalResults = len(rows)
	lo := min(max(offset, 0), len(rows))
	out.Businesses = rows[lo:min(lo+size, len(rows))]
	return out
}
