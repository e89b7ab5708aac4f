// Package views turns service data into what pages show: view models, table
// rows, score zones, chart options and text formatted for people. Every
// function here is pure: no I/O, no clocks (callers pass the time).
package views

import "time"

// Nav names the top-level area a page belongs to, for the navigation bar.
type Nav string

// The navigation areas.
const (
	NavNone      Nav = ""
	NavHome      Nav = "home"
	NavBusiness  Nav = "business"
	NavPortfolio Nav = "portfolio"
	NavScores    Nav = "scores"
	NavNews      Nav = "news"
	NavSettings  Nav = "settings"
	// NavAccounts is the team's accounts, limits and exposure (issue 26).
	NavAccounts Nav = "accounts"
)

// Base is what the layout of every page shows; each page's view model embeds it.
type Base struct {
	// Title is the page's own title, without the product name.
	Title string
	// User is the signed-in user's name, or "" on public pages.
	User string
	// Role is the signed-in user's role in the team (analyst, manager,
	// admin or auditor), as the team's members on /team have it.
	Role string
	// CSRF is the token forms on this page send back.
	CSRF string
	// Nav is the active navigation area.
	Nav Nav
	// Assets holds the hashed URLs of the stylesheet and scripts.
	Assets Assets
	// Charts makes the layout load ECharts and the chart bootstrap script.
	Charts bool
	// Flash is a one-time confirmation shown at the top of the page.
	Flash string
	// URL is this page's own path and query, for retry and refresh links.
	URL string
	// Now is when the page was built, for "3 hours ago" and "renews in".
	Now time.Time
	// Quota is the hourly request budget, or nil when unknown or unlimited.
	Quota *Quota
	// Freshness says when the page's data was fetched, or nil when the page
	// shows no service data.
	Freshness *Freshness
	// Workspace is the analyst's workspace in the header: unread alerts
	// and, on a report, the watch button.
	Workspace WorkspaceBar
	// TradeProviders puts the trade-provider page in the navigation: the
	// account is known to have providers.
	TradeProviders bool
	// Budget is the page's one notice that sections wait for the hourly
	// limit to renew; nil when none does.
	Budget *BudgetNotice
	// Waiting is how many limit requests wait for this user's decision
	// (the header's link to /decisions says so).
	Waiting int
}

// ReadOnly reports a user whose role changes nothing (an auditor): pages
// leave out the forms the server would refuse them, and say so once.
func (b Base) ReadOnly() bool { return b.Role == "auditor" }

// Assets are the URLs of the files every page may load.
type Assets struct {
	CSS    string
	Icon   string
	Charts string // the chart bootstrap script
	TZ     string // js/tz.js: the browser's time zone, for renewal times
	Print  string // js/print.js: the Print button of the credit memo and summary
	// Worklist is js/worklist.js: j/k and Enter on the worklist.
	Worklist string
	// TZWorker is js/tz-worker.js, which reads the zone off the main thread.
	TZWorker string
	// Menu is js/menu.js: Escape and a press outside close the account menu.
	Menu    string
	ECharts string // "" when the build has not fetched ECharts
}

// Quota is the hourly request budget as the service last reported it.
type Quota struct {
	// Limit is the hourly limit; 0 when the service refused a call
	// without naming it (nothing is left until RenewsAt).
	Limit     int
	Remaining int
	RenewsAt  time.Time
	// Now is when the page was built, to say "renews in 23 min".
	Now time.Time
}

// Freshness says when a page's data was fetched and whether some of it is an
// older copy shown because the service could not answer.
type Freshness struct {
	FetchedAt time.Time
	// StaleSince is the fetch time of the oldest stale copy shown, zero if none.
	StaleSince time.Time
	// StaleReason says why older data is shown ("the hourly limit was reached").
	StaleReason string
	// Copies name the cached copies the page was built from; its Refresh
	// form sends them back to be fetched again. None hides the form.
	Copies []string
	// Page is the page's own path and query, where Refresh returns to.
	Page string
	Now  time.Time
}
