package main

import (
	"fmt"
	"slices"
	"strings"
)

// page is one kind of page Lighthouse opens: a short name, its path (with
// {folder} and {snapshot} filled in once the demo data is known) and the
// demo user it is seen as ("" is signed out).
type page struct {
	name  string
	route string
	user  string
}

// path is the page's path with the prepared ids in it, or "" when one is
// missing.
func (p page) path(ids preparedIDs) string {
	r := p.route
	for key, id := range map[string]string{"{folder}": ids.folder, "{snapshot}": ids.snapshot} {
		if strings.Contains(r, key) {
			if id == "" {
				return ""
			}
			r = strings.ReplaceAll(r, key, id)
		}
	}
	return r
}

// allPages are the kinds of page issue 14 audits: the home page and its
// search results, each report tab, the portfolio, a folder, both score maps,
// industry news, compare, the quadrant, folder stress, the trade-provider
// choice (as the user who has one to make), the workspace pages, a dated
// copy and the sign-in page.
var allPages = []page{
	{"home", "/", "demo"},
	{"search", "/?q=North", "demo"},
	{"report", "/businesses/1001", "demo"},
	{"payments", "/businesses/1001/payments", "demo"},
	{"financials", "/businesses/1001/financials", "demo"},
	{"officers", "/businesses/1001/officers", "demo"},
	{"portfolio", "/portfolio", "demo"},
	{"folder", "/portfolio/folders/{folder}", "demo"},
	{"scores-pay", "/portfolio/scores?score=pay", "demo"},
	{"scores-z", "/portfolio/scores?score=z", "demo"},
	{"news", "/news/industry", "demo"},
	{"compare", "/compare?ids=1001,1002", "demo"},
	{"quadrant", "/portfolio/quadrant", "demo"},
	{"stress", "/portfolio/stress", "demo"},
	{"trade", "/settings/trade-provider", "trade"},
	{"watchlist", "/watchlist", "demo"},
	{"alerts", "/alerts", "demo"},
	{"snapshots", "/snapshots", "demo"},
	{"snapshot", "/snapshots/{snapshot}", "demo"},
	{"snapshot-compare", "/snapshots/{snapshot}/compare", "demo"},
	{"workspace", "/settings/workspace", "demo"},
	{"sign-in", "/login", ""},
}

func pageNames() []string {
	names := make([]string, len(allPages))
	for i, p := range allPages {
		names[i] = p.name
	}
	return names
}

// selectPages picks the pages a -pages list names, in the table's order.
func selectPages(list string) ([]page, error) {
	if strings.TrimSpace(list) == "" {
		return allPages, nil
	}
	want := map[string]bool{}
	for _, n := range strings.Split(list, ",") {
		n = strings.TrimSpace(n)
		if n == "" {
			continue
		}
		if !slices.Contains(pageNames(), n) {
			return nil, fmt.Errorf("lighthouse: no page %q; the pages are %s", n, strings.Join(pageNames(), ","))
		}
		want[n] = true
	}
	var out []page
	for _, p := range allPages {
		if want[p.name] {
			out = append(out, p)
		}
	}
	return out, nil
}
