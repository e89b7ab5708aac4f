package handlers_test

import (
	"context"
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"

	"creditdash/internal/apptest"
	"creditdash/internal/store"
)

// snapshotTabs are the report's tabs with what each one shows of its own
// data, which its dated copy must show alike.
var snapshotTabs = []struct {
	tab, path, content string
	// minRows is the fewest facts its comparison lists.
	minRows int
}{
	{"overview", "/businesses/1001", "#scores .score-cards, #summary", 8},
	{"payments", "/businesses/1001/payments", "table.aging, .sic-heat-table", 10},
	{"financials", "/businesses/1001/financials?count=3&sort=A", "table.statements, #comments, table.peers", 20},
	{"officers", "/businesses/1001/officers", "main table", 4},
}

// Every tab saves a dated copy of its own data from its button: the copy
// opens with no service call, marked as of its date, shows what the tab
// showed with no form of today's, lists its tab, and compares with today's
// data of that tab (cached, so no call either) with nothing changed.
func TestWorkspaceSnapshotEveryTab(t *testing.T) {
	workspaceEngines(t, func(t *testing.T, opts apptest.Options) {
		app := apptest.Start(t, opts)
		u := signInWS(t, app, "demo")
		other := signInWS(t, app, "developer")
		var copies []string
		for _, tc := range snapshotTabs {
			live := u.Get(tc.path)
			if live.Status != http.StatusOK {
				t.Fatalf("GET %s: status = %d", tc.path, live.Status)
			}
			if v, _ := live.Doc.Find(".snapshot-form input[name=tab]").Attr("value"); v != tc.tab {
				t.Errorf("%s: the save form posts tab %q, want %q", tc.tab, v, tc.tab)
			}
			to := mustRedirect(t, "save "+tc.tab, u.Submit(live, ".snapshot-form"))
			if !strings.HasPrefix(to, "/snapshots/") {
				t.Fatalf("%s: saving returns to %q", tc.tab, to)
			}
			copies = append(copies, to)

			before := calls(app, "demo")
			p := u.Get(to)
			if p.Status != http.StatusOK {
				t.Fatalf("%s: GET %s: status = %d", tc.tab, to, p.Status)
			}
			if n := calls(app, "demo") - before; n != 0 {
				t.Errorf("%s: showing the copy made %d service calls, want 0", tc.tab, n)
			}
			label := strings.ToUpper(tc.tab[:1]) + tc.tab[1:]
			if banner := p.Text(".snapshot-banner"); !strings.Contains(banner, "Dated copy of the "+label+" tab, as of") {
				t.Errorf("%s: banner = %q", tc.tab, banner)
			}
			if got := p.Text(`nav.tabs[aria-label="Business report"] a[aria-current=page]`); got != label {
				t.Errorf("%s: the copy's current tab reads %q", tc.tab, got)
			}
			// The copy is the analyst's own; the link a colleague can open
			// is the live tab.
			livePath, _, _ := strings.Cut(tc.path, "?")
			if share, _ := p.Doc.Find("#share-url").Attr("value"); share != app.URL+livePath ||
				p.Text(`label[for="share-url"]`) != "Link to the live report" {
				t.Errorf("%s: the copy offers %q as %q, want the live tab %s", tc.tab, share, p.Text(`label[for="share-url"]`), app.URL+livePath)
			}
			if h1 := p.Text(".biz-header h1"); h1 != "Westbridge Department Stores Inc" {
				t.Errorf("%s: copy's header = %q", tc.tab, h1)
			}
			want, got := live.Text(tc.content), p.Text(tc.content)
			if want == "" || got != want {
				t.Errorf("%s: the copy shows %q of %s, the tab showed %q", tc.tab, clip(got), tc.content, clip(want))
			}
			if n := p.Doc.Find(".snapshot-form, .watch-form, .window-form, .statement-controls, #notes").Length(); n != 0 {
				t.Errorf("%s: the copy offers %d of today's forms", tc.tab, n)
			}
			checkNoInline(t, to, p)

			before = calls(app, "demo")
			cmp := u.Get(to + "/compare")
			if cmp.Status != http.StatusOK {
				t.Fatalf("%s: compare: status = %d", tc.tab, cmp.Status)
			}
			if n := calls(app, "demo") - before; n != 0 {
				t.Errorf("%s: comparing with today's cached tab made %d calls", tc.tab, n)
			}
			if h1 := cmp.Text("h1"); !strings.Contains(h1, label) {
				t.Errorf("%s: compare heading %q does not name the tab", tc.tab, h1)
			}
			if n := cmp.Doc.Find("table.compare-then-now tbody tr").Length(); n < tc.minRows {
				t.Errorf("%s: compare shows %d rows, want at least %d", tc.tab, n, tc.minRows)
			}
			if n := cmp.Doc.Find("tr.changed").Length(); n != 0 {
				t.Errorf("%s: %d rows changed within the test: %s", tc.tab, n, cmp.Text("tr.changed"))
			}

			for _, path := range []string{to, to + "/compare"} {
				if p := other.Get(path); p.Status != http.StatusNotFound {
					t.Errorf("%s: another analyst GET %s: status = %d, want 404", tc.tab, path, p.Status)
				}
			}
		}

		list := u.Get("/snapshots")
		var tabs []string
		list.Doc.Find("table.snapshots tbody .snapshot-tab").Each(func(_ int, s *goquery.Selection) { tabs = append(tabs, s.Text()) })
		// Newest first.
		if got := strings.Join(tabs, ","); got != "Officers,Financials,Payments,Overview" {
			t.Errorf("the list's tabs = %q", got)
		}
		if href, _ := list.Doc.Find(`table.snapshots tbody a[href="` + copies[1] + `"]`).Attr("href"); href != copies[1] {
			t.Errorf("the list does not link the payments copy %s", copies[1])
		}
	})
}

// clip shortens page text for a failure message.
func clip(s string) string {
	if len(s) > 200 {
		return s[:200] + "…"
	}
	return s
}

// The financials copy keeps the controls it was shown with, in words, and
// compares today's statements chosen the same way.
func TestWorkspaceSnapshotFinancialsKeepsItsControls(t *testing.T) {
	app := apptest.Start(t, apptest.Options{})
	u := signInWS(t, app, "demo")
	live := u.Get("/businesses/1001/financials?count=2&sort=A&quarter=2&primary=on")
	to := mustRedirect(t, "save financials", u.Submit(live, ".snapshot-form"))
	p := u.Get(to)
	if got := p.Text(".controls-label"); !strings.Contains(got, "Showing 2 fiscal years, oldest first.") || !strings.Contains(got, "Q2 of the latest year with statements, primary SIC code only") {
		t.Errorf("the copy's controls read %q", got)
	}
	if got, want := p.Doc.Find("table.statements thead th.num").Length(), 2; got != want {
		t.Errorf("the copy shows %d years, want %d", got, want)
	}
	before := calls(app, "demo")
	cmp := u.Get(to + "/compare")
	if n := calls(app, "demo") - before; n != 0 || cmp.Doc.Find("tr.changed").Length() != 0 {
		t.Errorf("compare made %d calls and marks %q changed: today's tab was not loaded as the copy was", n, cmp.Text("tr.changed"))
	}
}

// A tab that is not one of the report's is refused with a message that
// names the tabs, and nothing is saved; no tab at all is the overview (the
// form before every tab had the button).
func TestWorkspaceSnapshotBadTab(t *testing.T) {
	app := apptest.Start(t, apptest.Options{})
	u := signInWS(t, app, "demo")
	for _, tab := range []string{"peers", "../officers", "Payments", strings.Repeat("x", 500)} {
		p := u.post("/businesses/1001/snapshots", "tab", tab)
		if p.Status != http.StatusBadRequest {
			t.Errorf("tab %.20q: status = %d, want 400", tab, p.Status)
			continue
		}
		if msg := p.Text("main"); !strings.Contains(msg, "is not a report tab") || !strings.Contains(msg, "overview, payments, financials, officers") {
			t.Errorf("tab %.20q: message %q", tab, clip(msg))
		}
	}
	if n := u.Get("/snapshots").Doc.Find("table.snapshots tbody tr").Length(); n != 0 {
		t.Errorf("%d copies saved with a bad tab", n)
	}
	to := mustRedirect(t, "no tab", u.post("/businesses/1001/snapshots"))
	if p := u.Get(to); !strings.Contains(p.Text(".snapshot-banner"), "Overview tab") {
		t.Errorf("a copy without a tab: %q", p.Text(".snapshot-banner"))
	}
}

// An overview copy saved before every tab could be kept (its data as that
// version wrote it, risk cut to the window) still opens and compares.
func TestWorkspaceSnapshotOldOverviewOpens(t *testing.T) {
	app := apptest.Start(t, apptest.Options{})
	u := signInWS(t, app, "demo")
	u.Get("/businesses/1001") // today's side of the comparison, cached
	old := `{"ident":{"BusinessId":1001,"BusinessName":"Westbridge Department Stores Inc","Address":"","City":"Columbus","State":"OH","Country":"US","Ticker":"","Public":false},` +
		`"naics":[{"Code":"452210","Name":"Department Stores"}],` +
		`"summary":{"DateFiled":"2025-01-15T00:00:00","Text":"An old summary."},` +
		`"history":[{"RiskScore":7,"DBTScore":5,"ZScore":2.5,"PayScore":8,"Year":2025,"Month":9,"Quarter":3},{"RiskScore":6,"DBTScore":9,"ZScore":2.4,"PayScore":7,"Year":2025,"Month":10,"Quarter":4}],` +
		`"risk":[{"Year":2025,"Month":10,"AverageRiskScore":5.5}],"from":"2025-09","to":"2025-10"}`
	a := store.Analyst{Service: apptest.WorkspaceService, User: "demo"}
	info, err := app.Store.SaveSnapshot(context.Background(), a, store.SnapshotSpec{BusinessID: 1001,
		BusinessName: "Westbridge Department Stores Inc", Tab: "overview", Fetched: time.Date(2025, 11, 2, 9, 0, 0, 0, time.UTC), Data: json.RawMessage(old)})
	if err != nil {
		t.Fatal(err)
	}
	to := "/snapshots/" + strconv.FormatInt(info.ID, 10)
	before := calls(app, "demo")
	p := u.Get(to)
	if p.Status != http.StatusOK || calls(app, "demo") != before {
		t.Fatalf("an old overview copy: status = %d, %d calls", p.Status, calls(app, "demo")-before)
	}
	if p.Doc.Find(".score-card").Length() != 4 || !strings.Contains(p.Text("#summary"), "An old summary.") ||
		!strings.Contains(p.Text(".window-label"), "Sep 2025 – Oct 2025") {
		t.Errorf("the old copy does not show its data: %q", clip(p.Text("main")))
	}
	cmp := u.Get(to + "/compare")
	if cmp.Status != http.StatusOK || cmp.Doc.Find("tr.changed").Length() == 0 {
		t.Errorf("comparing a year-old copy: status %d, %d changed rows", cmp.Status, cmp.Doc.Find("tr.changed").Length())
	}
	if !strings.Contains(cmp.Text("tr.changed"), "An old summary.") {
		t.Errorf("the summary's change is not shown: %q", clip(cmp.Text("tr.changed")))
	}
}

// A copy whose data differs from today's marks each changed fact in words,
// and a month only today has as new.
func TestWorkspaceSnapshotCompareMarksChanges(t *testing.T) {
	app := apptest.Start(t, apptest.Options{})
	u := signInWS(t, app, "demo")
	to := mustRedirect(t, "save payments", u.Submit(u.Get("/businesses/1001/payments"), ".snapshot-form"))
	id, _ := strconv.ParseInt(strings.TrimPrefix(to, "/snapshots/"), 10, 64)
	a := store.Analyst{Service: apptest.WorkspaceService, User: "demo"}
	ctx := context.Background()
	s, err := app.Store.Snapshot(ctx, a, id)
	if err != nil {
		t.Fatal(err)
	}
	// The copy as it would have been a month earlier: no newest month, and
	// the month before it owing more.
	var d map[string]json.RawMessage
	if err := json.Unmarshal(s.Data, &d); err != nil {
		t.Fatal(err)
	}
	var monthly []map[string]any
	if err := json.Unmarshal(d["monthly"], &monthly); err != nil || len(monthly) < 2 {
		t.Fatalf("monthly rows: %v (%d)", err, len(monthly))
	}
	newest, second := 0, 1
	if monthly[1]["MonthReported"].(string) > monthly[0]["MonthReported"].(string) {
		newest, second = 1, 0
	}
	dropped := monthly[newest]["MonthReported"].(string)
	monthly[second]["TotalDue"] = monthly[second]["TotalDue"].(float64) + 1000
	monthly = append(monthly[:newest], monthly[newest+1:]...)
	d["monthly"], _ = json.Marshal(monthly)
	data, _ := json.Marshal(d)
	info, err := app.Store.SaveSnapshot(ctx, a, store.SnapshotSpec{BusinessID: 1001, BusinessName: s.BusinessName,
		Tab: "payments", Fetched: s.Fetched, Data: data})
	if err != nil {
		t.Fatal(err)
	}
	cmp := u.Get("/snapshots/" + strconv.FormatInt(info.ID, 10) + "/compare")
	changed := cmp.Doc.Find("table.compare-then-now tr.changed")
	words := map[string]int{}
	changed.Find(".change-word").Each(func(_ int, s *goquery.Selection) { words[s.Text()]++ })
	if words["new"] != 1 || words["changed"] < 2 || words["gone"] != 0 {
		t.Errorf("change words = %v, want one new month and the changed ones (months reported, the month owing more)", words)
	}
	month, _ := time.Parse("2006-01", dropped)
	if !strings.Contains(cmp.Text("tr.changed"), month.Format("Jan 2006")) {
		t.Errorf("the month only today has (%s) is not marked: %q", dropped, clip(cmp.Text("tr.changed")))
	}
}

// Comparing needs today's tab; with the hourly budget spent and nothing
// cached, the comparison offers to load it all at its cost instead of
// spending past the budget.
func TestWorkspaceSnapshotCompareWithinBudget(t *testing.T) {
	app := apptest.Start(t, apptest.Options{})
	u := signInWS(t, app, "ordinary")
	a := store.Analyst{Service: apptest.WorkspaceService, User: "ordinary"}
	info, err := app.Store.SaveSnapshot(context.Background(), a, store.SnapshotSpec{BusinessID: 1005, BusinessName: "Business 1005",
		Tab: "officers", Fetched: time.Now(), Data: json.RawMessage(`{"naics":[],"officers":[]}`)})
	if err != nil {
		t.Fatal(err)
	}
	u.Get("/businesses/1001")          // 5 requests
	u.Get("/businesses/1002/payments") // 4 more
	u.Get("/businesses/1002")          // the last one
	if n := total(app, "ordinary"); n != 10 {
		t.Fatalf("setup: %d requests spent, want 10", n)
	}
	to := "/snapshots/" + strconv.FormatInt(info.ID, 10)
	if p := u.Get(to); p.Status != http.StatusOK {
		t.Errorf("opening a copy with no budget left: status %d", p.Status)
	}
	cmp := u.Get(to + "/compare")
	if cmp.Status != http.StatusOK {
		t.Fatalf("compare: status = %d", cmp.Status)
	}
	problem := cmp.Doc.Find(".problem.deferred")
	if problem.Length() != 1 || problem.Find("a").Length() != 0 || !strings.Contains(problem.Text(), "Officers tab needs 3 requests") {
		t.Errorf("compare with no budget: %q, %d links", problem.Text(), problem.Find("a").Length())
	}
	if n := total(app, "ordinary"); n != 10 {
		t.Errorf("%d requests spent, want still 10", n)
	}
}

// A copy of an earlier frame compares with today's data, not with the same
// months fetched again: scenario 1001's Risk fell over the year, so today's
// Risk is not the copy's.
func TestWorkspaceSnapshotCompareOfAnEarlierFrame(t *testing.T) {
	app := apptest.Start(t, apptest.Options{})
	u := signInWS(t, app, "demo")
	live := u.Get("/businesses/1001")
	to, _ := live.Doc.Find("input#to").Attr("value")
	end, err := time.Parse("2006-01", to)
	if err != nil {
		t.Fatalf("the live frame's end %q: %v", to, err)
	}
	frame := "/businesses/1001?from=" + end.AddDate(0, -11, 0).Format("2006-01") + "&to=" + end.AddDate(0, -6, 0).Format("2006-01")
	loc := mustRedirect(t, "save the earlier frame", u.Submit(u.Get(frame), ".snapshot-form"))
	cmp := u.Get(loc + "/compare")
	var then, now string
	cmp.Doc.Find("table.compare-then-now tbody tr").Each(func(_ int, s *goquery.Selection) {
		if strings.HasPrefix(strings.TrimSpace(s.Find("th").Text()), "Risk score") {
			then, now = s.Find(".then").Text(), s.Find(".now").Text()
		}
	})
	if then == "" || now == then || !strings.Contains(now, end.Format("Jan 2006")) {
		t.Errorf("Risk score then %q, today %q; want today's latest month (%s), not the copy's months again", then, now, end.Format("Jan 2006"))
	}
}
