package browsertest

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chromedp/cdproto/accessibility"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"creditdash/internal/apptest"
	"creditdash/internal/roles"
	"creditdash/internal/store"
	"creditdash/internal/upstream/simulator"
)

// TestHeaderWithCountsKeepsToOneRow: the widest header a user can reach
// keeps to one row in a 1366 px laptop window. That is the developer's
// (the longest demo name, and an hourly budget, so its meter) made a
// manager, with an unread alert and a request waiting for their decision,
// on an account with trade providers (so the trade-provider page is
// offered too), first with requests to spare and then with 40 of the
// hour's 200 left, renewing in less than a minute (the budget's longest
// sentence). Both counts and the trade-provider link are in the header
// on every page checked; the log says how much of the row it takes.
func TestHeaderWithCountsKeepsToOneRow(t *testing.T) {
	team, err := roles.Parse("test roles", "demo=admin:250000,developer=manager:10000", 0)
	if err != nil {
		t.Fatal(err)
	}
	low := &lowQuota{}
	app := apptest.Start(t, apptest.Options{Roles: team, Data: withProviders(apptest.DemoData(), "developer", "trade"), StandIn: low.wrap})
	ctx := context.Background()
	limit := 5000.0
	if _, err := app.Store.ImportLedger(ctx, store.Analyst{Service: apptest.WorkspaceService, User: "demo"},
		store.ImportSpec{AsOf: time.Date(2026, 9, 30, 0, 0, 0, 0, time.UTC), File: "aging.csv",
			Lines: []store.LedgerLine{{Account: "A-1", Name: "Eastgate", Balance: 4200, Current: 4200, ERPLimit: &limit}}}); err != nil {
		t.Fatal(err)
	}
	if _, err := app.Store.RequestLimit(ctx, store.Analyst{Service: apptest.WorkspaceService, User: "demo"},
		store.RequestSpec{Account: "A-1", Amount: 8000, Reason: "Seasonal stock for the spring orders"}); err != nil {
		t.Fatal(err)
	}
	// A rule on 1001, whose Risk of 2 is below 5, fires as its report loads.
	if _, err := app.Store.AddRule(ctx, store.Analyst{Service: apptest.WorkspaceService, User: "developer"},
		store.RuleSpec{Scope: store.ScopeBusiness, BusinessID: 1001, Score: store.ScoreRisk, Condition: store.Below, Threshold: 5}); err != nil {
		t.Fatal(err)
	}
	b := Start(t)
	b.Navigate(app.URL + "/login?next=%2Fbusinesses%2F1001")
	if status := signIn(t, b, "developer"); status != http.StatusOK || b.URL() != app.URL+"/businesses/1001" {
		t.Fatalf("sign in as developer: status %d at %s", status, b.URL())
	}
	// The provider page lists the account's providers: from then on the
	// dashboard knows it has some and offers the page on every page.
	if status := b.Navigate(app.URL + tradeProviderPath); status != http.StatusOK {
		t.Fatalf("GET %s: status %d", tradeProviderPath, status)
	}
	setViewport(b, 1366, 768, false)
	check := func(state string) {
		t.Helper()
		for _, path := range []string{"/", "/accounts", "/decisions", "/alerts", tradeProviderPath} {
			if status := b.Navigate(app.URL + path); status != http.StatusOK {
				t.Errorf("GET %s: status %d", path, status)
				continue
			}
			if counts := Eval[string](b, headerCounts); counts != "1 1" {
				t.Errorf("%s %s: the header counts %q unread alerts and waiting decisions, want 1 of each", path, state, counts)
			}
			if !b.Exists(`header.site a[href="` + tradeProviderPath + `"]`) {
				t.Errorf("%s %s: the header does not offer the trade-provider page", path, state)
			}
			if !Eval[bool](b, headerOneRow) {
				t.Errorf("%s %s at 1366 px: the header wraps to a second row (%s px)", path, state, Eval[string](b, headerSpace))
			}
			if path == "/" || path == tradeProviderPath {
				t.Logf("%s %s: the header's brand, navigation and account tools take %s px", path, state, Eval[string](b, headerSpace))
			}
		}
	}
	check("with requests to spare")
	low.on.Store(true)
	// A report not read yet asks the service, which now says 40 are left.
	if status := b.Navigate(app.URL + "/businesses/1002"); status != http.StatusOK {
		t.Fatalf("GET /businesses/1002: status %d", status)
	}
	// The service said 40; the dashboard counts its own calls since.
	if got := b.Text("header.site .quota"); !lowBudget.MatchString(got) {
		t.Fatalf("the header's budget reads %q, want %s", got, lowBudget)
	}
	check("with 40 of 200 requests left")
	b.NoConsoleErrors(t)
}

// TestAccountMenuByKeyboard: the header's account menu (the user's name
// and role, named "Signed in as trade with the role auditor" to screen
// readers) is closed as a page opens; Enter on it opens the watch list,
// the trade-provider choice (trade's account has providers) and Sign out,
// inside the screen and without widening the page at 1366 and 390 px,
// with no axe violation in the header; Enter closes it again; and Tab
// from it reaches its items in order, Sign out signing out.
func TestAccountMenuByKeyboard(t *testing.T) {
	axe := loadAxe(t)
	app := apptest.Start(t, apptest.Options{})
	b := Start(t)
	b.Navigate(app.URL + "/login?next=" + url.QueryEscape(tradeProviderPath))
	if status := signIn(t, b, "trade"); status != http.StatusOK {
		t.Fatalf("sign in as trade: status %d", status)
	}
	want := "Watch list|Trade provider|Sign out"
	// What a screen reader names the menu's button by.
	if got := accessibleName(b, accountMenuSummary); got != "Signed in as trade with the role auditor" {
		t.Errorf("the account menu's summary is named %q, want %q", got, "Signed in as trade with the role auditor")
	}
	for _, size := range []struct {
		w, h   int64
		mobile bool
	}{{1366, 768, false}, {phoneWidth, phoneHeight, true}} {
		setViewport(b, size.w, size.h, size.mobile)
		b.Navigate(app.URL + "/")
		where := "/ at " + strconv.FormatInt(size.w, 10) + " px"
		if m := Eval[menuReport](b, accountMenu); m.Open || m.Shown != "" {
			t.Errorf("%s: the account menu is open (%v) or shows %q as the page opens", where, m.Open, m.Shown)
		}
		Eval[chromedp.Void](b, `document.querySelector(`+jsString(accountMenuSummary)+`).focus()`)
		b.step("press Enter on the account menu", chromedp.KeyEvent(kb.Enter))
		m := Eval[menuReport](b, accountMenu)
		if !m.Open || m.Shown != want {
			t.Errorf("%s: after Enter the account menu is open %v, showing %q, want %q", where, m.Open, m.Shown, want)
		}
		if m.Left < 0 || m.Right > float64(m.Width) || m.PageWidth > m.Width {
			t.Errorf("%s: the open menu spans %.0f to %.0f px and the page is %d px wide, on a %d px screen", where, m.Left, m.Right, m.PageWidth, m.Width)
		}
		for _, v := range runAxeOn(b, axe, `document.querySelector('header.site')`) {
			t.Errorf("%s, the account menu open: axe %s (%s): %s\n\t%s", where, v.ID, v.Impact, v.Help, strings.Join(v.Nodes, "\n\t"))
		}
		b.step("press Enter again", chromedp.KeyEvent(kb.Enter))
		if m := Eval[menuReport](b, accountMenu); m.Open || m.Shown != "" {
			t.Errorf("%s: after a second Enter the account menu is open (%v), showing %q", where, m.Open, m.Shown)
		}
	}
	b.step("press Enter on the account menu", chromedp.KeyEvent(kb.Enter))
	var walk []string
	for range 3 {
		walk = append(walk, tab(b).Name)
	}
	if got := strings.Join(walk, "|"); got != `a "Watch list"|a "Trade provider"|button "Sign out"` {
		t.Errorf("Tab from the open account menu reaches %s, want its three items in order", got)
	}
	if _, err := chromedp.RunResponse(b.Context(), chromedp.KeyEvent(kb.Enter)); err != nil {
		t.Fatalf("press Enter on Sign out: %v", err)
	}
	if got, want := b.URL(), app.URL+"/login?reason=signed-out"; got != want {
		t.Errorf("after Enter on Sign out: at %q, want %q", got, want)
	}
	b.NoConsoleErrors(t)
}

// accessibleName is the name Chromium gives assistive technology for the
// first element matching sel.
func accessibleName(b *Browser, sel string) string {
	b.t.Helper()
	ctx := b.Context()
	el, err := chromedp.Call(ctx, runtime.Evaluate, runtime.EvaluateParams{Expression: "document.querySelector(" + jsString(sel) + ")"})
	if err != nil || el.Result == nil || el.Result.ObjectID == "" {
		b.fatalf("find %s: %v", sel, err)
	}
	alone := false
	tree, err := chromedp.Call(ctx, accessibility.GetPartialAXTree, accessibility.GetPartialAXTreeParams{ObjectID: el.Result.ObjectID, FetchRelatives: &alone})
	if err != nil || len(tree.Nodes) == 0 || tree.Nodes[0].Name == nil {
		b.fatalf("the accessible name of %s: %v", sel, err)
	}
	var name string
	if err := json.Unmarshal(tree.Nodes[0].Name.Value, &name); err != nil {
		b.fatalf("the accessible name of %s: %v", sel, err)
	}
	return name
}

// menuReport is what accountMenu measures of the header's account menu.
type menuReport struct {
	Open bool
	// Shown are the menu's items shown, their words joined by "|".
	Shown            string
	Left, Right      float64
	Width, PageWidth int
}

// accountMenu measures the header's account menu: open or not, the items
// it shows, where its panel spans, and the page's width beside the
// screen's.
const accountMenu = `(() => {
	const d = document.querySelector('header.site .account-menu'), panel = d.querySelector('nav').getBoundingClientRect();
	const shown = [...d.querySelectorAll('nav a, nav button')].filter(e => e.checkVisibility()).map(e => e.textContent.trim());
	return {Open: d.open, Shown: shown.join('|'), Left: panel.left, Right: panel.right,
		Width: document.documentElement.clientWidth, PageWidth: document.documentElement.scrollWidth};
})()`

// lowBudget is the budget's whole sentence with tens of requests left.
var lowBudget = regexp.MustCompile(`^[1-4][0-9] of 200 requests left this hour, renews in less than a minute$`)

// tradeProviderPath is the page where an account chooses its trade
// provider.
const tradeProviderPath = "/settings/trade-provider"

// withProviders is a copy of data in which user's account has the trade
// providers of the account from (data itself is shared and left as it is).
func withProviders(data *simulator.Dataset, user, from string) *simulator.Dataset {
	var providers []simulator.TradeProvider
	for _, u := range data.Users {
		if u.Username == from {
			providers = u.TradeProviders
		}
	}
	out := *data
	out.Users = make([]simulator.User, len(data.Users))
	for i, u := range data.Users {
		if u.Username == user {
			u.TradeProviders = providers
		}
		out.Users[i] = u
	}
	return &out
}

// lowQuota is a layer in front of the stand-in that, once on, has every
// answer say 40 of the hour's requests are left, renewing in 30 seconds:
// the header's budget then shows its whole sentence.
type lowQuota struct{ on atomic.Bool }

// wrap puts the layer in front of the stand-in.
func (q *lowQuota) wrap(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if q.on.Load() {
			w = &quotaWriter{ResponseWriter: w}
		}
		next.ServeHTTP(w, r)
	})
}

// quotaWriter rewrites the budget headers the stand-in set, just before
// they are sent.
type quotaWriter struct {
	http.ResponseWriter
	wrote bool
}

func (w *quotaWriter) WriteHeader(code int) {
	if !w.wrote {
		w.wrote = true
		if h := w.Header(); h.Get("X-RateLimit-Limit") != "" {
			h.Set("X-RateLimit-Remaining", "40")
			h.Set("X-RateLimit-Reset", "30")
		}
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *quotaWriter) Write(p []byte) (int, error) {
	if !w.wrote {
		w.WriteHeader(http.StatusOK)
	}
	return w.ResponseWriter.Write(p)
}

// headerCounts are the header's unread alerts and waiting decisions, as
// its badges show them ("" for one not shown).
const headerCounts = `['.alerts-link', '.decisions-link'].map(l => {
	const c = document.querySelector('header.site ' + l + ' .unread-count');
	return c ? c.textContent.trim() : '';
}).join(' ')`

// headerSpace is the width the header's parts take, gaps included, and
// the width of its row ("1293 of 1334").
const headerSpace = `(() => {
	const h = document.querySelector('header.site'), cs = getComputedStyle(h);
	const w = s => h.querySelector(s).getBoundingClientRect().width;
	const used = w('.brand') + w('nav') + w('.account') + 2 * parseFloat(cs.columnGap);
	const room = h.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight);
	return Math.round(used) + ' of ' + Math.round(room);
})()`

// headerOneRow says the header's parts (the brand, each navigation item
// and each of the account's tools) all share one row: every one's top is
// above every other's bottom.
const headerOneRow = `(() => {
	const h = document.querySelector('header.site');
	const rects = [...h.querySelectorAll(':scope > *, nav[aria-label="Main"] li, .account > *')]
		.filter(e => e.getClientRects().length > 0).map(e => e.getBoundingClientRect());
	return Math.max(...rects.map(r => r.top)) < Math.min(...rects.map(r => r.bottom));
})()`
