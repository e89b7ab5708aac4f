package handlers_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"

	"creditdash/internal/apptest"
	"creditdash/internal/upstream/simulator"
)

func TestCompare(t *testing.T) {
	app := apptest.Start(t, apptest.Options{})
	u := app.SignIn(t, "demo")
	cases := []struct {
		name       string
		path       string
		wantStatus int
		wantCols   int
		notices    []string
	}{
		{"three", "/compare?ids=1001,1002,1005", http.StatusOK, 3, nil},
		{"bad and repeated", "/compare?ids=1001,abc,1001,1002", http.StatusOK, 2, []string{"“abc” is not a business id", "1001 is listed more than once"}},
		{"more than five", "/compare?ids=1001,1002,1003,1004,1005,1006,1007", http.StatusOK, 5, []string{"At most five businesses are compared; 1006, 1007 left out"}},
		{"unknown", "/compare?ids=1001,999999", http.StatusOK, 1, []string{"There is no business with id 999999", "Only one business"}},
		{"one asked", "/compare?ids=1001", http.StatusOK, 1, []string{"Add another business to compare"}},
		{"nothing left", "/compare?ids=999999,x", http.StatusBadRequest, 0, []string{"There is no business with id 999999", "“x” is not a business id"}},
		{"no ids", "/compare", http.StatusBadRequest, 0, []string{"Name the businesses to compare"}},
		{"cut before an id", "/compare?ids=1005," + strings.Repeat("%20", 191) + "10017", http.StatusOK, 1, []string{"too long"}},
		{"repeated parameter", "/compare?ids=1001&ids=1002", http.StatusOK, 2, nil},
		{"leading zeros", "/compare?ids=1001,01002", http.StatusOK, 1, []string{"without a sign or leading zeros"}},
	}
	for _, c := range cases {
		p := u.Get(c.path)
		if p.Status != c.wantStatus {
			t.Errorf("%s: GET %s: status = %d, want %d", c.name, c.path, p.Status, c.wantStatus)
		}
		if n := p.Doc.Find("table.compare thead th").Length() - 1; c.wantCols > 0 && n != c.wantCols {
			t.Errorf("%s: %d columns, want %d", c.name, n, c.wantCols)
		}
		for _, want := range c.notices {
			if !strings.Contains(p.Text(".notice"), want) {
				t.Errorf("%s: notices %q lack %q", c.name, p.Text(".notice"), want)
			}
		}
	}

	// One notice for an id listed many times.
	if p := u.Get("/compare?ids=1001" + strings.Repeat(",1001", 30) + ",1002"); strings.Count(p.Text(".notice"), "listed more than once") != 1 {
		t.Errorf("an id listed 31 times: notices %q, want one about it", p.Text(".notice"))
	}
	// Only the ids asked for: a cut never makes one up.
	if p := u.Get("/compare?ids=1005," + strings.Repeat("%20", 191) + "10017"); strings.Contains(p.Text("table.compare thead"), "Westbridge") {
		t.Errorf("1001 (Westbridge) compared though never asked for: %q", p.Text("table.compare thead"))
	}

	p := u.Get("/compare?ids=1001,1002,1005")
	// Best and worst are told in words in the rows that have a direction.
	risk := p.Doc.Find("table.compare tbody tr").First()
	if got := risk.Text(); !strings.Contains(got, "best") || !strings.Contains(got, "worst") {
		t.Errorf("Risk row marks: %q", got)
	}
	if n := p.Doc.Find("#compare-charts [data-chart]").Length(); n != 4 {
		t.Errorf("%d score charts, want 4", n)
	}
	if href, _ := p.Doc.Find("table.compare thead th a").First().Attr("href"); href != "/businesses/1001?compare=1001,1002,1005" {
		t.Errorf("column link %q", href)
	}
	// The report keeps the list: its "Add to compare" adds itself.
	r := u.Get("/businesses/1003?compare=1001,1002")
	if href, _ := r.Doc.Find("a.add-compare").Attr("href"); href != "/compare?ids=1001,1002,1003" {
		t.Errorf("report's add-to-compare link %q", href)
	}
	s := u.Get("/?q=North&compare=1001")
	if href, _ := s.Doc.Find(".results a.add-compare").First().Attr("href"); !strings.HasPrefix(href, "/compare?ids=1001,") {
		t.Errorf("search result's add-to-compare link %q", href)
	}
}

// An Ordinary account is told what the uncached businesses cost and gets
// what its budget allows, never more than the hour's requests.
func TestCompareWithinTheBudget(t *testing.T) {
	app := apptest.Start(t, apptest.Options{})
	u := app.SignIn(t, "ordinary")
	u.Get("/businesses/1001/financials") // 6
	p := u.Get("/compare?ids=1001,1002,1005")
	if p.Status != http.StatusOK {
		t.Fatalf("status %d", p.Status)
	}
	if n := total(app, "ordinary"); n > 10 {
		t.Errorf("%d requests spent, more than the hour's 10", n)
	}
	offers := p.Doc.Find(".problem.deferred")
	// Fewer requests are left than loading them takes: said once at the
	// top, with no Load link that could not work.
	if offers.Length() == 0 || offers.Find("a").Length() != 0 || p.Doc.Find("#budget-notice").Length() != 1 {
		t.Errorf("unloaded businesses: %q, %d links, %d notices", offers.Text(), offers.Find("a").Length(), p.Doc.Find("#budget-notice").Length())
	}
	if !strings.Contains(p.Text("table.compare"), "not loaded") {
		t.Errorf("an unloaded column should read as such")
	}
}

// A score that stopped before the newest month is not offered as the
// latest beside the others': 1006's Z″ ends in March in the demo data, so
// its Z″ and Z″ change read "missing".
func TestCompareDoesNotPassAnOldScoreForTheLatest(t *testing.T) {
	app := apptest.Start(t, apptest.Options{})
	p := app.SignIn(t, "demo").Get("/compare?ids=1006,1007")
	if p.Status != http.StatusOK {
		t.Fatalf("status %d", p.Status)
	}
	rows := map[string]string{}
	p.Doc.Find("table.compare tbody tr").Each(func(_ int, tr *goquery.Selection) {
		label := strings.TrimSpace(tr.Find("th").Contents().First().Text())
		rows[label] = strings.TrimSpace(tr.Find("td").First().Text())
	})
	for _, label := range []string{"Z″-Score", "Z″, 12-month change"} {
		if got, ok := rows[label]; !ok || !strings.HasPrefix(got, "missing") {
			t.Errorf("1006's %q reads %q, want missing (its Z″ stopped before the newest month); rows %v", label, got, rows)
		}
	}
}

// A failed name lookup costs the column its heading only; when every
// business failed, the page says so with the failure's status.
func TestCompareFailures(t *testing.T) {
	app := apptest.Start(t, apptest.Options{})
	u := app.SignIn(t, "demo")
	app.Sim.SetFaults(simulator.Faults{ErrorRate: 1, ErrorPaths: []string{"/v1/Business/IdentificationGroup"}, ErrorStatus: 500})
	p := u.Get("/compare?ids=1001,1002")
	if p.Status != http.StatusOK || !strings.Contains(p.Text("table.compare thead"), "Business 1001") || p.Doc.Find("table.compare tbody tr").Length() == 0 {
		t.Errorf("names failing: status %d, head %q; want 200 with the ids as headings and the rows", p.Status, p.Text("table.compare thead"))
	}
	if n := p.Doc.Find(`section[aria-label^="Not compared yet"]`).Length(); n != 0 {
		t.Errorf("names failing: %d columns show the failure instead of their data", n)
	}
	app.Sim.SetFaults(simulator.Faults{ErrorRate: 1, ErrorStatus: 500, ErrorPaths: []string{"/v1/Business/CreditScoreHistory", "/v1/Business/PaymentSummary/Monthly", "/v1/Business/LatestAnnualStatements"}})
	if p := u.Get("/compare?ids=1003,1004"); p.Status != http.StatusBadGateway {
		t.Errorf("every business failing: status %d, want 502", p.Status)
	}
}

// Each business's latest statements are dated, since fiscal years end in
// different months; size is not marked, the margin is.
func TestCompareDatesTheStatements(t *testing.T) {
	app := apptest.Start(t, apptest.Options{})
	p := app.SignIn(t, "demo").Get("/compare?ids=1001,1002")
	rows := map[string]string{}
	p.Doc.Find("table.compare tbody tr").Each(func(_ int, tr *goquery.Selection) {
		rows[strings.TrimSpace(tr.Find("th").First().Contents().First().Text())] = tr.Text()
	})
	if r := rows["Statements of"]; !strings.Contains(r, "Jul 2026") || !strings.Contains(r, "Dec 2025") {
		t.Errorf("Statements of row %q, want each business's fiscal year end (Jul 2026, Dec 2025)", r)
	}
	if r := rows["Net income"]; strings.Contains(r, "best") || strings.Contains(r, "worst") {
		t.Errorf("Net income row %q marks size", r)
	}
	if r := rows["Net margin"]; !strings.Contains(r, "best") || !strings.Contains(r, "worst") {
		t.Errorf("Net margin row %q, want best and worst marked", r)
	}
}

// The list being compared survives the ways the page suggests to add to
// it: a search from the compare page, and the tabs of a report.
func TestCompareListIsCarried(t *testing.T) {
	app := apptest.Start(t, apptest.Options{})
	u := app.SignIn(t, "demo")
	p := u.Get("/compare?ids=1001,1002")
	find, _ := p.Doc.Find(`a:contains("Find another business to add")`).Attr("href")
	if !strings.HasPrefix(find, "/?compare=1001,1002") {
		t.Fatalf("find-another link %q, want the home page with the list", find)
	}
	home := u.Get(find)
	if v, _ := home.Doc.Find(`form[role="search"] input[name="compare"]`).Attr("value"); v != "1001,1002" {
		t.Errorf("the search form carries compare=%q, want 1001,1002", v)
	}
	found := u.Get("/?q=North&compare=1001,1002")
	if href, _ := found.Doc.Find(".results a.add-compare").First().Attr("href"); !strings.HasPrefix(href, "/compare?ids=1001,1002,") {
		t.Errorf("a result's add-to-compare link %q, want the list plus the result", href)
	}
	r := u.Get("/businesses/1003?compare=1001,1002")
	if href, _ := r.Doc.Find(`a:contains("Payments")`).First().Attr("href"); href != "/businesses/1003/payments?compare=1001,1002" {
		t.Errorf("a tab's link %q, want it to keep the list", href)
	}
}
