package handlers_test

import (
	"context"
	"net/http"
	"strconv"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"

	"creditdash/internal/apptest"
	"creditdash/internal/views"
)

// TestFolderNewsPagedTenAtATime walks a folder's news through the router by
// its "More news" links: ten stories a page, after the folder's businesses,
// every story of the service's feed once and in its order, a way back on
// every page but the first, and ?news= out of range or unreadable answering
// the last or the first page rather than an error.
func TestFolderNewsPagedTenAtATime(t *testing.T) {
	app := apptest.Start(t, apptest.Options{})
	u := app.SignIn(t, "demo")
	id := demoUser(t, "demo").Folders[0].FolderID
	feed, err := app.Client.As(u.SessionKey()).FolderNews(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	if len(feed) <= 2*views.FolderNewsPerPage {
		t.Fatalf("the demo folder has %d stories; the test needs more than two pages", len(feed))
	}
	want := make([]string, len(feed))
	for i, n := range feed {
		want[i] = views.PlainText(n.Title)
	}
	pages := (len(feed) + views.FolderNewsPerPage - 1) / views.FolderNewsPerPage
	base := "/portfolio/folders/" + strconv.Itoa(id)

	var got []string
	path := base
	for n := 1; path != ""; n++ {
		p := u.Get(path)
		mustStatus(t, path, p, http.StatusOK)
		noProblems(t, path, p)
		items := p.Doc.Find(".news li")
		first := (n - 1) * views.FolderNewsPerPage
		if wantN := min(views.FolderNewsPerPage, len(feed)-first); items.Length() != wantN {
			t.Errorf("%s: %d stories, want %d", path, items.Length(), wantN)
		}
		items.Each(func(_ int, li *goquery.Selection) {
			got = append(got, strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(li.Find(".title").Text()), "(opens in a new tab)")))
		})
		if p.Doc.Find("#folder-businesses-title").Length() != 1 ||
			p.Doc.Find(`section[aria-labelledby="folder-businesses-title"] ~ section[aria-labelledby="folder-news-title"]`).Length() != 1 {
			t.Errorf("%s: the businesses do not come before the news", path)
		}
		pager := p.Doc.Find(`nav.pager[aria-label="News pages"]`)
		wantPos := "stories " + strconv.Itoa(first+1) + "–" + strconv.Itoa(first+items.Length()) + " of " + strconv.Itoa(len(feed))
		if pos := strings.Join(strings.Fields(pager.Find(".position").Text()), " "); pos != wantPos {
			t.Errorf("%s: pager says %q, want %q", path, pos, wantPos)
		}
		back, hasBack := pager.Find(`a:contains("Newer news")`).Attr("href")
		switch {
		case n == 1 && hasBack:
			t.Errorf("%s: the first page links to newer news (%q)", path, back)
		case n == 2 && back != base+"#folder-news-title":
			t.Errorf("%s: newer news links to %q, want the folder's first page", path, back)
		case n > 2 && back != base+"?news="+strconv.Itoa(n-1)+"#folder-news-title":
			t.Errorf("%s: newer news links to %q", path, back)
		}
		next, hasNext := pager.Find(`a:contains("More news")`).Attr("href")
		if hasNext && next != base+"?news="+strconv.Itoa(n+1)+"#folder-news-title" {
			t.Fatalf("%s: more news links to %q", path, next)
		}
		if n > pages {
			t.Fatalf("more than %d pages of news", pages)
		}
		path = strings.TrimSuffix(next, "#folder-news-title")
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("the pages show %d stories that differ from the feed's %d, in order:\ngot  %q\nwant %q", len(got), len(want), got, want)
	}

	for _, c := range []struct {
		query string
		first string
	}{
		{"?news=abc", want[0]},
		{"?news=0", want[0]},
		{"?news=-3", want[0]},
		{"?news=99999999999999999999", want[(pages-1)*views.FolderNewsPerPage]},
		{"?news=" + strconv.Itoa(pages+5), want[(pages-1)*views.FolderNewsPerPage]},
	} {
		p := u.Get(base + c.query)
		mustStatus(t, base+c.query, p, http.StatusOK)
		if title := p.Doc.Find(".news li .title").First().Text(); !strings.HasPrefix(strings.TrimSpace(title), c.first) {
			t.Errorf("%s: first story %q, want %q", c.query, title, c.first)
		}
	}
}
