package handlers_test

import (
	"net/http"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"

	"creditdash/internal/apptest"
)

// TestScoreMapByFolderWorstFirst: ?folder= narrows the score map to one
// folder's businesses and ?order=worst orders them by the latest score,
// lowest first; both stay in the page links and the form.
func TestScoreMapByFolderWorstFirst(t *testing.T) {
	app := apptest.Start(t, apptest.Options{})
	u := app.SignIn(t, "demo")
	var folder104 []int32
	for _, f := range apptest.DemoData().Users[0].Folders {
		if f.FolderID == 104 {
			folder104 = f.BusinessIDs
		}
	}
	fp := u.Get("/portfolio/folders/104")
	link, _ := fp.Doc.Find("a.folder-score-map").Attr("href")
	if link != "/portfolio/scores?folder=104&order=worst" {
		t.Errorf("the folder page's score-map link = %q", link)
	}
	p := u.Get("/portfolio/scores?score=pay&folder=104&order=worst&size=25")
	mustStatus(t, "score map for folder 104", p, http.StatusOK)
	in := map[string]bool{}
	for _, id := range folder104 {
		in[strconv.Itoa(int(id))] = true
	}
	var latest []float64
	rows := 0
	p.Doc.Find("table.heat tbody tr, table.scores tbody tr").Each(func(_ int, tr *goquery.Selection) {
		rows++
		href, _ := tr.Find("a").First().Attr("href")
		if id := strings.TrimPrefix(href, "/businesses/"); !in[id] {
			t.Errorf("row for %s, which folder 104 does not hold", id)
		}
		var last float64
		found := false
		tr.Find("td").Each(func(_ int, td *goquery.Selection) {
			if v, err := strconv.ParseFloat(strings.Fields(td.Text() + " x")[0], 64); err == nil {
				last, found = v, true
			}
		})
		if found {
			latest = append(latest, last)
		}
	})
	if rows == 0 || rows > len(folder104) {
		t.Fatalf("%d rows, want the folder's %d businesses at most", rows, len(folder104))
	}
	for i := 1; i < len(latest); i++ {
		if latest[i] < latest[i-1] {
			t.Errorf("latest scores %v are not worst first", latest)
			break
		}
	}
	if v, _ := p.Doc.Find(`.scores-form input[name="folder"]`).Attr("value"); v != "104" {
		t.Errorf("the form's folder = %q", v)
	}
	if v, _ := p.Doc.Find(`.scores-form select[name="order"] option[selected]`).Attr("value"); v != "worst" {
		t.Errorf("the form's order = %q", v)
	}
	if bad := u.Get("/portfolio/scores?folder=abc&order=sideways"); bad.Status != http.StatusBadRequest || !strings.Contains(bad.Text("main"), "not a folder id") {
		t.Errorf("bad folder and order: status %d", bad.Status)
	}
}

// TestScoreMapWorstFirstByDefault: the score map opens worst first (triage
// reads it from the top), says so in its form, and every page link keeps
// the order and the folder in the URL; by name only when asked.
func TestScoreMapWorstFirstByDefault(t *testing.T) {
	app := apptest.Start(t, apptest.Options{})
	u := app.SignIn(t, "demo")
	latest := func(p *apptest.Page) []float64 {
		var out []float64
		p.Doc.Find("table.heat tbody tr").Each(func(_ int, tr *goquery.Selection) {
			last, found := 0.0, false
			tr.Find("td").Each(func(_ int, td *goquery.Selection) {
				if v, err := strconv.ParseFloat(strings.TrimSpace(td.Text()), 64); err == nil {
					last, found = v, true
				}
			})
			if found {
				out = append(out, last)
			}
		})
		return out
	}
	p := u.Get("/portfolio/scores?size=25")
	mustStatus(t, "score map", p, http.StatusOK)
	got := latest(p)
	if len(got) < 10 {
		t.Fatalf("%d scored rows on the first page", len(got))
	}
	for i := 1; i < len(got); i++ {
		if got[i] < got[i-1] {
			t.Fatalf("opened without an order, latest scores %v are not worst first", got)
		}
	}
	if v, _ := p.Doc.Find(`.scores-form select[name="order"] option[selected]`).Attr("value"); v != "worst" {
		t.Errorf("the form's order = %q, want worst", v)
	}
	next := pagerLinks(p)["Next"]
	if !strings.Contains(next, "order=worst") {
		t.Errorf("next page link %q does not keep worst first", next)
	}
	// The second page goes on from where the first stopped.
	if second := latest(u.Get(next)); len(second) == 0 || second[0] < got[len(got)-1] {
		t.Errorf("page 2 starts at %v after page 1 ended at %v", second, got[len(got)-1])
	}

	byName := u.Get("/portfolio/scores?size=25&order=name&folder=104")
	mustStatus(t, "by name in folder 104", byName, http.StatusOK)
	names := rowNames(byName)
	if len(names) == 0 || !sort.StringsAreSorted(names) {
		t.Errorf("order=name lists %q, want by name", names)
	}
	if v, _ := byName.Doc.Find(`.scores-form select[name="order"] option[selected]`).Attr("value"); v != "name" {
		t.Errorf("the form's order = %q, want name", v)
	}
	bad := u.Get("/portfolio/scores?order=sideways")
	if bad.Status != http.StatusBadRequest || !strings.Contains(bad.Text("main"), "showing them worst first") {
		t.Errorf("a bad order: status %d, %q", bad.Status, clip(bad.Text("main")))
	}
}
