package simulator

import (
	"cmp"
	"net/http"
	"slices"
	"strconv"
	"strings"
)

const (
	defaultSearchCount = 20
	maxSearchCount     = 200
)

// searchRoutes are the search's operation.
func (s *Server) searchRoutes() routeTable {
	return routeTable{"/v1/Business/Search": getOp(s.search)}
}

// search answers Business/Search (ours) over the dataset's businesses (bulk
// ones are not searched): an exact id first, then names that start with q,
// then names that contain it, case-insensitively, each group by name.
func (s *Server) search(c *call) (any, *apiError) {
	q := strings.TrimSpace(c.q.Get(paramQuery))
	if q == "" {
		return nil, errf(http.StatusBadRequest, CodeMissingParameter, "q, the text to search for, is required.")
	}
	count, e := positiveInt(c.q, paramCount, defaultSearchCount)
	if e != nil {
		return nil, e
	}
	count = min(count, maxSearchCount)
	type hit struct {
		rank int
		b    *Business
	}
	var hits []hit
	lq := strings.ToLower(q)
	for i := range s.ds.Businesses {
		b := &s.ds.Businesses[i]
		name := strings.ToLower(b.Name)
		switch {
		case strconv.Itoa(int(b.ID)) == q:
			hits = append(hits, hit{0, b})
		case strings.HasPrefix(name, lq):
			hits = append(hits, hit{1, b})
		case strings.Contains(name, lq):
			hits = append(hits, hit{2, b})
		}
	}
	slices.SortFunc(hits, func(x, y hit) int {
		return cmp.Or(cmp.Compare(x.rank, y.rank), cmp.Compare(x.b.Name, y.b.Name), cmp.Compare(x.b.ID, y.b.ID))
	})
	out := make([]wireSearchResult, 0, min(len(hits), count))
	for _, h := range hits[:min(len(hits), count)] {
		out = append(out, wireSearchResult{BusinessId: h.b.ID, BusinessName: h.b.Name, City: h.b.City, State: h.b.State})
	}
	return out, nil
}
