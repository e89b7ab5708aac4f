package handlers_test

import (
	"cmp"
	"context"
	"math"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"

	"creditdash/internal/apptest"
	"creditdash/internal/upstream"
	"creditdash/internal/upstream/simulator"
)

// portfolioNames is demo's portfolio once each, in the service's order.
func portfolioNames(t *testing.T) []string {
	t.Helper()
	byID := map[int32]string{}
	for _, b := range apptest.DemoData().Businesses {
		byID[b.ID] = b.Name
	}
	type biz struct {
		id   int32
		name string
	}
	var list []biz
	seen := map[int32]bool{}
	for _, f := range demoUser(t, "demo").Folders {
		for _, id := range f.BusinessIDs {
			if !seen[id] {
				seen[id] = true
				list = append(list, biz{id, byID[id]})
			}
		}
	}
	slices.SortFunc(list, func(a, b biz) int { return cmp.Or(cmp.Compare(a.name, b.name), cmp.Compare(a.id, b.id)) })
	out := make([]string, len(list))
	for i, b := range list {
		out[i] = b.name
	}
	return out
}

// pagerLinks maps the words of the top pager's links (First, Previous,
// Next, Last) to their hrefs.
func pagerLinks(p *apptest.Page) map[string]string {
	out := map[string]string{}
	p.Doc.Find("nav.pager").First().Find("a").Each(func(_ int, a *goquery.Selection) {
		for _, word := range strings.Fields(a.Text()) {
			if word != "«" && word != "‹" && word != "›" && word != "»" {
				out[word] = a.AttrOr("href", "")
			}
		}
	})
	return out
}

func rowNames(p *apptest.Page) []string {
	var out []string
	p.Doc.Find("table.heat tbody th a").Each(func(_ int, a *goquery.Selection) { out = append(out, a.Text()) })
	return out
}

func TestScoresPaging(t *testing.T) {
	app := apptest.Start(t, apptest.Options{})
	u := app.SignIn(t, "demo")
	names := portfolioNames(t)
	total := len(names)
	last := (total + 24) / 25
	if last < 3 {
		t.Fatalf("the demo portfolio has %d businesses; the test needs at least 3 pages", total)
	}

	var seen []string
	for page := 1; page <= last; page++ {
		path := "/portfolio/scores?order=name&size=25&page=" + strconv.Itoa(page)
		p := u.Get(path)
		mustStatus(t, path, p, http.StatusOK)
		first, end := (page-1)*25+1, min(page*25, total)
		if want := "rows " + strconv.Itoa(first) + "–" + strconv.Itoa(end) + " of " + strconv.Itoa(total); !strings.Contains(p.Text("nav.pager"), want) {
			t.Errorf("%s: pager says %q, want %q", path, p.Text("nav.pager"), want)
		}
		links := pagerLinks(p)
		wantLinks := map[string]bool{"First": page > 1, "Previous": page > 1, "Next": page < last, "Last": page < last}
		for text, want := range wantLinks {
			if _, ok := links[text]; ok != want {
				t.Errorf("%s: link %q present %v, want %v (links %v)", path, text, ok, want, links)
			}
		}
		if page > 1 && !strings.Contains(links["Previous"], "page="+strconv.Itoa(page-1)) {
			t.Errorf("%s: previous links to %q", path, links["Previous"])
		}
		if page < last && !strings.Contains(links["Last"], "page="+strconv.Itoa(last)) {
			t.Errorf("%s: last links to %q", path, links["Last"])
		}
		seen = append(seen, rowNames(p)...)
	}
	if !slices.Equal(seen, names) {
		t.Errorf("the pages together list %d businesses, want all %d once, in name order", len(seen), total)
	}

	// Past the end: a clear message and the way to the last page.
	past := "/portfolio/scores?order=name&size=25&page=" + strconv.Itoa(last+1)
	p := u.Get(past)
	mustStatus(t, past, p, http.StatusNotFound)
	if !strings.Contains(p.Text(".past-end"), "no page "+strconv.Itoa(last+1)) || p.Doc.Find("table.heat").Length() != 0 {
		t.Errorf("%s says %q", past, p.Text("main"))
	}
	if href, _ := p.Doc.Find(".past-end a").Attr("href"); !strings.Contains(href, "page="+strconv.Itoa(last)) || !strings.Contains(href, "size=25") {
		t.Errorf("%s links to %q, want the last page", past, href)
	}
	if p := u.Get("/portfolio/scores?page=1000000"); p.Status != http.StatusNotFound {
		t.Errorf("page 1000000: status %d", p.Status)
	}

	// One page of 100 holds everything, with no paging links.
	p = u.Get("/portfolio/scores?order=name&size=100")
	if n := len(rowNames(p)); n != total || len(pagerLinks(p)) != 0 {
		t.Errorf("size=100: %d rows and links %v, want %d rows and none", n, pagerLinks(p), total)
	}
	// Paging keeps the score, months and size.
	p = u.Get("/portfolio/scores?score=z&from=2026-01&to=2026-06&size=50")
	if next := pagerLinks(p)["Next"]; !strings.Contains(next, "score=z") || !strings.Contains(next, "from=2026-01") ||
		!strings.Contains(next, "to=2026-06") || !strings.Contains(next, "size=50") || !strings.Contains(next, "page=2") {
		t.Errorf("next page link %q loses the view", next)
	}
}

func TestScoresBadParametersGetAMessageAndDefaults(t *testing.T) {
	app := apptest.Start(t, apptest.Options{})
	u := app.SignIn(t, "demo")
	cases := []struct {
		query    string
		messages int
		rows     int
		months   int
	}{
		{"score=q", 1, 25, 12},
		{"size=30", 1, 25, 12},
		{"size=abc", 1, 25, 12},
		{"page=0", 1, 25, 12},
		{"page=-3", 1, 25, 12},
		{"page=x", 1, 25, 12},
		{"from=2026-13", 1, 25, 12},
		{"to=yesterday", 1, 25, 12},
		{"from=2026-06&to=2026-01", 1, 25, 12},
		{"from=1066-10&to=1066-12", 2, 25, 12},
		{"from=2020-01&to=2026-10", 1, 25, 36},
		{"score=%3Cscript%3E&size=7&page=y&from=x", 4, 25, 12},
	}
	for _, c := range cases {
		path := "/portfolio/scores?" + c.query
		p := u.Get(path)
		mustStatus(t, path, p, http.StatusBadRequest)
		if n := p.Doc.Find(".form-error").Length(); n != c.messages {
			t.Errorf("%s: %d messages (%q), want %d", path, n, p.Text(".form-error"), c.messages)
		}
		if n := p.Doc.Find("table.heat tbody tr").Length(); n != c.rows {
			t.Errorf("%s: %d rows, want the defaults' %d", path, n, c.rows)
		}
		if n := p.Doc.Find("table.heat thead th").Length() - 1; n != c.months {
			t.Errorf("%s: %d months, want %d", path, n, c.months)
		}
		if strings.Contains(p.Body, "<script>") {
			t.Errorf("%s: the refused input is echoed as markup", path)
		}
	}
	p := u.Get("/portfolio/scores?from=2026-01&to=2026-06")
	mustStatus(t, "from/to", p, http.StatusOK)
	var months []string
	p.Doc.Find("table.heat thead th.num").Each(func(_ int, s *goquery.Selection) { months = append(months, s.Text()) })
	if want := []string{"Jan 2026", "Feb 2026", "Mar 2026", "Apr 2026", "May 2026", "Jun 2026"}; !slices.Equal(months, want) {
		t.Errorf("months %v, want %v", months, want)
	}
	if v, _ := p.Doc.Find(`input[name="from"]`).Attr("value"); v != "2026-01" {
		t.Errorf("the form forgot the start month: %q", v)
	}
}

// TestScoresCellsEqualTheService compares every cell of a page with the
// service's own answer: the value, the zone colour, and a dash (never 0)
// where the service has no score.
func TestScoresCellsEqualTheService(t *testing.T) {
	app := apptest.Start(t, apptest.Options{})
	u := app.SignIn(t, "demo")
	key := u.SessionKey()
	for _, score := range []string{"pay", "z"} {
		p := u.Get("/portfolio/scores?order=name&size=100&score=" + score)
		mustStatus(t, score, p, http.StatusOK)
		get := app.Client.As(key).PayScoreHistory
		if score == "z" {
			get = app.Client.As(key).ZScoreHistory
		}
		hist, err := get(context.Background(), upstream.PortfolioQuery{StartRow: 1, EndRow: 100})
		if err != nil {
			t.Fatal(err)
		}
		var months []string
		p.Doc.Find("table.heat thead th.num").Each(func(_ int, s *goquery.Selection) { months = append(months, s.Text()) })
		rows := p.Doc.Find("table.heat tbody tr")
		if rows.Length() != len(hist.Businesses) {
			t.Fatalf("%s: %d rows, the service has %d", score, rows.Length(), len(hist.Businesses))
		}
		missingRows := 0
		rows.Each(func(i int, tr *goquery.Selection) {
			b := hist.Businesses[i]
			if href, _ := tr.Find("th a").Attr("href"); href != "/businesses/"+strconv.Itoa(int(b.BusinessID)) {
				t.Errorf("%s row %d links %q, want business %d", score, i, href, b.BusinessID)
			}
			want := map[string]float64{}
			for _, s := range b.Scores {
				if s.Score.OK {
					want[monthLabel(s.Year, s.Month)] = s.Score.V
				}
			}
			if len(want) == 0 {
				missingRows++
			}
			tr.Find("td").Each(func(j int, td *goquery.Selection) {
				v, ok := want[months[j]]
				text := td.Text()
				class, _ := td.Attr("class")
				switch {
				case !ok && (text != "—" || class != "zone-none"):
					t.Errorf("%s %s %s: cell %q class %q, want a dash in zone-none", score, b.BusinessName, months[j], text, class)
				case ok && score == "pay" && text != strconv.Itoa(int(v)):
					t.Errorf("%s %s %s: cell %q, want %v", score, b.BusinessName, months[j], text, v)
				case ok && score == "z" && text != strconv.FormatFloat(math.Round(v*100)/100, 'f', 2, 64):
					t.Errorf("%s %s %s: cell %q, want %.2f", score, b.BusinessName, months[j], text, v)
				case ok && !strings.HasPrefix(class, "zone-") || ok && class == "zone-none":
					t.Errorf("%s %s %s: scored cell has class %q", score, b.BusinessName, months[j], class)
				}
			})
		})
		// 1003 has no Pay score; private businesses have no Z-Score.
		if missingRows == 0 {
			t.Errorf("%s: no business without scores on the page; the missing case went untested", score)
		}
	}
}

func monthLabel(year, month int) string {
	return [...]string{"Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"}[month-1] + " " + strconv.Itoa(year)
}

func TestScoresServiceFailureKeepsTheForm(t *testing.T) {
	app := apptest.Start(t, apptest.Options{})
	u := app.SignIn(t, "demo")
	app.Sim.SetFaults(simulator.Faults{ErrorRate: 1, ErrorPaths: []string{"/v1/Portfolio/PayScoreHistory"}})
	p := u.Get("/portfolio/scores?page=2")
	if p.Status != http.StatusBadGateway || !strings.Contains(p.Text(".problem"), "not answering") {
		t.Errorf("status %d problem %q, want 502 told in the page", p.Status, p.Text(".problem"))
	}
	if p.Doc.Find("form.scores-form").Length() != 1 {
		t.Error("the form is gone")
	}
	if href, _ := p.Doc.Find(".problem a").Attr("href"); href != "/portfolio/scores?page=2" {
		t.Errorf("retry link %q", href)
	}
}

// Months after this one hold no scores yet: From alone runs to this month
// at most, and a later To is cut there with a word.
func TestScoresMonthsStopAtThisMonth(t *testing.T) {
	app := apptest.Start(t, apptest.Options{})
	u := app.SignIn(t, "demo")
	now := time.Now()
	this := now.Format("2006-01")
	p := u.Get("/portfolio/scores?from=" + now.AddDate(0, -5, 0).Format("2006-01"))
	if to, _ := p.Doc.Find("input[name=to]").Attr("value"); p.Status != http.StatusOK || to != this {
		t.Errorf("From alone, six months back: status %d, to %q; want 200 up to %s", p.Status, to, this)
	}
	p = u.Get("/portfolio/scores?to=" + now.AddDate(0, 3, 0).Format("2006-01"))
	if to, _ := p.Doc.Find("input[name=to]").Attr("value"); p.Status != http.StatusBadRequest || to != this ||
		!strings.Contains(p.Text("main"), "after this month") {
		t.Errorf("To three months ahead: status %d, to %q; want 400 saying so, up to %s", p.Status, to, this)
	}
	p = u.Get("/portfolio/scores?from=" + now.AddDate(0, 2, 0).Format("2006-01"))
	if from, _ := p.Doc.Find("input[name=from]").Attr("value"); p.Status != http.StatusBadRequest || from != "" ||
		!strings.Contains(p.Text("main"), "start month is after this month") {
		t.Errorf("From two months ahead: status %d, from %q; want 400 saying so, with the latest months", p.Status, from)
	}
}
