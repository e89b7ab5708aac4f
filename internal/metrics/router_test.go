package metrics_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"creditdash/internal/apptest"
)

// Through the dashboard's real router: every request is counted with the
// status the browser got, and a page served twice is a page cache hit.
func TestRouterCountsTheStatusSent(t *testing.T) {
	app := apptest.Start(t, apptest.Options{})
	m := app.Meter
	u := app.SignIn(t, "demo")
	got := map[string]int{}
	for _, path := range []string{"/businesses/1001", "/businesses/1001", "/no/such/page", "/portfolio/folders/999999", "/portfolio/scores?from=banana"} {
		got[path] = u.Get(path).Status
	}
	if got["/no/such/page"] != http.StatusNotFound || got["/portfolio/folders/999999"] != http.StatusNotFound {
		t.Fatalf("setup: statuses %v", got)
	}
	out := scrape(t, m)
	for _, want := range []string{
		`creditdash_http_requests_total{code="200",method="GET",route="/businesses/:id"} 2`,
		`creditdash_http_requests_total{code="404",method="GET",route="unmatched"} 1`,
		`creditdash_http_requests_total{code="404",method="GET",route="/portfolio/folders/:folderId"} 1`,
		fmt.Sprintf(`creditdash_http_requests_total{code="%d",method="GET",route="/portfolio/scores"} 1`, got["/portfolio/scores?from=banana"]),
		`creditdash_page_cache_reads_total{result="hit"} 1`,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the exposition lacks %s", want)
		}
	}
	if strings.Contains(out, `code="500"`) {
		t.Error("a request counted as a 500, though none was sent")
	}
}
