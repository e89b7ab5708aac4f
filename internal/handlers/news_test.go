package handlers_test

import (
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"

	"creditdash/internal/apptest"
	"creditdash/internal/upstream"
	"creditdash/internal/upstream/simulator"
)

// hostileNews are stories whose every field tries to become markup, script
// or a dangerous link. Their dates are recent so they lead every feed.
func hostileNews(base int64) []simulator.NewsItem {
	date := func(d int) string {
		return time.Date(2026, time.November, 10, 12-d, 0, 0, 0, time.UTC).Format(time.RFC1123)
	}
	return []simulator.NewsItem{
		{ID: base + 1, PubDate: date(0),
			Title: `<script>alert('t')</script>Acme <img src=x onerror=alert(1)>wins`, Link: "javascript:alert(1)",
			Description: `<p onclick="alert(2)">Deal</p><script>alert(3)</script><a href="javascript:alert(4)">more</a><img src=x onerror=alert(5)>`},
		{ID: base + 2, PubDate: date(1),
			Title: "Data link &amp; more", Link: "data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==",
			Description: `<a href="data:text/html,x">d</a><iframe src="https://evil.example.com"></iframe><svg onload=alert(6)></svg>`},
		{ID: base + 3, PubDate: date(2),
			Title: `"><svg onload=alert(7)>`, Link: `https://news.example.com/ok?a=1&b="><script>alert(10)</script>`,
			Description: `<a href="https://news.example.com/x" onmouseover="alert(8)">safe link</a> &amp; text`},
		{ID: base + 4, PubDate: date(3), Title: "Spaced", Link: " JAVASCRIPT:alert(9)",
			Description: `<style>*{display:none}</style><form action="https://evil.example.com"><input name=x></form>plain`},
		{ID: base + 5, PubDate: date(4), Title: "Protocol-relative", Link: "//evil.example.com/x",
			Description: `<a href="vbscript:msgbox(1)">vb</a><object data="x"></object><embed src="x">`},
	}
}

// hostileNewsData is the demo data with hostile stories for business 1001
// and as every sector's industry news.
func hostileNewsData() *simulator.Dataset {
	base := apptest.DemoData()
	data := *base
	data.Businesses = append([]simulator.Business(nil), base.Businesses...)
	for i := range data.Businesses {
		if data.Businesses[i].ID == 1001 {
			data.Businesses[i].News = hostileNews(9_100_000)
		}
	}
	data.IndustryNews = map[string][]simulator.NewsItem{}
	for sector := range base.IndustryNews {
		data.IndustryNews[sector] = hostileNews(9_200_000)
	}
	return &data
}

var nonceOf = regexp.MustCompile(`'nonce-([^']+)'`)

// checkInertPage fails on any script but ours, any on* attribute, any
// active element from the service, and any href that is not a path of
// ours or an http(s) URL.
func checkInertPage(t *testing.T, what string, p *apptest.Page) {
	t.Helper()
	nonce := nonceOf.FindStringSubmatch(p.Header.Get("Content-Security-Policy"))
	p.Doc.Find("script").Each(func(i int, s *goquery.Selection) {
		n, _ := s.Attr("nonce")
		src, hasSrc := s.Attr("src")
		typ, _ := s.Attr("type")
		// The policy is script-src 'self' (no nonce): a script is ours when
		// it is one of our static files, or chart data that never runs.
		ours := (nonce == nil || n == nonce[1]) && (hasSrc && strings.HasPrefix(src, "/static/") || typ == "application/json")
		if !ours {
			t.Errorf("%s: script %d is not ours: %s", what, i, outerHTML(s))
		}
	})
	p.Doc.Find("*").Each(func(_ int, s *goquery.Selection) {
		for _, a := range s.Nodes[0].Attr {
			if strings.HasPrefix(strings.ToLower(a.Key), "on") {
				t.Errorf("%s: <%s %s=%q> survived", what, goquery.NodeName(s), a.Key, a.Val)
			}
		}
	})
	for _, tag := range []string{"iframe", "svg", "img", "object", "embed", "style", "main form[action^='http']", "main input[name='x']"} {
		if n := p.Doc.Find(tag).Length(); n > 0 {
			t.Errorf("%s: %d %s elements from the service survived", what, n, tag)
		}
	}
	p.Doc.Find("[href]").Each(func(_ int, s *goquery.Selection) {
		href, _ := s.Attr("href")
		if strings.HasPrefix(href, "/") && !strings.HasPrefix(href, "//") || strings.HasPrefix(href, "#") {
			return
		}
		u, err := url.Parse(href)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			t.Errorf("%s: href %q is neither ours nor http(s)", what, href)
		}
	})
	low := strings.ToLower(p.Body)
	for _, bad := range []string{"javascript:", "vbscript:", "data:text", "<script>alert"} {
		if strings.Contains(low, bad) {
			t.Errorf("%s: the page holds %q", what, bad)
		}
	}
}

func TestHostileNewsRendersInert(t *testing.T) {
	app := apptest.Start(t, apptest.Options{Data: hostileNewsData()})
	u := app.SignIn(t, "demo")
	folder := folderOf(t, demoUser(t, "demo"), 1001)
	pages := []string{"/portfolio/folders/" + strconv.Itoa(folder.FolderID), "/news/industry", "/"}
	for _, path := range pages {
		p := u.Get(path)
		mustStatus(t, path, p, http.StatusOK)
		checkInertPage(t, path, p)
		items := p.Doc.Find(".news li")
		if items.Length() < 5 {
			t.Fatalf("%s: %d stories, want the hostile ones", path, items.Length())
		}
		first := items.First()
		if got := strings.Join(strings.Fields(first.Find(".title").Text()), " "); got != "Acme wins" {
			t.Errorf("%s: first title reads %q, want %q (tags dropped, text kept)", path, got, "Acme wins")
		}
		if first.Find(".title a").Length() != 0 {
			t.Errorf("%s: a javascript: link became a link", path)
		}
		if !strings.Contains(first.Find(".desc").Text(), "Deal") || !strings.Contains(first.Find(".desc").Text(), "more") {
			t.Errorf("%s: the description's text is lost: %q", path, first.Find(".desc").Text())
		}
		if path == "/" {
			continue // the home page shows only the first few headlines
		}
		second := items.Eq(1)
		if got := strings.TrimSpace(second.Find(".title").Text()); got != "Data link & more" || second.Find(".title a").Length() != 0 {
			t.Errorf("%s: second title %q (want the entity shown as &, and no link for data:)", path, got)
		}
		third := items.Eq(2)
		if href, _ := third.Find(".title a").Attr("href"); !strings.HasPrefix(href, "https://news.example.com/ok?") {
			t.Errorf("%s: an https link was dropped: %q", path, href)
		}
		if a := third.Find(".desc a"); a.Text() != "safe link" || a.AttrOr("rel", "") == "" || a.AttrOr("target", "") != "_blank" {
			t.Errorf("%s: the description's https link is %s", path, outerHTML(a))
		}
		if strings.Count(third.Find(".desc").Text(), "&") != 1 || strings.Contains(third.Find(".desc").Text(), "&amp;") {
			t.Errorf("%s: entity in description reads %q", path, third.Find(".desc").Text())
		}
		for i := 3; i < 5; i++ {
			if items.Eq(i).Find(".title a").Length() != 0 {
				t.Errorf("%s: story %d links although its link is not http(s)", path, i+1)
			}
		}
	}
}

func TestIndustryNewsShowsAtMostTwenty(t *testing.T) {
	app := apptest.Start(t, apptest.Options{StandIn: manyNews})
	u := app.SignIn(t, "developer")
	p := u.Get("/news/industry")
	mustStatus(t, "/news/industry", p, http.StatusOK)
	if n := p.Doc.Find(".news li").Length(); n != 20 {
		t.Errorf("%d stories shown, want the first 20 of 30", n)
	}
	if p.Doc.Find(`nav a[aria-current="page"]`).Text() != "Industry news" {
		t.Errorf("navigation marks %q as current", p.Doc.Find(`nav a[aria-current="page"]`).Text())
	}
}

// manyNews is a service that sends more industry news than it should.
var manyNews = intercept("/v1/Industries/News", func(w http.ResponseWriter, _ *http.Request, _ http.Handler) {
	var out []upstream.NewsItem
	for i := range 30 {
		at := time.Date(2026, time.October, 30, 12, 0, 0, 0, time.UTC).Add(-time.Duration(i) * time.Hour)
		out = append(out, upstream.NewsItem{ID: int64(i), Title: "Story " + strconv.Itoa(i),
			Link: "https://news.example.com/" + strconv.Itoa(i), PubDate: at.Format(time.RFC1123)})
	}
	serviceAnswer(w, http.StatusOK, "", out)
})

func TestIndustryNewsFailureIsAPageWithRetry(t *testing.T) {
	app := apptest.Start(t, apptest.Options{})
	u := app.SignIn(t, "demo")
	app.Sim.SetFaults(simulator.Faults{ErrorRate: 1, ErrorPaths: []string{"/v1/Industries/News"}, ErrorStatus: http.StatusServiceUnavailable})
	p := u.Get("/news/industry")
	if p.Status != http.StatusBadGateway || !strings.Contains(p.Text(".problem"), "not answering") {
		t.Errorf("status %d problem %q, want 502 with the problem told", p.Status, p.Text(".problem"))
	}
	if href, _ := p.Doc.Find(".problem a").Attr("href"); href != "/news/industry" {
		t.Errorf("retry link %q", href)
	}
}

// outerHTML is an element's markup, for failure messages.
func outerHTML(s *goquery.Selection) string {
	h, err := goquery.OuterHtml(s)
	if err != nil {
		return err.Error()
	}
	return h
}
