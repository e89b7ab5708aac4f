package browsertest

import (
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"testing"

	"creditdash/internal/apptest"
	"creditdash/internal/views"
)

// auditPage is one page the accessibility tests open: a short name, its
// path, the HTTP status it answers with, and the user it is seen as ("" is
// signed out).
type auditPage struct {
	Name, Path string
	Status     int
	User       string
}

// auditPages are every page of the application as issue 14 lists them: the
// home page and its search results, each report tab, the portfolio, a
// folder, both score maps, industry news, the trade-provider choice (as the
// user who must make it), compare, the quadrant, the workspace pages, the
// team's audit trail and its verification, the sign-in page and the 404
// page.
func auditPages() []auditPage {
	folder := 0
	for _, u := range apptest.DemoData().Users {
		if u.Username == "demo" {
			folder = u.Folders[0].FolderID
		}
	}
	p := func(name, path string) auditPage {
		return auditPage{Name: name, Path: path, Status: http.StatusOK, User: "demo"}
	}
	return []auditPage{
		p("home", "/"),
		p("search", "/?q=North"),
		p("report", "/businesses/1001"),
		p("payments", "/businesses/1001/payments"),
		p("financials", "/businesses/1001/financials"),
		p("officers", "/businesses/1001/officers"),
		p("portfolio", "/portfolio"),
		p("folder", "/portfolio/folders/"+strconv.Itoa(folder)),
		p("scores-pay", "/portfolio/scores?score=pay"),
		p("scores-z", "/portfolio/scores?score=z"),
		p("news", "/news/industry"),
		{Name: "trade", Path: "/settings/trade-provider", Status: http.StatusOK, User: "trade"},
		p("compare", "/compare?ids=1001,1002"),
		p("quadrant", "/portfolio/quadrant"),
		p("watchlist", "/watchlist"),
		p("alerts", "/alerts"),
		p("snapshots", "/snapshots"),
		p("workspace", "/settings/workspace"),
		p("audit-trail", "/audit"),
		p("audit-verify", "/audit/verify"),
		p("backtest", "/alerts/backtest?scope=portfolio&score=pay&condition=below&threshold=6&months=24"),
		p("supplier-category", "/settings/supplier-category"),
		{Name: "sign-in", Path: "/login", Status: http.StatusOK},
		{Name: "not-found", Path: "/no-such-page", Status: http.StatusNotFound, User: "demo"},
	}
}

// auditSizes are the screens every page is checked on: a phone and a
// desktop window.
var auditSizes = [][2]int64{{phoneWidth, phoneHeight}, {desktopWidth, desktopHeight}}

// visitAuditPages opens every audit page at every audit size, each user in
// a browser of its own, and calls check on each once its charts are drawn.
func visitAuditPages(t *testing.T, check func(t *testing.T, b *Browser, p auditPage, width int64)) {
	t.Helper()
	app := apptest.Start(t, apptest.Options{})
	// One subtest per width, each with tabs of its own, so that each has
	// the whole TestTimeout for its twenty pages on a slow machine.
	for _, size := range auditSizes {
		t.Run(fmt.Sprintf("%dpx", size[0]), func(t *testing.T) {
			browsers := map[string]*Browser{}
			browser := func(user string) *Browser {
				if b, ok := browsers[user]; ok {
					return b
				}
				b := Start(t)
				if user != "" {
					b.Navigate(app.URL + "/login")
					if status := signIn(t, b, user); status != http.StatusOK {
						t.Fatalf("sign in as %s: status %d", user, status)
					}
				}
				browsers[user] = b
				return b
			}
			for _, p := range auditPages() {
				b := browser(p.User)
				setViewport(b, size[0], size[1], size[0] < 600)
				if status := b.Navigate(app.URL + p.Path); status != p.Status {
					t.Errorf("GET %s: status %d, want %d", p.Path, status, p.Status)
					continue
				}
				drawCharts(b)
				check(t, b, p, size[0])
			}
		})
	}
}

// TestAxeEveryPage runs axe-core on every page at 390 and 1360 px, as
// loaded and again with every <details> opened (the data tables): no
// violation of any impact, each failure listed by rule and node.
func TestAxeEveryPage(t *testing.T) {
	axe := loadAxe(t)
	visitAuditPages(t, func(t *testing.T, b *Browser, p auditPage, width int64) {
		for _, state := range []string{"as loaded", "details opened"} {
			if state == "details opened" {
				Eval[int](b, `(() => { const ds = document.querySelectorAll('details:not([open])'); ds.forEach((d) => { d.open = true; }); return ds.length; })()`)
			}
			for _, v := range runAxe(b, axe) {
				t.Errorf("%s at %d px, %s: axe %s (%s): %s\n\t%s", p.Path, width, state, v.ID, v.Impact, v.Help, strings.Join(v.Nodes, "\n\t"))
			}
		}
	})
}

// TestFolderNewsPagedInBrowser opens a folder: its businesses come first,
// then ten stories; "More news" shows the next ten with the news heading
// in view, and "Newer news" leads back.
func TestFolderNewsPagedInBrowser(t *testing.T) {
	app := apptest.Start(t, apptest.Options{})
	b := Start(t)
	var path string
	for _, p := range auditPages() {
		if p.Name == "folder" {
			path = p.Path
		}
	}
	openSignedIn(t, app, b, path)
	type view struct {
		Stories                                                       []string
		BusinessesTop, NewsTop, BusinessesLeft, NewsLeft, InnerHeight float64
	}
	const look = `(() => {
		const top = (sel) => document.querySelector(sel).getBoundingClientRect().top;
		const left = (sel) => document.querySelector(sel).getBoundingClientRect().left;
		return {
			Stories: Array.from(document.querySelectorAll('.news li .title'), (e) => e.textContent.trim()),
			BusinessesTop: top('#folder-businesses-title'), NewsTop: top('#folder-news-title'),
			BusinessesLeft: left('#folder-businesses-title'), NewsLeft: left('#folder-news-title'),
			InnerHeight: window.innerHeight,
		};
	})()`
	first := Eval[view](b, look)
	if len(first.Stories) != views.FolderNewsPerPage {
		t.Fatalf("%s shows %d stories, want %d", path, len(first.Stories), views.FolderNewsPerPage)
	}
	// Before: above it, or beside it on the left (cards in a row start level).
	if first.BusinessesTop > first.NewsTop || (first.BusinessesTop == first.NewsTop && first.BusinessesLeft >= first.NewsLeft) {
		t.Errorf("the businesses (top %.0f, left %.0f px) do not come before the news (top %.0f, left %.0f px)",
			first.BusinessesTop, first.BusinessesLeft, first.NewsTop, first.NewsLeft)
	}
	if b.Exists(`nav[aria-label="News pages"] a[href*="news="]:not([href*="news=2"])`) {
		t.Errorf("the first page links to newer news")
	}
	if status := b.ClickNavigate(`nav[aria-label="News pages"] a[href*="news=2"]`); status != http.StatusOK {
		t.Fatalf("More news: status %d", status)
	}
	if want := app.URL + path + "?news=2#folder-news-title"; b.URL() != want {
		t.Errorf("More news leads to %q, want %q", b.URL(), want)
	}
	second := Eval[view](b, look)
	if len(second.Stories) != views.FolderNewsPerPage || second.Stories[0] == first.Stories[0] {
		t.Errorf("page 2 shows %d stories starting %q; page 1 started %q", len(second.Stories), second.Stories, first.Stories[0])
	}
	if second.NewsTop < -2 || second.NewsTop > second.InnerHeight {
		t.Errorf("after More news the news heading is at %.0f px, outside the %.0f px window", second.NewsTop, second.InnerHeight)
	}
	if status := b.ClickNavigate(`nav[aria-label="News pages"] a[href$="` + path + `#folder-news-title"]`); status != http.StatusOK {
		t.Fatalf("Newer news: status %d", status)
	}
	if again := Eval[view](b, look); len(again.Stories) == 0 || again.Stories[0] != first.Stories[0] {
		t.Errorf("Newer news from page 2 does not lead back to the first page")
	}
	b.NoConsoleErrors(t)
	b.NoCSPViolations(t)
}
