package browsertest

import (
	"net/http"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"

	"creditdash/internal/apptest"
)

// Phone is the screen the pages are checked on: a common phone in CSS
// pixels. Desktop is a laptop's browser window.
const (
	phoneWidth, phoneHeight     = 390, 844
	desktopWidth, desktopHeight = 1360, 900
)

// mainPages are the signed-in pages a user reaches from the navigation and
// the report's tabs, each with a short name for screenshots.
func mainPages() [][2]string {
	folder := 0
	for _, u := range apptest.DemoData().Users {
		if u.Username == "demo" {
			folder = u.Folders[0].FolderID
		}
	}
	return [][2]string{
		{"home", "/"},
		{"portfolio", "/portfolio"},
		{"folder", "/portfolio/folders/" + strconv.Itoa(folder)},
		{"scores-pay", "/portfolio/scores?score=pay"},
		{"scores-z", "/portfolio/scores?score=z"},
		{"news", "/news/industry"},
		{"trade", "/settings/trade-provider"},
		{"report", "/businesses/1001"},
		{"payments", "/businesses/1001/payments"},
		{"financials", "/businesses/1001/financials"},
		{"officers", "/businesses/1001/officers"},
		{"audit", "/audit"},
	}
}

// setViewport makes the tab a screen of w×h CSS pixels; mobile also makes
// the page honour its viewport meta tag, as a phone does.
func setViewport(b *Browser, w, h int64, mobile bool) {
	b.t.Helper()
	ctx := b.Context()
	_, err := chromedp.Call(ctx, emulation.SetDeviceMetricsOverride, emulation.SetDeviceMetricsOverrideParams{
		Width: w, Height: h, DeviceScaleFactor: 1, Mobile: mobile,
	})
	if err != nil {
		b.fatalf("viewport %dx%d: %v", w, h, err)
	}
}

// layoutReport is what pageLayout measures.
type layoutReport struct {
	ScrollWidth, InnerWidth int
	// Wide lists elements that reach past the right edge of the screen
	// outside any scroll region: the culprits of a sideways page.
	Wide []string
	// Regions are the page's table scroll regions.
	Regions []region
}

type region struct {
	Label, TabIndex, Role string
	// Scrolls says the table is wider than the region.
	Scrolls bool
	// Width is the region's, FirstColumn its table's first column's.
	Width, FirstColumn float64
}

// The screen's width is the layout viewport's (documentElement.clientWidth),
// not innerWidth: a phone zooms a page wider than itself out, and
// innerWidth then grows with the page (the payments tab's 619 px select
// went unseen that way).
const pageLayout = `(() => {
	const iw = document.documentElement.clientWidth;
	const name = (el) => el.tagName.toLowerCase() + (el.id ? '#' + el.id : '') +
		(el.className && typeof el.className === 'string' ? '.' + el.className.trim().split(/\s+/).join('.') : '');
	const wide = [];
	for (const el of document.body.querySelectorAll('*')) {
		if (el.closest('.table-wrap') && !el.classList.contains('table-wrap')) continue;
		const r = el.getBoundingClientRect();
		if (r.width > 0 && r.right > iw + 1) wide.push(name(el) + ' right=' + Math.round(r.right));
	}
	const regions = Array.from(document.querySelectorAll('.table-wrap'), (el) => {
		const first = el.querySelector('tr > :first-child');
		return {
			Label: el.getAttribute('aria-label') || '', TabIndex: el.getAttribute('tabindex') || '',
			Role: el.getAttribute('role') || '', Scrolls: el.scrollWidth > el.clientWidth + 1,
			Width: el.clientWidth, FirstColumn: first ? first.getBoundingClientRect().width : 0,
		};
	});
	return {ScrollWidth: document.documentElement.scrollWidth, InnerWidth: iw, Wide: wide.slice(0, 10), Regions: regions};
})()`

// TestPhoneNoPageScrollsSideways opens every main page on a 390 px phone:
// the page never scrolls sideways, and each wide table scrolls inside a
// focusable, labelled region whose first column leaves room for the
// others. It saves a screenshot of each page at 390 and 1360 px for review.
func TestPhoneNoPageScrollsSideways(t *testing.T) {
	app := apptest.Start(t, apptest.Options{})
	b := Start(t)
	openSignedIn(t, app, b, "/portfolio")
	setViewport(b, phoneWidth, phoneHeight, true)
	for _, p := range mainPages() {
		name, path := p[0], p[1]
		if status := b.Navigate(app.URL + path); status != http.StatusOK {
			t.Errorf("GET %s: status %d", path, status)
			continue
		}
		drawCharts(b)
		l := Eval[layoutReport](b, pageLayout)
		if l.ScrollWidth > l.InnerWidth {
			t.Errorf("%s at %d px: the page is %d px wide and scrolls sideways; too wide: %s",
				path, phoneWidth, l.ScrollWidth, strings.Join(l.Wide, ", "))
		}
		for _, r := range l.Regions {
			if r.TabIndex != "0" || r.Role != "region" || r.Label == "" {
				t.Errorf("%s: table region %q: tabindex=%q role=%q, want a focusable (tabindex 0), labelled region", path, r.Label, r.TabIndex, r.Role)
			}
			if r.Scrolls && r.FirstColumn > r.Width/2 {
				t.Errorf("%s: table region %q scrolls, but its first column takes %.0f of its %.0f px", path, r.Label, r.FirstColumn, r.Width)
			}
		}
		b.Screenshot("390-" + name)
	}
	setViewport(b, desktopWidth, desktopHeight, false)
	for _, p := range mainPages() {
		b.Navigate(app.URL + p[1])
		drawCharts(b)
		b.Screenshot("1360-" + p[0])
	}
	b.NoConsoleErrors(t)
	b.NoCSPViolations(t)
}

// TestScoreTableShowsNewestMonth checks the score table at 1360 px opens
// with its newest month in view (it scrolls to the older ones), and that
// on a phone its business column leaves room for the scores.
func TestScoreTableShowsNewestMonth(t *testing.T) {
	app := apptest.Start(t, apptest.Options{})
	b := Start(t)
	openSignedIn(t, app, b, "/portfolio/scores")
	type view struct {
		Newest, RegionLeft, RegionRight, NewestLeft, NewestRight float64
		Label                                                    string
	}
	const newest = `(() => {
		const wrap = document.querySelector('table.heat').closest('.table-wrap');
		const th = document.querySelector('table.heat thead th:last-child');
		const w = wrap.getBoundingClientRect(), r = th.getBoundingClientRect();
		return {RegionLeft: w.left, RegionRight: w.right, NewestLeft: r.left, NewestRight: r.right, Label: th.textContent};
	})()`
	for _, size := range [][2]int64{{desktopWidth, desktopHeight}, {phoneWidth, phoneHeight}} {
		setViewport(b, size[0], size[1], size[0] < 600)
		b.Navigate(app.URL + "/portfolio/scores")
		v := Eval[view](b, newest)
		if v.NewestLeft < v.RegionLeft-1 || v.NewestRight > v.RegionRight+1 {
			t.Errorf("at %d px the newest month (%s, %.0f–%.0f px) is outside the table's region (%.0f–%.0f px)",
				size[0], v.Label, v.NewestLeft, v.NewestRight, v.RegionLeft, v.RegionRight)
		}
	}
}

// drawCharts waits for the page's charts, if any, scrolling to each.
func drawCharts(b *Browser) {
	b.t.Helper()
	if Eval[bool](b, `document.querySelector('[data-chart]') !== null`) {
		waitCharts(b, "every chart drawn", func(n int) bool { return n >= 0 })
	}
}
