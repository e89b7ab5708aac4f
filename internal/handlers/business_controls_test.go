package handlers_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"

	"creditdash/internal/apptest"
)

// chartOptions decodes the options of the chart with the given id.
func chartOptions(t *testing.T, p *apptest.Page, id string) map[string]any {
	t.Helper()
	sel := p.Doc.Find("script#" + id + "-options")
	if sel.Length() != 1 {
		t.Fatalf("no options for chart %s", id)
	}
	var opt map[string]any
	if err := json.Unmarshal([]byte(sel.Text()), &opt); err != nil {
		t.Fatalf("chart %s: options are not JSON: %v", id, err)
	}
	return opt
}

// xAxisLen is how many categories a chart's x axis has.
func xAxisLen(t *testing.T, p *apptest.Page, id string) int {
	t.Helper()
	axes, _ := chartOptions(t, p, id)["xAxis"].([]any)
	if len(axes) == 0 {
		t.Fatalf("chart %s has no x axis", id)
	}
	data, _ := axes[0].(map[string]any)["data"].([]any)
	return len(data)
}

func TestBusinessBadControlsKeepDefaults(t *testing.T) {
	app := apptest.Start(t, apptest.Options{})
	u := app.SignIn(t, "demo")
	next := time.Now().AddDate(0, 1, 0).Format("2006-01")
	for _, q := range []string{"from=2026-13", "to=abc", "from=2026-1", "from=2026-10&to=2025-01",
		"from=2000-01&to=2026-10", "from=1800-01", "to=2026-10-01",
		// After this month, or over ten years to it from From alone.
		"from=" + next, "to=" + next, "from=2030-01&to=2030-06", "from=1990-01"} {
		p := u.Get("/businesses/1001?" + q)
		if p.Status != http.StatusBadRequest || p.Text("#score-history .form-error") == "" {
			t.Errorf("?%s: status %d, message %q; want 400 with a message", q, p.Status, p.Text("#score-history .form-error"))
			continue
		}
		if n := xAxisLen(t, p, "chart-risk"); n != 24 {
			t.Errorf("?%s: %d months drawn, want the default 24", q, n)
		}
		if p.Doc.Find(".score-card").Length() != 4 || p.Text("header .user") != "demo" {
			t.Errorf("?%s: the page is not whole", q)
		}
	}
	for _, q := range []string{"count=0", "count=abc", "count=11", "year=20x5", "year=99", "sort=Z", "count=-1&sort=up"} {
		p := u.Get("/businesses/1001/financials?" + q)
		if p.Status != http.StatusBadRequest || p.Text("#statements .form-error") == "" {
			t.Errorf("financials ?%s: status %d message %q", q, p.Status, p.Text("#statements .form-error"))
			continue
		}
		if p.Doc.Find("table.statements thead th.num").Length() == 0 {
			t.Errorf("financials ?%s: no statements shown with the defaults", q)
		}
	}
}

func TestBusinessTimeFrameChangesTheCharts(t *testing.T) {
	app := apptest.Start(t, apptest.Options{})
	u := app.SignIn(t, "demo")
	cases := []struct {
		query  string
		months int
		label  string
	}{
		{"", 24, "Nov 2024 – Oct 2026"},
		{"from=2026-01&to=2026-06", 6, "Jan 2026 – Jun 2026"},
		{"from=2026-05", 6, "May 2026 – Oct 2026"},
		{"to=2026-06", 24, "Jul 2024 – Jun 2026"},
		{"from=&to=", 24, "Nov 2024 – Oct 2026"},
	}
	for _, c := range cases {
		p := u.Get("/businesses/1001?" + c.query)
		if p.Status != http.StatusOK {
			t.Errorf("?%s: status %d", c.query, p.Status)
			continue
		}
		for _, id := range []string{"chart-risk", "chart-pay", "chart-dbt", "chart-z", "chart-risk-history"} {
			if n := xAxisLen(t, p, id); n != c.months {
				t.Errorf("?%s: %s draws %d months, want %d", c.query, id, n, c.months)
			}
		}
		if got := p.Text(".window-label"); !strings.Contains(got, c.label) {
			t.Errorf("?%s: label %q, want %q", c.query, got, c.label)
		}
	}
}

func TestBusinessStatementControls(t *testing.T) {
	app := apptest.Start(t, apptest.Options{})
	u := app.SignIn(t, "demo")
	years := func(q string) []string {
		p := u.Get("/businesses/1001/financials?" + q)
		if p.Status != http.StatusOK {
			t.Fatalf("?%s: status %d", q, p.Status)
		}
		var out []string
		p.Doc.Find("table.statements thead th.num").Each(func(_ int, s *goquery.Selection) { out = append(out, s.Text()) })
		return out
	}
	all := years("")
	if len(all) < 3 || all[0] <= all[len(all)-1] {
		t.Fatalf("default years = %q, want 3-5 newest first", all)
	}
	if got := years("count=2"); len(got) != 2 || got[0] != all[0] {
		t.Errorf("count=2: %q", got)
	}
	if got := years("sort=A"); len(got) != len(all) || got[0] != all[len(all)-1] {
		t.Errorf("sort=A: %q, want oldest first", got)
	}
	year := strings.TrimPrefix(all[1], "FY ")
	if got := years("year=" + year); len(got) != 1 || got[0] != all[1] {
		t.Errorf("year=%s: %q", year, got)
	}
	if got := years("year=1990"); len(got) != 0 {
		t.Errorf("a year without statements: %q", got)
	}
}

// The risk history's badge speaks of the frame its chart draws: a frame
// without risk months is not "up to date" above an empty chart.
func TestRiskBadgeFollowsTheFrame(t *testing.T) {
	app := apptest.Start(t, apptest.Options{})
	u := app.SignIn(t, "demo")
	p := u.Get("/businesses/1001?from=2020-01&to=2020-06")
	if !strings.Contains(p.Text("#risk-history"), "No risk history in this time frame") {
		t.Fatalf("setup: the frame has risk months: %q", p.Text("#risk-history"))
	}
	if badge := p.Text("#risk-history .coverage-line"); strings.Contains(strings.ToLower(badge), "up to date") {
		t.Errorf("badge %q above an empty chart", badge)
	}
}
