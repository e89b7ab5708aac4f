package main

import (
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"creditdash/internal/figures"
)

func TestPercentileNearestRank(t *testing.T) {
	var ds []time.Duration
	for i := 1; i <= 100; i++ {
		ds = append(ds, time.Duration(i)*time.Millisecond)
	}
	for _, c := range []struct {
		p    float64
		want time.Duration
	}{{0.50, 50 * time.Millisecond}, {0.95, 95 * time.Millisecond}, {0.99, 99 * time.Millisecond}, {1, 100 * time.Millisecond}, {0, time.Millisecond}} {
		if got := figures.Percentile(ds, c.p); got != c.want {
			t.Errorf("figures.Percentile(1..100 ms, %v) = %v, want %v", c.p, got, c.want)
		}
	}
	if got := figures.Percentile(nil, 0.5); got != 0 {
		t.Errorf("figures.Percentile(nil) = %v, want 0", got)
	}
	if got := figures.Percentile([]time.Duration{7}, 0.99); got != 7 {
		t.Errorf("percentile of one = %v, want 7", got)
	}
}

func TestReportTable(t *testing.T) {
	r := &report{}
	r.Check(3, "storm: calls", "42", "<= 10", false)
	r.Info(1, "requests", "100 (10/s)")
	r.Check(1, "errors", "0: none", "0", true)
	r.Note(3, "why %d", 3)
	r.Note(1, "how")
	var out bytes.Buffer
	r.Print(&out, "heading")
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	want := []string{
		"heading",
		"",
		"#  Figure        Measured    Target  Result",
		"1  requests      100 (10/s)          info",
		"1  errors        0: none     0       pass",
		"3  storm: calls  42          <= 10   FAIL",
		"",
		"1. how",
		"3. why 3",
	}
	if strings.Join(lines, "\n") != strings.Join(want, "\n") {
		t.Errorf("table:\n%s\nwant:\n%s", out.String(), strings.Join(want, "\n"))
	}
	if r.Failed() {
		t.Error("failed() with no broken figure")
	}
	r.Broken(2, "direct", errStopped)
	if !r.Failed() {
		t.Error("failed() = false after broken")
	}
}

func TestStatusesAndSizes(t *testing.T) {
	if got := statuses(map[int]int{200: 950, 502: 23, 0: 2, 429: 23}); got != "200×950, 429×23, 502×23, no answer×2" {
		t.Errorf("statuses = %q", got)
	}
	if got := statuses(nil); got != "none" {
		t.Errorf("statuses(nil) = %q", got)
	}
	if got := mib(300 << 20); got != "300.0 MiB" {
		t.Errorf("mib = %q", got)
	}
	if got := mb(4_990_000); got != "4.99 MB" {
		t.Errorf("mb = %q", got)
	}
	if got := describe(map[string]int{"/v1/Business/Summary": 2, "/v1/Portfolio/Folders": 1}); got != "Summary×2, Portfolio/Folders×1" {
		t.Errorf("describe = %q", got)
	}
}

func TestMixFollowsWeights(t *testing.T) {
	const draws = 20_000
	m := newMixer(analystMix, 1)
	var seen [numKinds]int
	current := 0
	for range draws {
		p := m.next()
		seen[p.kind]++
		if p.business < firstBusiness || p.business > lastBusiness {
			t.Fatalf("business %d outside %d..%d", p.business, firstBusiness, lastBusiness)
		}
		switch p.kind {
		case kindOverview:
			current = p.business
		case kindPayments, kindFinancials, kindOfficers:
			// A tab is of the business last opened (or the first draw's).
			if current != 0 && p.business != current {
				t.Fatalf("%s of %d after the overview of %d", p.kind, p.business, current)
			}
		}
		if !strings.HasPrefix(p.path, "/") || p.path != pathOf(p.kind, p.business) {
			t.Fatalf("path %q for %s", p.path, p.kind)
		}
	}
	for k := range numKinds {
		want := float64(analystMix[k]) / 100 * draws
		if got := float64(seen[k]); got < want*0.85 || got > want*1.15 {
			t.Errorf("%s: %d of %d draws, want about %.0f", k, seen[k], draws, want)
		}
	}
}

func TestMixReplaysForASeed(t *testing.T) {
	a, b, c := newMixer(analystMix, 7), newMixer(analystMix, 7), newMixer(analystMix, 8)
	differs := false
	for range 200 {
		pa, pb, pc := a.next(), b.next(), c.next()
		if pa != pb {
			t.Fatalf("same seed, different pages: %+v and %+v", pa, pb)
		}
		differs = differs || pa != pc
	}
	if !differs {
		t.Error("seeds 7 and 8 drew the same 200 pages")
	}
}

func TestMixesLeaveOutWhatTheyShould(t *testing.T) {
	m := newMixer(victimMix, 3)
	for range 1000 {
		if k := m.next().kind; k == kindExport {
			t.Fatal("the victim exported: it should only load pages")
		}
	}
}

func TestPaths(t *testing.T) {
	for k, want := range map[kind]string{
		kindOverview: "/businesses/1234", kindPayments: "/businesses/1234/payments",
		kindFinancials: "/businesses/1234/financials", kindOfficers: "/businesses/1234/officers",
		kindPortfolio: "/portfolio", kindScores: "/portfolio/scores", kindNews: "/news/industry",
		kindHome: "/", kindExport: "/portfolio/export?format=csv",
	} {
		if got := pathOf(k, 1234); got != want {
			t.Errorf("pathOf(%s) = %q, want %q", k, got, want)
		}
	}
}

func TestParseFiguresAndUsers(t *testing.T) {
	if got, err := parseFigures("1, 3,5"); err != nil || len(got) != 3 || got[1] != 3 {
		t.Errorf("parseFigures = %v, %v", got, err)
	}
	for _, bad := range []string{"", "0", "8", "x"} {
		if _, err := parseFigures(bad); err == nil {
			t.Errorf("parseFigures(%q) = nil error", bad)
		}
	}
	if !isLoadUser("load200", 200) || isLoadUser("load201", 200) || isLoadUser("demo", 200) {
		t.Error("isLoadUser: load1..load200 only")
	}
	total, byPath := callsOf(map[string]map[string]int{
		"load1": {"/v1/a": 2}, "load2": {"/v1/a": 1, "/v1/b": 1}, "demo": {"/v1/a": 9},
	}, func(u string) bool { return isLoadUser(u, 2) })
	if total != 4 || byPath["/v1/a"] != 3 || byPath["/v1/b"] != 1 {
		t.Errorf("callsOf = %d, %v", total, byPath)
	}
}

func TestTallyCountsAndBoundsRedirects(t *testing.T) {
	tl := newTally()
	tl.add(kindHome, outcome{status: 200, elapsed: time.Millisecond})
	tl.add(kindExport, outcome{status: 303, location: "/portfolio"})
	tl.add(kindExport, outcome{err: errStopped})
	for i := range 2 * maxPlaces {
		tl.add(kindHome, outcome{status: 302, location: "/p" + strings.Repeat("x", i)})
	}
	if tl.count() != 3+2*maxPlaces || tl.ok() != 1 {
		t.Errorf("count %d ok %d", tl.count(), tl.ok())
	}
	if f := tl.failures(); f[303] != 1 || f[0] != 1 || f[200] != 0 {
		t.Errorf("failures = %v", f)
	}
	if len(tl.redirects) != maxPlaces || tl.redirects["/portfolio"] != 1 {
		t.Errorf("redirects = %v, want %d places with /portfolio once", tl.redirects, maxPlaces)
	}
}

func TestReadGoFigures(t *testing.T) {
	serve := func(page string) string {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { io.WriteString(w, page) }))
		t.Cleanup(srv.Close)
		return srv.URL
	}
	full := serve("# HELP go_gc_duration_seconds x\ngo_gc_duration_seconds{quantile=\"0.5\"} 0.001\ngo_gc_duration_seconds_count 42\ngo_memstats_alloc_bytes_total 1.5e+09\n")
	f, err := readGoFigures(t.Context(), full)
	if err != nil || f.allocated != 1.5e9 || f.gcCycles != 42 {
		t.Fatalf("readGoFigures = %+v, %v; want 1.5e9 bytes and 42 cycles", f, err)
	}
	if _, err := readGoFigures(t.Context(), serve("go_gc_duration_seconds_count 42\n")); err == nil {
		t.Fatal("a page without the allocation counter read as complete")
	}
}

// The direct run's ideal cache spares a page whose answers are fresh, a
// download never; with -direct-cold every page makes all its calls.
func TestDirectWorkerKeepsAnswersUnlessCold(t *testing.T) {
	var calls atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		calls.Add(1)
		io.WriteString(w, "{}")
	}))
	defer srv.Close()
	var plan [numKinds]map[string]int
	plan[kindOverview] = map[string]int{"/v1/Business/Summary": 1, "/v1/Business/RiskHistory": 1}
	plan[kindExport] = map[string]int{"/v1/Portfolio/Download": 1}
	for _, c := range []struct {
		cold bool
		want int64 // calls for two overviews of one business and two exports
	}{{false, 2 + 2}, {true, 4 + 2}} {
		calls.Store(0)
		w := &directWorker{base: srv.URL, auth: "Bearer k", ttl: time.Minute, cold: c.cold, plan: &plan,
			fresh: map[string]time.Time{}, http: srv.Client()}
		for _, p := range []page{{kind: kindOverview, business: 7}, {kind: kindOverview, business: 7}, {kind: kindExport}, {kind: kindExport}} {
			if o := w.page(t.Context(), p); o.err != nil || o.status != http.StatusOK {
				t.Fatalf("cold %v: page %v: %d %v", c.cold, p, o.status, o.err)
			}
		}
		if got := calls.Load(); got != c.want {
			t.Errorf("cold %v: %d calls, want %d", c.cold, got, c.want)
		}
	}
}

// The ceiling is the cores over what the other two processes spend on a
// page: 2 cores at 0.3 ms (tool) + 2 calls of 0.2 ms allow 2857 pages/s.
func TestCeilingRate(t *testing.T) {
	rate, per := ceilingRate(2, 300*time.Microsecond, 200*time.Microsecond, 2)
	if per != 700*time.Microsecond || rate < 2857 || rate > 2858 {
		t.Errorf("ceilingRate = %.1f pages/s at %v a page, want 2857.1 at 700µs", rate, per)
	}
	if rate, _ := ceilingRate(2, 0, 0, 0); rate <= 0 || rate > 2e6 {
		t.Errorf("ceilingRate with nothing spent = %v, want a finite bound", rate)
	}
}

// TestTeamFloodCounts: the flooder's answers are split into served, told
// to wait (429 and 503) and the rest; the other user's failures count
// every 5xx and every request without an answer.
func TestTeamFloodCounts(t *testing.T) {
	byStatus := map[int]int{200: 3, 429: 5, 503: 2, 404: 1}
	if got, want := floodText(byStatus), "3 served, told to wait 429×5, 503×2, other 404×1"; got != want {
		t.Errorf("floodText = %q, want %q", got, want)
	}
	if got := fiveXX(map[int]int{200: 9, 0: 1, 502: 2, 503: 3, 429: 4}); got != 6 {
		t.Errorf("fiveXX = %d, want 6", got)
	}
	gz := 0
	for _, p := range otherRound {
		if p.gzip {
			gz++
		}
	}
	if gz*2 != len(otherRound) {
		t.Errorf("the other user's round: %d of %d pages with gzip, want half", gz, len(otherRound))
	}
	if lines := strings.Count(string(teamLedger(1000)), "\n"); lines != 1001 {
		t.Errorf("a ledger of 1,000 accounts has %d lines, want a header and 1,000", lines)
	}
}
