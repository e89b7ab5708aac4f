package handlers_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"creditdash/internal/apptest"
)

// TestCompareFromTheWatchList: the watch list ticks businesses into one
// comparison (a plain GET form to /compare), and each row has "Add to
// compare"; a page carrying ?compare= shows the tray of those chosen.
func TestCompareFromTheWatchList(t *testing.T) {
	app := apptest.Start(t, apptest.Options{})
	u := signInWS(t, app, "demo")
	for _, id := range []string{"1001", "1002", "1005"} {
		u.Get("/businesses/" + id)
		mustRedirect(t, "watch "+id, u.post("/businesses/"+id+"/watch"))
	}
	list := u.Get("/watchlist")
	action, _, ok := list.Form("#watch-compare")
	if !ok || action != "/compare" {
		t.Fatalf("the watch list has no compare form (action %q)", action)
	}
	if n := list.Doc.Find(`input[type="checkbox"][name="ids"][form="watch-compare"]`).Length(); n != 3 {
		t.Errorf("%d compare boxes, want one per watched business", n)
	}
	// What a browser sends with two boxes ticked.
	cmp := u.Get("/compare?" + url.Values{"ids": {"1001", "1005"}}.Encode())
	mustStatus(t, "/compare from the watch list", cmp, http.StatusOK)
	if n := cmp.Doc.Find("table.compare thead th").Length(); n < 3 {
		t.Errorf("the comparison has %d heading cells, want the label and two businesses", n)
	}
	href, _ := list.Doc.Find("table.watchlist a.add-compare").First().Attr("href")
	if !strings.HasPrefix(href, "/compare?ids=") {
		t.Errorf("Add to compare = %q", href)
	}

	tray := u.Get("/businesses/1002?compare=1001,1005")
	if got := tray.Text(".compare-tray"); !strings.Contains(got, "1001,1005") {
		t.Errorf("tray = %q, want the ids chosen", got)
	}
	if href, _ := tray.Doc.Find(".compare-tray a").Attr("href"); href != "/compare?ids=1001,1005" {
		t.Errorf("tray's Compare = %q", href)
	}
	if u.Get("/businesses/1002").Doc.Find(".compare-tray").Length() != 0 {
		t.Error("a tray with nothing chosen")
	}
}
