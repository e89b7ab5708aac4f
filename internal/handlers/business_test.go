package handlers_test

import (
	"context"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"

	"creditdash/internal/apptest"
	"creditdash/internal/views"
	"creditdash/static"
)

// tabs of the business report: the path suffix and what only that tab shows.
var businessTabs = []struct {
	suffix, label, marker string
	charts                int
}{
	{"", "Overview", "#scores .score-card", 5},
	{"/payments", "Payments", "table.aging", 4}, // aging, DBT by category, heat map, toward a category beside overall
	{"/financials", "Financials", "table.statements", 1},
	{"/officers", "Officers", "table.officers", 0},
}

// card returns the score card whose heading starts with name.
func card(p *apptest.Page, name string) *goquery.Selection {
	return p.Doc.Find(".score-card").FilterFunction(func(_ int, s *goquery.Selection) bool {
		return strings.HasPrefix(strings.TrimSpace(s.Find("h3").Text()), name)
	})
}

func TestBusinessTabsForEveryIdentifierKind(t *testing.T) {
	app := apptest.Start(t, apptest.Options{})
	demo := app.SignIn(t, "demo")
	trade := app.SignIn(t, "trade")
	if _, err := app.Client.SetTradeProvider(context.Background(), trade.SessionKey(), "TP-1"); err != nil {
		t.Fatal(err)
	}
	name := apptest.DemoData().Businesses[0].Name
	kinds := []struct {
		user   *apptest.User
		prefix string
	}{
		{demo, "/businesses/1001"},
		{demo, "/suppliers/S-1001"},
		{trade, "/customers/C1-1001"},
	}
	for _, k := range kinds {
		for _, tab := range businessTabs {
			path := k.prefix + tab.suffix
			p := k.user.Get(path)
			if p.Status != http.StatusOK {
				t.Errorf("GET %s: status %d, want 200; %s", path, p.Status, p.Text("main"))
				continue
			}
			checkSecurityHeaders(t, path, p, true)
			if got := p.Text("h1"); got != name {
				t.Errorf("GET %s: h1 %q, want %q", path, got, name)
			}
			if p.Doc.Find(tab.marker).Length() == 0 {
				t.Errorf("GET %s: no %s", path, tab.marker)
			}
			if got := p.Doc.Find("[data-chart]").Length(); got != tab.charts {
				t.Errorf("GET %s: %d charts, want %d", path, got, tab.charts)
			}
			if p.Doc.Find(".naics li").Length() == 0 {
				t.Errorf("GET %s: no NAICS codes in the header", path)
			}
			if share, _ := p.Doc.Find("#share-url").Attr("value"); share != app.URL+path {
				t.Errorf("GET %s: shareable URL %q, want %q", path, share, app.URL+path)
			}
			links := p.Doc.Find("nav.tabs a")
			if links.Length() != 4 {
				t.Fatalf("GET %s: %d tabs", path, links.Length())
			}
			links.Each(func(i int, a *goquery.Selection) {
				href, _ := a.Attr("href")
				if want := k.prefix + businessTabs[i].suffix; href != want {
					t.Errorf("GET %s: tab %d links to %q, want %q", path, i, href, want)
				}
				_, current := a.Attr("aria-current")
				if current != (businessTabs[i].label == tab.label) {
					t.Errorf("GET %s: tab %s aria-current = %v", path, a.Text(), current)
				}
			})
		}
	}
}

// ECharts is loaded on exactly the tabs that draw charts: the chart script
// names it (data-echarts) and fetches it itself, never as a script of its
// own in the page, which would hold up the first paint.
func TestEChartsLoadedOnlyWithCharts(t *testing.T) {
	if assets, err := static.Load(); err != nil || !assets.Has("vendor/echarts.min.js") {
		t.Skip("ECharts is not built into static/vendor: run make assets (make test does)")
	}
	app := apptest.Start(t, apptest.Options{})
	u := app.SignIn(t, "demo")
	for _, tab := range businessTabs {
		path := "/businesses/1001" + tab.suffix
		p := u.Get(path)
		if got := p.Doc.Find(`script[src*="/js/charts."][data-echarts*="/vendor/echarts"]`).Length(); (tab.charts > 0) != (got == 1) {
			t.Errorf("GET %s: ECharts named %d times on a tab with %d charts, want once exactly when it has charts",
				path, got, tab.charts)
		}
		if got := p.Doc.Find(`script[src*="echarts"]`).Length(); got > 0 {
			t.Errorf("GET %s: ECharts is a script of the page itself", path)
		}
	}
}

func TestBusinessCustomerIDBeforeChoosingATradeProvider(t *testing.T) {
	app := apptest.Start(t, apptest.Options{})
	u := app.SignIn(t, "trade")
	p := u.Get("/customers/C1-1001/payments")
	if p.Status != http.StatusConflict {
		t.Fatalf("status %d, want 409", p.Status)
	}
	if p.Doc.Find(`a[href="/settings/trade-provider"]`).Length() == 0 {
		t.Error("the page does not link to the trade-provider choice")
	}
}

func TestBusinessScenarioStories(t *testing.T) {
	app := apptest.Start(t, apptest.Options{})
	u := app.SignIn(t, "demo")

	p := u.Get("/businesses/1001")
	risk := card(p, "Risk score")
	if got := risk.Find(".value").Text(); got != "2" || risk.Find(".zone-word").Text() != "severe" || !risk.HasClass("zone-1") {
		t.Errorf("1001 Risk card = %q %q", got, risk.Find(".zone-word").Text())
	}
	if !strings.Contains(risk.Find(".change").Text(), "-5 over 12 months") || risk.Find(".trend").Text() != "worse" {
		t.Errorf("1001 Risk change = %q", risk.Find(".change").Text())
	}
	if dbt := card(p, "DBT"); dbt.Find(".zone-word").Text() != "prompt" {
		t.Errorf("1001 DBT card = %q", dbt.Text())
	}

	p = u.Get("/businesses/1002")
	if got := card(p, "Risk score").Find(".value").Text(); got != "9" {
		t.Errorf("1002 Risk = %q, want 9", got)
	}
	if z := card(p, "DBT").Find(".zone-word").Text(); z != "late" {
		t.Errorf("1002 DBT zone = %q, want late (about 20 days)", z)
	}

	p = u.Get("/businesses/1003")
	pay := card(p, "Pay score")
	if pay.Find(".value").Text() != "missing" || !strings.Contains(pay.Find(".missing-reason").Text(), "no score: thin trade file") {
		t.Errorf("1003 Pay card = %q", strings.Join(strings.Fields(pay.Text()), " "))
	}
	if !strings.Contains(card(p, "Z″-Score").Text(), "private companies have no Z-Score") {
		t.Errorf("1003 Z card = %q", card(p, "Z″-Score").Text())
	}

	p = u.Get("/businesses/1004")
	risk = card(p, "Risk score")
	if risk.Find(".value").Text() != "1" || risk.Find(".zone-word").Text() != "severe" {
		t.Errorf("1004 Risk card = %q", strings.Join(strings.Fields(risk.Text()), " "))
	}
	p = u.Get("/businesses/1004/payments")
	first := p.Doc.Find("table.aging").First().Find("tbody tr").First()
	over90 := first.Find("td").Eq(6).Find(".pct").Text() // accounts, total, current, 1-30, 31-60, 61-90, 91+
	if share, err := strconv.ParseFloat(strings.TrimSuffix(over90, "%"), 64); err != nil || share <= 30 {
		t.Errorf("1004 latest 91+ share = %q, want above 30%%", over90)
	}

	p = u.Get("/businesses/1005")
	pay = card(p, "Pay score")
	if pay.Find(".value").Text() != "7" || pay.Find(".trend").Text() != "better" || !strings.Contains(pay.Find(".change").Text(), "from 3") {
		t.Errorf("1005 Pay card = %q", strings.Join(strings.Fields(pay.Text()), " "))
	}

	p = u.Get("/businesses/1006")
	z := card(p, "Z″-Score")
	if z.Find(".value").Text() != "missing" || !strings.Contains(z.Text(), "missing for the latest quarters: Q2 2026, Q3 2026, Q4 2026") {
		t.Errorf("1006 Z card = %q", strings.Join(strings.Fields(z.Text()), " "))
	}
	missing := p.Doc.Find("#chart-z").Parent().Find("details td.missing").Length()
	if missing < 7 {
		t.Errorf("1006 Z table shows %d missing months, want the months since Apr 2026 as missing", missing)
	}

	for _, tab := range []string{"/financials", "/officers", "", "/payments"} {
		p = u.Get("/businesses/1007" + tab)
		if p.Status != http.StatusOK || p.Doc.Find(".problem").Length() != 0 {
			t.Errorf("1007%s: status %d, problems %q", tab, p.Status, p.Text(".problem"))
		}
	}
	if p = u.Get("/businesses/1007/financials"); !strings.Contains(p.Text("#statements .empty"), "No financial statements") {
		t.Errorf("1007 financials: %q", p.Text("#statements"))
	}
	if p = u.Get("/businesses/1007/officers"); !strings.Contains(p.Text("#officers .empty"), "No officers") {
		t.Errorf("1007 officers: %q", p.Text("#officers"))
	}
}

func TestBusinessDeveloperSeesWithheldData(t *testing.T) {
	app := apptest.Start(t, apptest.Options{})
	u := app.SignIn(t, "developer")
	p := u.Get("/businesses/1001/financials")
	if p.Status != http.StatusOK {
		t.Fatalf("status %d", p.Status)
	}
	rows := map[string]*goquery.Selection{}
	p.Doc.Find("table.statements tbody tr").Each(func(_ int, tr *goquery.Selection) {
		rows[strings.TrimSpace(tr.Find("th").Text())] = tr
	})
	for _, label := range []string{"Cost of sales", "Gross profit", "Current assets", "Working capital", "Retained earnings"} {
		tr, ok := rows[label]
		if !ok {
			t.Errorf("no row %q: withheld points must still be listed", label)
			continue
		}
		if got := strings.TrimSpace(tr.Find("td.withheld").Text()); got != views.WithheldAccessText {
			t.Errorf("%s reads %q", label, got)
		}
		if tr.Find("td.num").Length() != 0 {
			t.Errorf("%s shows numbers although withheld", label)
		}
	}
	if tr := rows["Sales"]; tr == nil || tr.Find("td.num").Length() == 0 || !strings.Contains(tr.Text(), "$") {
		t.Errorf("Sales is visible to API-Only accounts: %v", tr)
	}
	if !strings.Contains(p.Text(".notice"), "API-Only") {
		t.Errorf("no notice about API-Only access: %q", p.Text("main"))
	}
	full := app.SignIn(t, "demo").Get("/businesses/1001/financials")
	if full.Doc.Find("td.withheld").Length() != 0 || full.Doc.Find(".notice").Length() != 0 {
		t.Error("a Full Access account sees withheld points")
	}
}

func TestBusinessUnknownAndBadIdentifiers(t *testing.T) {
	app := apptest.Start(t, apptest.Options{})
	u := app.SignIn(t, "demo")
	for _, path := range []string{"/businesses/999999", "/businesses/999999/payments", "/businesses/999999/financials",
		"/businesses/999999/officers", "/suppliers/S-999999", "/suppliers/S-1001x/officers"} {
		if p := u.Get(path); p.Status != http.StatusNotFound || p.Text("h1") != "Not found" {
			t.Errorf("GET %s: status %d %q, want the 404 page", path, p.Status, p.Text("h1"))
		}
	}
	for _, path := range []string{"/businesses/abc", "/businesses/-5", "/businesses/0", "/businesses/99999999999",
		"/businesses/1.5/payments", "/businesses/%20/officers", "/suppliers/a%20b", "/customers/" + strings.Repeat("x", 65)} {
		p := u.Get(path)
		if p.Status != http.StatusBadRequest || p.Text(".problem-page p") == "" {
			t.Errorf("GET %s: status %d %q, want 400 with a message", path, p.Status, p.Text(".problem-page"))
		}
		if p.Text("header .user") != "demo" {
			t.Errorf("GET %s: the 400 page lost the session", path)
		}
	}
	if p := u.Get("/businesses/abc"); !strings.Contains(p.Text(".problem-page"), "“abc” is not a business id") {
		t.Errorf("message = %q", p.Text(".problem-page"))
	}
	if u.Get("/").Status != http.StatusOK {
		t.Error("bad identifiers lost the session")
	}
}

func TestBusinessCallsPerTab(t *testing.T) {
	app := apptest.Start(t, apptest.Options{NoCache: true})
	u := app.SignIn(t, "demo")
	header := []string{"/v1/Business/IdentificationGroup", "/v1/Business/NAICSCodes"}
	cases := []struct {
		path string
		own  []string
	}{
		{"/businesses/1001", []string{"/v1/Business/Summary", "/v1/Business/CreditScoreHistory", "/v1/Business/RiskHistory"}},
		{"/businesses/1001?from=2026-01&to=2026-06", []string{"/v1/Business/Summary", "/v1/Business/CreditScoreHistory", "/v1/Business/RiskHistory"}},
		{"/businesses/1001/payments", []string{"/v1/Business/PaymentSummary/Monthly", "/v1/Business/PaymentSummary/SIC"}},
		{"/businesses/1001/financials?count=2", []string{"/v1/Business/LatestAnnualStatements", "/v1/Business/WordFill", "/v1/Business/PeerAnalysis", "/v1/Business/CreditScoreHistory"}},
		{"/businesses/1001/officers", []string{"/v1/Business/Officers"}},
	}
	for _, c := range cases {
		app.Sim.Reset()
		if p := u.Get(c.path); p.Status != http.StatusOK {
			t.Fatalf("GET %s: status %d", c.path, p.Status)
		}
		got := app.Sim.Requests()["demo"]
		want := map[string]int{}
		for _, op := range append(append([]string(nil), header...), c.own...) {
			want[op] = 1
		}
		if len(got) != len(want) {
			t.Errorf("GET %s called %v, want each of %v once", c.path, got, want)
			continue
		}
		for op, n := range want {
			if got[op] != n {
				t.Errorf("GET %s called %s %d times, want %d", c.path, op, got[op], n)
			}
		}
	}
}

// "Oldest first" orders the latest years, not the oldest years on file:
// the service sorts before it counts, so it is always asked newest first.
func TestFinancialsOldestFirstKeepsTheLatestYears(t *testing.T) {
	app := apptest.Start(t, apptest.Options{})
	u := app.SignIn(t, "demo")
	years := func(path string) []string {
		var out []string
		u.Get(path).Doc.Find("table.statements thead th.num").Each(func(_ int, s *goquery.Selection) {
			out = append(out, strings.TrimSpace(s.Text()))
		})
		return out
	}
	newest, oldest := years("/businesses/1001/financials?count=2&sort=D"), years("/businesses/1001/financials?count=2&sort=A")
	if len(newest) != 2 || !slices.Equal(oldest, []string{newest[1], newest[0]}) {
		t.Errorf("years newest first %v, oldest first %v; want the same two years reversed", newest, oldest)
	}
}
