package handlers_test

import (
	"net/http"
	"strconv"
	"strings"
	"testing"

	"creditdash/internal/apptest"
	"creditdash/internal/upstream/simulator"
)

// defaultsLedger links R-1 to the Chapter 11 scenario (1004) under the
// name the service gives it, and W-1 to the retailer (1001).
func defaultsLedger(t *testing.T) []byte {
	t.Helper()
	name := ""
	for _, b := range apptest.DemoData().Businesses {
		if b.ID == 1004 {
			name = b.Name
		}
	}
	if name == "" {
		t.Fatal("the demo data has no business 1004")
	}
	return []byte("Customer No.,Name,Business Id,Total Due,Current,1-30,Over 90,Terms\n" +
		"R-1," + name + ",1004,83350,20000,13350,50000,30\n" +
		"W-1,Westbridge,1001,1000,1000,0,0,30\n")
}

// TestDefaultLearnedFromFolderNews: opening the folder whose news reports
// Redrock's Chapter 11 puts its account in default: PD 100 % and expected
// loss = balance × the loss given default on /accounts, held on the
// worklist naming the filing, the banner on the report of another user
// who never opened that news, audited to the folder page and its user.
// Only a manager clears it, with a note (422 keeping what was typed), and
// sets the loss given default; then the account is back on its band.
func TestDefaultLearnedFromFolderNews(t *testing.T) {
	decisionApps(t, func(t *testing.T, app *apptest.App) {
		dev := signInAccounts(t, app, "developer") // analyst
		importLedger(t, dev, "aging.csv", defaultsLedger(t), "2026-10-31")
		folder := "/portfolio/folders/" + strconv.Itoa(folderOf(t, demoUser(t, "demo"), 1004).FolderID)
		if p := dev.Get("/accounts/defaults"); p.Status != http.StatusOK || p.Doc.Find("#in-force-title + p.empty").Length() != 1 {
			t.Fatalf("before any news: %d, %q", p.Status, p.Text("main"))
		}
		demo := signInAccounts(t, app, "demo") // manager
		if p := demo.Get(folder); p.Status != http.StatusOK {
			t.Fatalf("GET %s: %d", folder, p.Status)
		}
		list := dev.Get("/accounts/defaults")
		rows := list.Doc.Find("table.defaults tbody tr")
		if rows.Length() != 1 || !strings.Contains(rows.Text(), "Chapter 11 filing") || !strings.Contains(rows.Text(), "by demo") ||
			!strings.Contains(rows.Text(), "news") {
			t.Fatalf("defaults after the folder's news: %q", list.Text("main"))
		}
		if href, _ := rows.Find("a[href^='/portfolio/folders/']").Attr("href"); href != folder {
			t.Errorf("the source links to %q, want %q", href, folder)
		}
		if list.Doc.Find("form.clear-default").Length() != 0 || list.Doc.Find("form.lgd-form").Length() != 0 {
			t.Error("an analyst is offered the managers' forms")
		}
		// The figures: PD 1, expected loss = balance × 100 %.
		if row := dev.Get("/accounts").Text("tr:has(a[href*='1004'])"); !strings.Contains(row, "100%") || strings.Count(row, "$83,350") != 2 {
			t.Errorf("R-1 on /accounts has no PD of 100 %% and expected loss of its balance: %q", row)
		}
		work := dev.Get("/worklist?reason=hold-advised")
		if w := work.Text("main"); !strings.Contains(w, "in default: Chapter 11 filing reported") || !strings.Contains(w, "learned from Folder") {
			t.Errorf("the worklist's hold does not name the filing: %q", w)
		}
		report := dev.Get("/businesses/1004")
		if b := report.Text("#team-default"); !strings.Contains(b, "In default: Chapter 11 filing") || !strings.Contains(b, "by demo") {
			t.Errorf("the report's banner for another user = %q", b)
		}
		if b := dev.Get("/businesses/1004/payments").Text("#team-default"); b == "" {
			t.Error("the payments tab has no default banner")
		}
		if b := dev.Get("/businesses/1001").Text("#team-default"); b != "" {
			t.Errorf("1001 has a default banner: %q", b)
		}
		audit := dev.Get("/audit?action=default").Text("table.audit tbody")
		if !strings.Contains(audit, "R-1") || !strings.Contains(audit, "demo") || !strings.Contains(audit, folder) {
			t.Errorf("the default's audit entry = %q", audit)
		}
		exposure := dev.Get("/portfolio/exposure").Text("main")
		if !strings.Contains(exposure, "83,350") {
			t.Errorf("the exposure page does not count R-1's loss as its balance: %.400q", exposure)
		}

		action, _, ok := demo.Get("/accounts/defaults").Form("form.clear-default")
		if !ok {
			t.Fatal("a manager is not offered to clear the default")
		}
		wantRefused(t, "an analyst clearing", dev.post(action, "note", "x"), "Only managers")
		wantRefused(t, "an analyst setting the loss given default", dev.post("/accounts/defaults/lgd", "lgd", "50"), "Only managers")
		bad := demo.post("/accounts/defaults/lgd", "lgd", "12,5")
		if bad.Status != http.StatusUnprocessableEntity || !strings.Contains(bad.Text("#lgd-error"), "ambiguous") {
			t.Errorf("an ambiguous percentage: %d, %q", bad.Status, bad.Text("#lgd-error"))
		}
		if v, _ := bad.Doc.Find("#lgd-value").Attr("value"); v != "12,5" {
			t.Errorf("the typed percentage came back as %q", v)
		}
		mustRedirect(t, "set the loss given default", demo.post("/accounts/defaults/lgd", "lgd", "60 %"))
		if b := dev.Get("/businesses/1004").Text("#team-default"); !strings.Contains(b, "60 %") {
			t.Errorf("the banner after setting 60 %%: %q", b)
		}
		if exp := dev.Get("/portfolio/exposure").Text("main"); !strings.Contains(exp, "50,010") {
			t.Errorf("the exposure page does not count 60 %% of 83,350: %.400q", exp)
		}
		empty := demo.post(action, "note", "  ")
		if empty.Status != http.StatusUnprocessableEntity || empty.Text("#clear-error") == "" {
			t.Errorf("a clearing without a note: %d, %q", empty.Status, empty.Text("#clear-error"))
		}
		mustRedirect(t, "clear", demo.post(action, "note", "Petition dismissed; trading normally"))
		after := dev.Get("/accounts/defaults")
		if after.Doc.Find("#in-force-title + p.empty").Length() != 1 || !strings.Contains(after.Text("main"), "cleared by demo") {
			t.Errorf("after clearing: %q", after.Text("main"))
		}
		if b := dev.Get("/businesses/1004").Text("#team-default"); b != "" {
			t.Errorf("the banner stays after clearing: %q", b)
		}
		demo.Get(folder) // the same story again leaves the clearing in force
		if n := dev.Get("/accounts/defaults").Doc.Find("#in-force-title ~ table").Length(); n != 0 {
			t.Error("the cleared filing came back from the same story")
		}
		if a := dev.Get("/audit?action=default-cleared").Text("table.audit tbody"); !strings.Contains(a, "Petition dismissed") || !strings.Contains(a, "demo") {
			t.Errorf("the clearing's audit entry = %q", a)
		}
	})
}

// TestDefaultLearnedByTheReport: news fetched before the account was
// linked taught nothing; the report's own News and events, built from
// that news, learns the filing for the team, attributed to the report.
func TestDefaultLearnedByTheReport(t *testing.T) {
	decisionApps(t, func(t *testing.T, app *apptest.App) {
		dev := signInAccounts(t, app, "developer")
		folder := "/portfolio/folders/" + strconv.Itoa(folderOf(t, demoUser(t, "developer"), 1004).FolderID)
		dev.Get(folder) // no account is linked to 1004 yet
		importLedger(t, dev, "aging.csv", defaultsLedger(t), "2026-10-31")
		if n := dev.Get("/accounts/defaults").Doc.Find("table.defaults tbody tr").Length(); n != 0 {
			t.Fatalf("%d defaults before the report", n)
		}
		if b := dev.Get("/businesses/1004").Text("#team-default"); !strings.Contains(b, "In default: Chapter 11 filing") || !strings.Contains(b, "the report's News and events") {
			t.Errorf("the report's banner = %q", b)
		}
		row := dev.Get("/accounts").Text("tr:has(a[href*=\"1004\"])")
		if !strings.Contains(row, "100%") || strings.Count(row, "$83,350") != 2 {
			t.Errorf("R-1 on /accounts has no PD of 100 %% and expected loss of its balance: %q", row)
		}
		if a := dev.Get("/audit?action=default").Text("table.audit tbody"); !strings.Contains(a, "/businesses/1004") || !strings.Contains(a, "developer") {
			t.Errorf("the default's audit entry = %q", a)
		}
	})
}

// filingInIndustryNews is the demo data with Redrock's (1004) Chapter 11
// story among every sector's industry news, as a service may carry it.
func filingInIndustryNews(t *testing.T) *simulator.Dataset {
	t.Helper()
	base := apptest.DemoData()
	data := *base
	var story *simulator.NewsItem
	for _, b := range base.Businesses {
		for i, n := range b.News {
			if b.ID == 1004 && strings.Contains(n.Title, "Chapter 11") {
				story = &b.News[i]
			}
		}
	}
	if story == nil {
		t.Fatal("the demo data has no Chapter 11 story of 1004")
	}
	data.IndustryNews = map[string][]simulator.NewsItem{}
	for sector, items := range base.IndustryNews {
		// As new as the sector's newest story, so it is among the top ones.
		s := *story
		if len(items) > 0 {
			s.PubDate = items[0].PubDate
		}
		data.IndustryNews[sector] = append([]simulator.NewsItem{s}, items...)
	}
	return &data
}

// TestDefaultLearnedFromIndustryNews: the industry news page and the home
// page's industry news learn a filing too, attributed to the page that
// received it; the account is then in default (PD 100 %) on /accounts.
func TestDefaultLearnedFromIndustryNews(t *testing.T) {
	data := filingInIndustryNews(t)
	for _, tc := range []struct{ page, source string }{{"/news/industry", "Industry news"}, {"/", "Industry news on the home page"}} {
		t.Run(tc.source, func(t *testing.T) {
			app := apptest.Start(t, apptest.Options{Data: data})
			u := signInAccounts(t, app, "demo")
			importLedger(t, u, "aging.csv", defaultsLedger(t), "2026-10-31")
			if p := u.Get(tc.page); p.Status != http.StatusOK || !strings.Contains(p.Body, "Chapter 11") {
				t.Fatalf("GET %s: %d, %.3000s", tc.page, p.Status, p.Text("main"))
			}
			rows := u.Get("/accounts/defaults").Doc.Find("table.defaults tbody tr")
			if rows.Length() != 1 || !strings.Contains(rows.Text(), "Chapter 11 filing") || !strings.Contains(rows.Text(), tc.source) {
				t.Fatalf("defaults after %s: %q", tc.page, rows.Text())
			}
			if href, _ := rows.Find("a[href='" + tc.page + "']").Attr("href"); href != tc.page {
				t.Errorf("the source does not link to %s: %q", tc.page, rows.Text())
			}
			if row := u.Get("/accounts").Text("tr:has(a[href*='1004'])"); !strings.Contains(row, "100%") {
				t.Errorf("R-1 on /accounts is not at PD 100 %%: %q", row)
			}
			if a := u.Get("/audit?action=default").Text("table.audit tbody"); !strings.Contains(a, "R-1") || !strings.Contains(a, tc.page) {
				t.Errorf("the default's audit entry = %q", a)
			}
		})
	}
}
