package handlers_test

import (
	"encoding/csv"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"

	"creditdash/internal/apptest"
)

const backtestQuery = "/alerts/backtest?scope=portfolio&score=pay&condition=below&threshold=4&months=24"

// historyCalls counts the user's portfolio history requests.
func historyCalls(app *apptest.App, user string) int {
	r := app.Sim.Requests()[user]
	return r["/v1/Portfolio/PayScoreHistory"] + r["/v1/Portfolio/ZScoreHistory"]
}

// readCSV parses a download.
func readCSV(t *testing.T, p *apptest.Page) [][]string {
	t.Helper()
	if p.Status != http.StatusOK || !strings.HasPrefix(p.Header.Get("Content-Type"), "text/csv") {
		t.Fatalf("csv: status %d, type %q; body %.300s", p.Status, p.Header.Get("Content-Type"), p.Body)
	}
	rows, err := csv.NewReader(strings.NewReader(p.Body)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	return rows
}

// A back-test of "Pay below 4" over the demo portfolio: the summary, a
// chart and a table of 24 months ending at the newest month held (the demo
// data's October 2026), firings listed, one history request for the page
// and none more for its CSV or another threshold; the CSV's counts are the
// page's table's.
func TestBacktestPortfolio(t *testing.T) {
	app := apptest.Start(t, apptest.Options{})
	u := signInWS(t, app, "demo")
	if p := u.Get("/alerts/backtest"); p.Status != http.StatusOK || p.Doc.Find("#backtest-form").Length() != 1 || p.Doc.Find("#backtest-summary").Length() != 0 {
		t.Fatalf("GET /alerts/backtest: status %d; want the form alone", p.Status)
	}
	before := historyCalls(app, "demo")
	p := u.Get(backtestQuery)
	if p.Status != http.StatusOK {
		t.Fatalf("GET %s: status = %d, want 200; %.500s", backtestQuery, p.Status, p.Body)
	}
	if n := historyCalls(app, "demo") - before; n != 1 {
		t.Errorf("the back-test made %d history requests, want 1", n)
	}
	if got := p.Text("#backtest-summary h2"); got != "Pay below 4 anywhere in the portfolio" {
		t.Errorf("summary names %q", got)
	}
	if !strings.Contains(p.Text("#backtest-summary"), "Nov 2024 – Oct 2026 (24 months)") {
		t.Errorf("window: %q", p.Text("#backtest-summary"))
	}
	if p.Doc.Find("#chart-backtest").Length() != 1 {
		t.Error("no alerts-per-month chart")
	}
	tableRows := p.Doc.Find(".chart-panel table tbody tr")
	if tableRows.Length() != 24 {
		t.Fatalf("alerts table has %d months, want 24", tableRows.Length())
	}
	firings := p.Doc.Find("table.backtest-firings tbody tr").Length()
	if firings == 0 {
		t.Error("Pay below 4 never fired over the demo portfolio in two years")
	}
	for _, want := range []string{"followed by deterioration", "no deterioration"} {
		if !strings.Contains(p.Text("table.backtest-firings"), want) {
			t.Errorf("no firing reads %q", want)
		}
	}
	if v := p.Text("#backtest-lead"); strings.HasPrefix(v, "—") {
		t.Errorf("median lead time: %q", v)
	}

	csvURL := strings.Replace(backtestQuery, "/alerts/backtest?", "/alerts/backtest.csv?", 1)
	rows := readCSV(t, u.Get(csvURL))
	if len(rows) != 25 || strings.Join(rows[0], ",") != "month,alerts" {
		t.Fatalf("csv: %d rows, header %v; want month,alerts and 24 months", len(rows), rows[0])
	}
	if rows[1][0] != "2024-11" || rows[24][0] != "2026-10" {
		t.Errorf("csv months %s .. %s, want 2024-11 .. 2026-10", rows[1][0], rows[24][0])
	}
	sum := 0
	tableRows.Each(func(i int, s *goquery.Selection) {
		n, _ := strconv.Atoi(strings.TrimSpace(s.Find("td").Text()))
		if rows[i+1][1] != strconv.Itoa(n) {
			t.Errorf("month %s: csv %s alerts, page %d", rows[i+1][0], rows[i+1][1], n)
		}
		sum += n
	})
	if sum < firings {
		t.Errorf("the months count %d alerts, the page lists %d firings", sum, firings)
	}
	u.Get(strings.Replace(backtestQuery, "threshold=4", "threshold=6", 1))
	if n := historyCalls(app, "demo") - before; n != 1 {
		t.Errorf("page, csv and another threshold made %d history requests, want 1 (cached)", n)
	}
}

// "Turn this rule on" posts the replayed rule to the rule form's route.
func TestBacktestTurnsTheRuleOn(t *testing.T) {
	app := apptest.Start(t, apptest.Options{})
	u := signInWS(t, app, "demo")
	p := u.Get("/alerts/backtest?scope=folder&folder=104&score=z&condition=below&threshold=1.1&months=12")
	if p.Status != http.StatusOK {
		t.Fatalf("folder back-test: status %d; %.400s", p.Status, p.Body)
	}
	if got := p.Text("#backtest-summary h2"); !strings.HasPrefix(got, "Z″ below 1.10 in folder ") {
		t.Errorf("summary names %q", got)
	}
	next := u.Submit(p, "#backtest-turn-on")
	if next.Status != http.StatusSeeOther || next.Location() != "/alerts" {
		t.Fatalf("turn on: status %d to %q, want 303 to /alerts", next.Status, next.Location())
	}
	if rules := u.Get("/alerts").Text("ul.rules"); !strings.Contains(rules, "Z″ below 1.10 in folder") {
		t.Errorf("rules after turning on: %q", rules)
	}
}

// Bad input comes back in the form with the reason and what was typed, 422.
func TestBacktestRefusesBadInput(t *testing.T) {
	app := apptest.Start(t, apptest.Options{})
	u := signInWS(t, app, "demo")
	for _, tc := range []struct {
		name, query, want, kept string
	}{
		{"window too short", "scope=portfolio&score=pay&condition=below&threshold=5&months=5", "6 to 36 months", "5"},
		{"window not a number", "scope=portfolio&score=pay&condition=below&threshold=5&months=two", "6 to 36 months", "two"},
		{"threshold out of range", "scope=portfolio&score=pay&condition=below&threshold=11&months=24", "Pay runs from 1 to 10", "11"},
		{"threshold not a number", "scope=portfolio&score=pay&condition=below&threshold=abc&months=24", "must be a number", "abc"},
		{"risk", "scope=portfolio&score=risk&condition=below&threshold=3&months=24", "Only Pay and Z″", ""},
		{"one business", "scope=business&score=pay&condition=below&threshold=3&months=24", "choose a folder or the whole portfolio", ""},
		{"unknown folder", "scope=folder&folder=999&score=pay&condition=below&threshold=3&months=24", "no folder 999", ""},
		{"the team's accounts", "scope=accounts&condition=util_above&threshold=90&months=24", "not back-tested", "90"},
	} {
		for _, path := range []string{"/alerts/backtest?", "/alerts/backtest.csv?"} {
			p := u.Get(path + tc.query)
			if p.Status != http.StatusUnprocessableEntity || !strings.Contains(p.Text(".form-error"), tc.want) {
				t.Errorf("%s (%s): status %d, error %q; want 422 saying %q", tc.name, path, p.Status, p.Text(".form-error"), tc.want)
			}
			if tc.kept != "" && !strings.Contains(p.Body, `value="`+tc.kept+`"`) {
				t.Errorf("%s: the typed %q is not kept", tc.name, tc.kept)
			}
		}
	}
	// A rule on the team's accounts is refused with why and what to do
	// instead, the scope kept as chosen; other refusals do not show it.
	p := u.Get("/alerts/backtest?scope=accounts&condition=over_limit&months=24")
	if v, _ := p.Doc.Find("#rule-scope option[selected]").Attr("value"); v != "accounts" {
		t.Errorf("the accounts scope is not kept: %q", v)
	}
	if !strings.Contains(p.Text(".form-error"), "balances and limits have no such score") {
		t.Errorf("the refusal does not say why: %q", p.Text(".form-error"))
	}
	for _, href := range []string{"/digest/preview", "/accounts?over=1", "/policy/validation"} {
		if p.Doc.Find(`#backtest-accounts a[href="`+href+`"]`).Length() != 1 {
			t.Errorf("what to do instead lacks a link to %s: %q", href, p.Text("#backtest-accounts"))
		}
	}
	if u.Get("/alerts/backtest?scope=portfolio&score=risk&condition=below&threshold=3").Doc.Find("#backtest-accounts").Length() != 0 {
		t.Error("the accounts explanation shows for a portfolio rule")
	}
}

// The form shows the fields of the scope chosen, without a script: the
// score, condition, threshold, window and folder for the portfolio or a
// folder, none of them for the team's accounts, whose refusal (422) keeps
// what was typed in them unseen, so that choosing the portfolio again
// replays the rule as typed.
func TestBacktestFormShowsItsScopesFields(t *testing.T) {
	app := apptest.Start(t, apptest.Options{})
	u := signInWS(t, app, "demo")
	fields := []string{"#rule-folder", "#rule-score", "#rule-condition", "#rule-threshold", "#backtest-months"}
	shown := func(p *apptest.Page) (in []string) {
		for _, sel := range fields {
			if p.Doc.Find(sel).Length() > 0 {
				in = append(in, sel)
			}
		}
		return in
	}
	for _, scope := range []string{"portfolio", "folder"} {
		p := u.Get("/alerts/backtest?scope=" + scope)
		if p.Status != http.StatusOK || len(shown(p)) != len(fields) {
			t.Errorf("the %s form: status %d, fields %v; want 200 with %v", scope, p.Status, shown(p), fields)
		}
		if v, _ := p.Doc.Find("#rule-scope option[selected]").Attr("value"); v != scope {
			t.Errorf("the %s form has %q chosen", scope, v)
		}
	}

	// Typed into the portfolio's form, then the team's accounts chosen.
	p := u.Get("/alerts/backtest?scope=accounts&folder=&score=z&condition=above&threshold=7&months=12")
	if p.Status != http.StatusUnprocessableEntity || p.Doc.Find("#backtest-accounts").Length() != 1 {
		t.Fatalf("the accounts scope: status %d, explanation %q; want 422 with it", p.Status, p.Text("#backtest-accounts"))
	}
	if in := shown(p); len(in) != 0 {
		t.Errorf("the accounts scope shows %v, which do not apply to it", in)
	}
	_, kept, _ := p.Form("#backtest-form")
	if kept.Get("score") != "z" || kept.Get("condition") != "above" || kept.Get("threshold") != "7" || kept.Get("months") != "12" {
		t.Errorf("the accounts scope's form keeps %v, want what was typed", kept)
	}
	kept.Set("scope", "portfolio")
	back := u.Get("/alerts/backtest?" + kept.Encode())
	if back.Status != http.StatusOK || back.Text("#backtest-summary h2") != "Z″ above 7.00 anywhere in the portfolio" {
		t.Errorf("the portfolio chosen again: status %d, summary %q; want the rule as typed replayed", back.Status, back.Text("#backtest-summary h2"))
	}
	if v, _ := back.Doc.Find("#backtest-months").Attr("value"); v != "12" || len(shown(back)) != len(fields) {
		t.Errorf("the portfolio chosen again: months %q, fields %v", v, shown(back))
	}

	// A link to the accounts scope alone keeps the new form's values.
	_, kept, _ = u.Get("/alerts/backtest?scope=accounts").Form("#backtest-form")
	if kept.Get("score") != "pay" || kept.Get("condition") != "below" || kept.Get("months") != "24" {
		t.Errorf("the accounts scope alone keeps %v, want the new form's values", kept)
	}
}

// A sixth back-test of one analyst while five run is turned back, 429,
// with the reason; once they finish, the next one runs. The five are held
// by a handshake (each says it holds its slot, then waits for the
// release), so the sixth arrives while all five surely run.
func TestBacktestFiveAtOnce(t *testing.T) {
	started, release := make(chan struct{}, 8), make(chan struct{})
	var held atomic.Int32
	app := apptest.Start(t, apptest.Options{BacktestHold: func() {
		// Only the first five are held: were the bound broken, a sixth
		// would run through and the test fail instead of hanging.
		if held.Add(1) <= 5 {
			started <- struct{}{}
			<-release
		}
	}})
	var once sync.Once
	free := func() { once.Do(func() { close(release) }) }
	t.Cleanup(free)
	u := signInWS(t, app, "demo")
	var wg sync.WaitGroup
	statuses := make([]int, 5)
	for i := range statuses {
		wg.Go(func() {
			statuses[i] = u.Get(strings.Replace(backtestQuery, "threshold=4", "threshold="+strconv.Itoa(2+i), 1)).Status
		})
	}
	for n := range 5 {
		select {
		case <-started:
		case <-time.After(time.Minute): // a failure guard, not a timing: the handshake ends the wait
			free()
			t.Fatalf("only %d of 5 back-tests took their slot", n)
		}
	}
	p := u.Get(backtestQuery)
	if p.Status != http.StatusTooManyRequests || !strings.Contains(p.Text(".form-error"), "5 back-tests running") {
		t.Errorf("a sixth back-test at once: status %d, %q; want 429", p.Status, p.Text(".form-error"))
	}
	free()
	wg.Wait()
	for i, s := range statuses {
		if s != http.StatusOK {
			t.Errorf("back-test %d: status %d, want 200", i, s)
		}
	}
	if p := u.Get(backtestQuery); p.Status != http.StatusOK {
		t.Errorf("a back-test once the five finished: status %d", p.Status)
	}
}
