package handlers_test

import (
	"net/http"
	"strconv"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"

	"creditdash/internal/apptest"
)

// The back-test says how many alerts turning the rule on raises today, and
// turning it on (its button, a POST to /alerts/rules) followed by a page
// that reads the portfolio's histories (the home page) raises exactly
// that many: for the whole portfolio and for a folder.
func TestBacktestTodayIsWhatTurningOnRaises(t *testing.T) {
	for _, tc := range []struct{ name, query, rule string }{
		{"Pay below 4", "scope=portfolio&score=pay&condition=below&threshold=4&months=24", "Pay below 4"},
		{"Z″ below 1.1 in a folder", "scope=folder&folder=104&score=z&condition=below&threshold=1.1&months=12", "Z″ below 1.10"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			app := apptest.Start(t, apptest.Options{})
			u := signInWS(t, app, "demo")
			p := u.Get("/alerts/backtest?" + tc.query)
			if p.Status != http.StatusOK {
				t.Fatalf("back-test: status %d; %.400s", p.Status, p.Body)
			}
			text := p.Text("#backtest-today")
			words := strings.Fields(text)
			if len(words) < 2 || !strings.HasPrefix(words[1], "alert") {
				t.Fatalf("today: %q, want a count of alerts", text)
			}
			want, err := strconv.Atoi(words[0])
			if err != nil || want == 0 {
				t.Fatalf("today: %q; want a count above 0 over the demo portfolio", text)
			}
			next := u.Submit(p, "#backtest-turn-on")
			if next.Status != http.StatusSeeOther {
				t.Fatalf("turn on: status %d", next.Status)
			}
			if n := u.Get("/alerts").Doc.Find("table.alerts tbody tr").Length(); n != 0 {
				t.Fatalf("%d alerts before any page read the scores", n)
			}
			if h := u.Get("/"); h.Status != http.StatusOK {
				t.Fatalf("home: status %d", h.Status)
			}
			rows := u.Get("/alerts").Doc.Find("table.alerts tbody tr")
			if rows.Length() != want {
				t.Errorf("turning %s on raised %d alerts; the back-test said %d", tc.rule, rows.Length(), want)
			}
			if rows.Length() > 0 && !strings.Contains(rows.First().Text(), tc.rule) {
				t.Errorf("first alert %q is not the rule's", rows.First().Text())
			}
		})
	}
}

// The page's outcome counts over the demo portfolio are its firings'
// outcomes, each counted apart; a firing followed by deterioration has a
// worse (lower) Pay later in the window than at the firing, every other
// firing none, so a score that merely stays where it was is never
// deterioration; still-true firings are neither false alarms nor
// confirmed ones.
func TestBacktestOutcomesCountedApart(t *testing.T) {
	app := apptest.Start(t, apptest.Options{})
	u := signInWS(t, app, "demo")
	p := u.Get(backtestQuery)
	if p.Status != http.StatusOK {
		t.Fatalf("back-test: status %d", p.Status)
	}
	if strings.Contains(p.Text("#backtest-firings-title + *"), "more (the CSV") || strings.Contains(p.Body, "more (the CSV counts") {
		t.Fatal("the firings table is cut; the test needs every firing listed")
	}
	counts := map[string]int{}
	p.Doc.Find("table.backtest-firings tbody tr").Each(func(_ int, row *goquery.Selection) {
		td := row.Find("td")
		outcome := strings.TrimSpace(td.Eq(5).Text())
		counts[outcome]++
		if outcome == "too recent to tell" {
			return
		}
		at, err1 := strconv.ParseFloat(strings.TrimSpace(td.Eq(2).Text()), 64)
		worst, _, _ := strings.Cut(strings.TrimSpace(td.Eq(3).Text()), " in ")
		later, err2 := strconv.ParseFloat(worst, 64)
		if err1 != nil || err2 != nil {
			t.Fatalf("row %q: the firing's value or worst later is not a number", row.Text())
		}
		if deteriorated := later < at; deteriorated != (outcome == "followed by deterioration") {
			t.Errorf("row %q: at %v, worst later %v, yet %q", row.Text(), at, later, outcome)
		}
	})
	first := func(sel string) int {
		n, err := strconv.Atoi(strings.Fields(p.Text(sel))[0])
		if err != nil {
			t.Fatalf("%s = %q", sel, p.Text(sel))
		}
		return n
	}
	if st := first("#backtest-still-true"); st != counts["still true at the window's end"] || st == 0 {
		t.Errorf("still true: the summary says %d, the firings %d (want some over two years of demo data)", st, counts["still true at the window's end"])
	}
	det, none := counts["followed by deterioration"], counts["no deterioration"]
	if want := "(" + strconv.Itoa(none) + " of " + strconv.Itoa(det+none) + ")"; !strings.Contains(p.Text("#backtest-no-deterioration"), want) || none == 0 {
		t.Errorf("no deterioration: %q, want %s counted from the firings, some of them", p.Text("#backtest-no-deterioration"), want)
	}
}
