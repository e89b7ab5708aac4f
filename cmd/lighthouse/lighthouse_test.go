package main

import (
	"bytes"
	"strings"
	"testing"
)

// A Lighthouse 12 report cut down to what parseReport reads.
const sampleReport = `{
	"lighthouseVersion": "12.8.2",
	"finalDisplayedUrl": "http://127.0.0.1:40001/portfolio/scores?score=z",
	"environment": {"hostUserAgent": "HeadlessChrome/156", "benchmarkIndex": 1450.5},
	"configSettings": {"formFactor": "mobile", "throttlingMethod": "simulate"},
	"categories": {"performance": {"score": 0.97}},
	"audits": {
		"total-blocking-time": {"numericValue": 120.4},
		"largest-contentful-paint": {"numericValue": 1204.2},
		"cumulative-layout-shift": {"numericValue": 0.001},
		"first-contentful-paint": {"numericValue": 810}
	}
}`

func TestParseReport(t *testing.T) {
	m, env, err := parseReport([]byte(sampleReport), "/portfolio/scores?score=z")
	if err != nil {
		t.Fatal(err)
	}
	if m.score != 97 || m.tbt != 120.4 || m.lcp != 1204.2 || m.cls != 0.001 || m.fcp != 810 {
		t.Errorf("measure = %+v", m)
	}
	if env.version != "12.8.2" || len(env.benchmark) != 1 || env.benchmark[0] != 1450.5 {
		t.Errorf("environment = %+v", env)
	}
}

func TestParseReportRefusesWhatIsNoMeasure(t *testing.T) {
	cases := map[string]struct{ from, to string }{
		"signed out":      {`"finalDisplayedUrl": "http://127.0.0.1:40001/portfolio/scores?score=z"`, `"finalDisplayedUrl": "http://127.0.0.1:40001/login?next=%2Fportfolio"`},
		"desktop preset":  {`"formFactor": "mobile"`, `"formFactor": "desktop"`},
		"no score":        {`"score": 0.97`, `"score": null`},
		"runtime error":   {`"lighthouseVersion"`, `"runtimeError": {"code": "NO_NAVSTART", "message": "lost"}, "lighthouseVersion"`},
		"no TBT":          {`"total-blocking-time"`, `"total-blocking-time-gone"`},
		"not even a JSON": {`{`, `<`},
	}
	for name, c := range cases {
		raw := strings.Replace(sampleReport, c.from, c.to, 1)
		if _, _, err := parseReport([]byte(raw), "/portfolio/scores?score=z"); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}

func TestPagePaths(t *testing.T) {
	ids := preparedIDs{folder: "101", snapshot: "7"}
	for _, p := range allPages {
		path := p.path(ids)
		if !strings.HasPrefix(path, "/") || strings.Contains(path, "{") {
			t.Errorf("page %s: path %q", p.name, path)
		}
	}
	if got := (page{route: "/snapshots/{snapshot}"}).path(preparedIDs{}); got != "" {
		t.Errorf("a page without its id: path %q, want none", got)
	}
}

func TestSelectPages(t *testing.T) {
	ps, err := selectPages("payments, report")
	if err != nil || len(ps) != 2 || ps[0].name != "report" || ps[1].name != "payments" {
		t.Errorf("selectPages = %v, %v; want report then payments, in the table's order", ps, err)
	}
	if _, err := selectPages("nosuch"); err == nil {
		t.Error("an unknown page was accepted")
	}
	if ps, _ := selectPages(""); len(ps) != len(allPages) {
		t.Errorf("no list: %d pages, want all %d", len(ps), len(allPages))
	}
}

func TestTableShowsMediansAgainstTargets(t *testing.T) {
	results := []*pageResult{
		{page: page{name: "home", route: "/"}, runs: []measure{{score: 100, tbt: 0}, {score: 98, tbt: 30}, {score: 99, tbt: 10}}},
		{page: page{name: "scores-z", route: "/portfolio/scores?score=z"}, runs: []measure{{score: 96, tbt: 150}, {score: 90, tbt: 260}, {score: 94, tbt: 230}}},
		{page: page{name: "sign-in", route: "/login"}, errs: []string{"lighthouse /login: stopped"}},
	}
	var out bytes.Buffer
	printTable(&out, "heading", environment{}, results)
	lines := strings.Split(out.String(), "\n")
	find := func(prefix string) string {
		for _, l := range lines {
			if strings.HasPrefix(l, prefix) {
				return l
			}
		}
		t.Fatalf("no line for %s in:\n%s", prefix, out.String())
		return ""
	}
	if l := find("home "); !strings.Contains(l, " 99 ") || !strings.Contains(l, "10 ms") || !strings.HasSuffix(l, "pass") {
		t.Errorf("home: %q, want median 99, 10 ms, pass", l)
	}
	if l := find("scores-z "); !strings.Contains(l, " 94 ") || !strings.Contains(l, "230 ms") || !strings.HasSuffix(l, "FAIL (performance, TBT)") {
		t.Errorf("scores-z: %q, want median 94, 230 ms, FAIL on both", l)
	}
	if l := find("sign-in "); !strings.HasSuffix(l, "error") {
		t.Errorf("sign-in: %q, want error", l)
	}
	if !anyBroken(results) {
		t.Error("a page without a run is not reported as broken")
	}
	if !strings.Contains(out.String(), "sign-in: lighthouse /login: stopped") {
		t.Errorf("the failed run's reason is not printed:\n%s", out.String())
	}
}
