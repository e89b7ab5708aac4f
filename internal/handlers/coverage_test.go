package handlers_test

import (
	"net/http"
	"strings"
	"testing"

	"creditdash/internal/apptest"
)

// coverage is the text of the coverage badge on the score card named name.
func coverage(p *apptest.Page, name string) string {
	return strings.TrimSpace(card(p, name).Find(".badge.coverage").Text())
}

// Every score card carries a coverage badge decided from the page's data:
// the scenario businesses' gaps each get their reason.
func TestCoverageBadgesOnTheOverview(t *testing.T) {
	app := apptest.Start(t, apptest.Options{})
	u := app.SignIn(t, "demo")
	cases := []struct {
		id   string
		want map[string]string
	}{
		{"1001", map[string]string{"Risk score": "Risk: up to date", "Pay score": "Pay: up to date",
			"DBT": "DBT: up to date", "Z″-Score": "Z″: up to date"}},
		// Private distributor with a thin trade file.
		{"1003", map[string]string{"Risk score": "Risk: up to date", "Pay score": "Pay: missing: thin trade file",
			"Z″-Score": "Z″: not computed for private companies"}},
		// Public company whose Z″ stopped for the latest quarters.
		{"1006", map[string]string{"Z″-Score": "Z″: not reported this month"}},
	}
	for _, c := range cases {
		p := u.Get("/businesses/" + c.id)
		if p.Status != http.StatusOK {
			t.Fatalf("%s: status %d", c.id, p.Status)
		}
		if n := p.Doc.Find(".score-card .badge.coverage").Length(); n != 4 {
			t.Errorf("%s: %d coverage badges on the cards, want 4", c.id, n)
		}
		if n := p.Doc.Find(".score-chart .badge.coverage").Length(); n != 4 {
			t.Errorf("%s: %d coverage badges on the score charts, want 4", c.id, n)
		}
		if got := p.Text("#risk-history .badge.coverage"); got != "Average risk: up to date" {
			t.Errorf("%s: risk history badge %q", c.id, got)
		}
		for name, want := range c.want {
			if got := coverage(p, name); got != want {
				t.Errorf("%s %s: badge %q, want %q", c.id, name, got, want)
			}
		}
	}
	// The card explains itself: what it measures, the band, why it moved.
	p := u.Get("/businesses/1001")
	risk := card(p, "Risk score")
	for _, want := range []string{"Measures how likely", "chance of bankruptcy within 12 months", "Why it moved:", "Largest input change"} {
		if !strings.Contains(risk.Text(), want) {
			t.Errorf("1001 Risk card lacks %q: %q", want, risk.Text())
		}
	}
	if got := card(p, "Z″-Score").Find(".band").Text(); got != "The service publishes no bankruptcy probability for this band." {
		t.Errorf("Z″ band %q", got)
	}
}

// API-Only: the stand-in withholds statement values, not scores, so the
// badges must not claim anything is withheld; they still say why 1003 has
// no Pay score.
func TestCoverageBadgesAPIOnly(t *testing.T) {
	app := apptest.Start(t, apptest.Options{})
	u := app.SignIn(t, "developer")
	for _, id := range []string{"1001", "1003"} {
		p := u.Get("/businesses/" + id)
		if p.Status != http.StatusOK {
			t.Fatalf("%s: status %d", id, p.Status)
		}
		if n := p.Doc.Find(".score-card .badge.coverage").Length(); n != 4 {
			t.Errorf("%s: %d badges", id, n)
		}
		if strings.Contains(p.Text("#scores"), "withheld") {
			t.Errorf("%s: a score claimed withheld: %q", id, p.Text("#scores"))
		}
	}
	if got := coverage(u.Get("/businesses/1003"), "Pay score"); got != "Pay: missing: thin trade file" {
		t.Errorf("developer 1003 Pay badge %q", got)
	}
}

// With the hour's budget spent the scores are not loaded: the page still
// renders, offers them, and shows no badge it cannot back.
func TestCoverageBadgesSpentBudget(t *testing.T) {
	app := apptest.Start(t, apptest.Options{})
	u := app.SignIn(t, "ordinary")
	for _, path := range []string{"/businesses/1002/payments", "/businesses/1004/payments", "/businesses/1005/payments"} {
		u.Get(path)
	}
	p := u.Get("/businesses/1001")
	if p.Status != http.StatusOK {
		t.Fatalf("status %d", p.Status)
	}
	if p.Doc.Find("#scores .problem").Length() == 0 {
		t.Fatalf("scores loaded with a spent budget: %q", p.Text("#scores"))
	}
	if n := p.Doc.Find(".badge.coverage").Length(); n != 0 {
		t.Errorf("%d coverage badges without the scores: %q", n, p.Text("main"))
	}
}
