package views

import "strings"

// NavLink is one link of a navigation list.
type NavLink struct {
	URL, Label string
	Current    bool
}

// portfolioPages are the portfolio's own pages, in the order its
// navigation lists them: the quadrant and the stress page were linked from
// nowhere, or from a sentence at the foot of a card.
var portfolioPages = []NavLink{
	{URL: "/portfolio", Label: "Folders"},
	{URL: "/portfolio/scores", Label: "Score map"},
	{URL: "/portfolio/quadrant", Label: "Two signals"},
	{URL: "/portfolio/stress", Label: "Folder stress"},
}

// PortfolioNav is the portfolio's navigation for a page of it at the
// request URI uri, the page's own link marked current; nil for any other
// page (a folder's page marks Folders).
func PortfolioNav(nav Nav, uri string) []NavLink {
	if nav != NavPortfolio && nav != NavScores {
		return nil
	}
	path, _, _ := strings.Cut(uri, "?")
	if strings.HasPrefix(path, "/portfolio/folders/") {
		path = "/portfolio"
	}
	out := make([]NavLink, len(portfolioPages))
	for i, p := range portfolioPages {
		p.Current = p.URL == path
		out[i] = p
	}
	return out
}
