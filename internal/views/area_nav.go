package views

import "strings"

// NavLink is one link of a navigation list.
type NavLink struct {
	URL, Label string
	Current    bool
}

// area is one part of the dashboard with pages of its own, listed under
// the main navigation on every page of it, so that none of its pages is
// reached only from a sentence on another.
type area struct {
	label string
	navs  []Nav
	pages []NavLink
	// under maps the paths of pages that are not in the list to the page
	// they belong to, by prefix ("/decisions/" marks Decisions).
	under [][2]string
	// apart are the paths, by prefix, of pages of the area that carry
	// tabs of their own (a dated copy of a report): a second row of tabs
	// above them would read as one.
	apart []string
}

// areas are the dashboard's areas, each with its pages in the order its
// navigation lists them.
var areas = []area{
	{
		label: "Portfolio", navs: []Nav{NavPortfolio, NavScores},
		pages: []NavLink{
			{URL: "/portfolio", Label: "Folders"},
			{URL: "/portfolio/scores", Label: "Score map"},
			{URL: "/portfolio/quadrant", Label: "Two signals"},
			{URL: "/portfolio/stress", Label: "Folder stress"},
		},
		under: [][2]string{{"/portfolio/folders/", "/portfolio"}},
	},
	{
		label: "Team", navs: []Nav{NavAccounts, NavWorklist, NavAudit, NavTeam},
		pages: []NavLink{
			{URL: "/accounts", Label: "Accounts"},
			{URL: "/portfolio/exposure", Label: "Exposure"},
			{URL: "/worklist", Label: "Worklist"},
			{URL: "/reviews", Label: "Reviews"},
			{URL: "/refresh-plan", Label: "Refresh plan"},
			{URL: "/policy", Label: "Credit policy"},
			{URL: "/policy/validation", Label: "Policy validation"},
			{URL: "/accounts/defaults", Label: "Defaults"},
			{URL: "/decisions", Label: "Decisions"},
			{URL: "/audit", Label: "Audit trail"},
			{URL: "/settings/webhooks", Label: "Webhooks"},
			{URL: "/team", Label: "Members"},
		},
		under: [][2]string{
			{"/accounts/import", "/accounts"},
			{"/accounts/defaults", "/accounts/defaults"},
			{"/accounts/", "/reviews"}, // an account's review and owner
			{"/decisions/", "/decisions"},
			{"/audit/", "/audit"},
		},
	},
	{
		label: "Your workspace", navs: []Nav{NavWorkspace},
		pages: []NavLink{
			{URL: "/watchlist", Label: "Watch list"},
			{URL: "/alerts", Label: "Alerts"},
			{URL: "/snapshots", Label: "Dated copies"},
			{URL: "/settings/digest", Label: "E-mail digest"},
			{URL: "/settings/supplier-category", Label: "Supplier category"},
			{URL: "/settings/workspace", Label: "Take away or delete"},
		},
		under: [][2]string{
			{"/alerts/", "/alerts"},
			{"/digest/", "/settings/digest"},
		},
		apart: []string{"/snapshots/"},
	},
}

// AreaNav is the navigation of the area a page at the request URI uri
// belongs to, with the area's name and the page's own link marked
// current; nil for a page of no area.
func AreaNav(nav Nav, uri string) (string, []NavLink) {
	path, _, _ := strings.Cut(uri, "?")
	for _, a := range areas {
		for _, n := range a.navs {
			if n == nav {
				return a.label, a.links(path)
			}
		}
	}
	return "", nil
}

// links is the area's list with the page at path marked.
func (a area) links(path string) []NavLink {
	for _, p := range a.apart {
		if strings.HasPrefix(path, p) {
			return nil
		}
	}
	current := path
	for _, u := range a.under {
		if strings.HasPrefix(path, u[0]) {
			current = u[1]
			break
		}
	}
	out := make([]NavLink, len(a.pages))
	for i, p := range a.pages {
		p.Current = p.URL == current
		out[i] = p
	}
	return out
}
