package handlers_test

import (
	"net/http"
	"strconv"
	"strings"
	"testing"

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
