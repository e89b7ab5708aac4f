package simulator

import (
	"cmp"
	"slices"
	"time"
)

const (
	// maxIndustryNews is the specification's cap on industry news.
	maxIndustryNews = 20
	// maxPortfolioNews caps folder and portfolio news (ours): a feed, not an archive.
	maxPortfolioNews = 100
	// maxNewsBusinesses caps how many businesses feed one news answer, which
	// matters only for the bulk portfolio.
	maxNewsBusinesses = 1000
)

// newsRoutes are the news operations; a folder's news is matched by its
// prefix and tail (match).
func (s *Server) newsRoutes() routeTable {
	return routeTable{
		folderNewsPath:        getOp(s.folderNews),
		"/v1/Industries/News": getOp(s.industryNews),
		"/v1/News":            getOp(s.news),
	}
}

// folderNews answers Portfolio/Folders/{FolderId}/News: the news of the
// folder's businesses, newest first.
func (s *Server) folderNews(c *call) (any, *apiError) {
	f, e := findFolder(c.acct, c.folderID)
	if e != nil {
		return nil, e
	}
	return s.newsOf(c.acct, f), nil
}

// news answers News (ours): the news of the whole portfolio, newest first.
func (s *Server) news(c *call) (any, *apiError) {
	return s.newsOf(c.acct, nil), nil
}

func (s *Server) newsOf(acct *account, folder *Folder) []wireNewsItem {
	limit := maxNewsBusinesses
	if acct.bulk {
		limit = bulkSample
	}
	var items []NewsItem
	seen := map[int64]bool{}
	for _, b := range s.fullBusinesses(acct, folder, limit) {
		for _, n := range b.News {
			if !seen[n.ID] {
				seen[n.ID] = true
				items = append(items, n)
			}
		}
	}
	return newestNews(items, maxPortfolioNews)
}

// industryNews answers Industries/News: the top stories of the user's main
// industry, the most common two-digit NAICS sector of the portfolio.
func (s *Server) industryNews(c *call) (any, *apiError) {
	c.acct.sectorOnce.Do(func() { c.acct.sector = s.mainSector(c.acct) })
	return newestNews(s.ds.IndustryNews[c.acct.sector], maxIndustryNews), nil
}

// mainSector counts the primary NAICS sector of each business once; ties go
// to the lowest sector so the answer is stable.
func (s *Server) mainSector(acct *account) string {
	businesses := acct.sorted
	if acct.bulk {
		businesses = s.portfolioRange(acct, 0, bulkSample)
	}
	counts := map[string]int{}
	best := ""
	for _, b := range businesses {
		if len(b.NAICS) == 0 || len(b.NAICS[0].Code) < 2 {
			continue
		}
		sector := b.NAICS[0].Code[:2]
		counts[sector]++
		n, bn := counts[sector], counts[best]
		if n > bn || (n == bn && sector < best) {
			best = sector
		}
	}
	return best
}

// newestNews orders stories newest first (by pubDate, then id) and keeps at
// most limit, as wire items.
func newestNews(items []NewsItem, limit int) []wireNewsItem {
	type dated struct {
		at time.Time
		n  NewsItem
	}
	ds := make([]dated, 0, len(items))
	for _, n := range items {
		at, err := time.Parse(time.RFC1123, n.PubDate)
		if err != nil {
			at, _ = time.Parse(time.RFC1123Z, n.PubDate)
		}
		ds = append(ds, dated{at, n})
	}
	slices.SortStableFunc(ds, func(a, b dated) int {
		return cmp.Or(b.at.Compare(a.at), cmp.Compare(b.n.ID, a.n.ID))
	})
	out := make([]wireNewsItem, 0, min(len(ds), limit))
	for _, d := range ds[:min(len(ds), limit)] {
		out = append(out, wireNewsItem(d.n))
	}
	return out
}
