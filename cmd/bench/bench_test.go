package main

import (
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"creditdash/internal/figures"
)

func TestPercentileByNearestRank(t *testing.T) {
	var ds []time.Duration
	for i := 1; i <= 200; i++ {
		ds = append(ds, time.Duration(i)*time.Millisecond)
	}
	cases := []struct {
		p    float64
		want time.Duration
	}{{0.5, 100 * time.Millisecond}, {0.99, 198 * time.Millisecond}, {1, 200 * time.Millisecond}, {0, time.Millisecond}}
	for _, c := range cases {
		if got := figures.Percentile(ds, c.p); got != c.want {
			t.Errorf("figures.Percentile(1..200 ms, %v) = %v, want %v", c.p, got, c.want)
		}
	}
	if got := figures.Median([]time.Duration{3, 1, 2, 10}); got != 2 {
		t.Errorf("figures.Median(3, 1, 2, 10) = %v, want 2 (mean of the middle two, rounded down)", got)
	}
}

func TestAssetPathsListsWhatABrowserFetches(t *testing.T) {
	html := `<html><head>
<link rel="stylesheet" href="/static/css/app.1.css">
<link rel="icon" type="image/svg+xml" href="/static/img/favicon.2.svg">
<link rel="canonical" href="/businesses/1001">
<script src="/static/js/charts.4.js" data-echarts="/static/vendor/echarts.3.js" defer></script>
<script src="https://cdn.example/x.js"></script>
</head><body><img src="/static/img/favicon.2.svg"><a href="/portfolio">p</a></body></html>`
	got, err := assetPaths([]byte(html))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"/static/css/app.1.css", "/static/img/favicon.2.svg", "/static/js/charts.4.js", "/static/vendor/echarts.3.js"}
	if !slices.Equal(got, want) {
		t.Errorf("assetPaths = %q, want %q", got, want)
	}
}

func TestWireCountsHeadersAndBody(t *testing.T) {
	r := response{status: http.StatusOK, header: http.Header{"Content-Type": {"text/html"}}, body: []byte("12345")}
	// "HTTP/1.1 200 OK\r\n" + "Content-Type: text/html\r\n" + "\r\n" + body
	if got, want := wire(r), int64(17+25+2+5); got != want {
		t.Errorf("wire = %d, want %d", got, want)
	}
}

func TestCheckOnceNamesTheMisses(t *testing.T) {
	l := &lab{rep: &report{}}
	l.checkOnce(3, "tabs", map[string]int{"/v1/Business/NAICSCodes": 4, "/v1/Business/Summary": 1}, []string{"/v1/Business/NAICSCodes", "/v1/Business/Summary"})
	l.checkOnce(3, "overview", map[string]int{"/v1/Business/Summary": 1}, []string{"/v1/Business/Summary"})
	var out strings.Builder
	l.rep.Print(&out, "heading")
	lines := strings.Split(out.String(), "\n")
	var tabs, overview string
	for _, line := range lines {
		switch {
		case strings.Contains(line, "tabs") && !strings.HasPrefix(line, "3. "):
			tabs = line
		case strings.Contains(line, "overview"):
			overview = line
		}
	}
	if !strings.HasSuffix(strings.TrimSpace(tabs), "FAIL") || !strings.HasSuffix(strings.TrimSpace(overview), "pass") {
		t.Errorf("results %q and %q; want FAIL, pass", tabs, overview)
	}
	if !strings.Contains(out.String(), "NAICSCodes×4, Summary×1") {
		t.Errorf("the table's notes lack the per-path counts of the miss:\n%s", out.String())
	}
}

func TestRecipeListsCountTheSteps(t *testing.T) {
	lines := strings.Split(`## How a page reaches the service

How to add a service operation: three packages.

1. The client,
   its path.
2. The stand-in.

3. The pages.

Tests fake a service.
## How to add a report tab

Adding a tab touches:

1. one
2. two

Afterwards.
1. not counted`, "\n")
	if got := listAfter(lines, func(l string) bool { return strings.HasPrefix(l, "How to add a service operation") }); got != 3 {
		t.Errorf("service operation steps = %d, want 3", got)
	}
	if got := listAfter(lines, func(l string) bool { return l == "## How to add a report tab" }); got != 2 {
		t.Errorf("report tab files = %d, want 2", got)
	}
	tab, op, err := recipeLists("../../docs/architecture.md")
	if err != nil || tab == 0 || op == 0 || tab > tabFilesTarget || op > opStepsTarget {
		t.Errorf("the recipes' lists in docs/architecture.md: %d files for a tab, %d for an operation, %v", tab, op, err)
	}
}
