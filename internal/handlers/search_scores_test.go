package handlers_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"

	"creditdash/internal/apptest"
)

// TestSearchResultsShowKnownScores: a name search lists, beside each
// business, the scores the analyst already has (Risk as last seen on its
// report, Pay and Z″ from the portfolio), asking nothing more for them.
func TestSearchResultsShowKnownScores(t *testing.T) {
	app := apptest.Start(t, apptest.Options{})
	u := app.SignIn(t, "demo")
	u.Get("/businesses/1001")
	u.Get("/")
	app.Sim.Reset()
	p := u.Get("/?q=Westbridge")
	mustStatus(t, "/?q=Westbridge", p, http.StatusOK)
	var row string
	p.Doc.Find("ul.results li").Each(func(_ int, li *goquery.Selection) {
		if href, _ := li.Find("a").First().Attr("href"); href == "/businesses/1001" {
			row = strings.Join(strings.Fields(li.Text()), " ")
		}
	})
	if !strings.Contains(row, "Risk 2 · severe risk") || !strings.Contains(row, "Pay ") || !strings.Contains(row, "Z″ ") {
		t.Errorf("1001's result = %q, want its known Risk, Pay and Z″", row)
	}
	for path := range app.Sim.Requests()["demo"] {
		if !strings.Contains(path, "Search") {
			t.Errorf("the search asked for %s too", path)
		}
	}
}
