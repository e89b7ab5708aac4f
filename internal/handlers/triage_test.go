package handlers_test

import (
	"context"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"

	"creditdash/internal/apptest"
	"creditdash/internal/store"
)

// triageRows reads a triage table: each row's business link and its four
// score cells as shown.
func triageRows(p *apptest.Page) (ids []string, cells [][]string) {
	p.Doc.Find("table.triage tbody tr").Each(func(_ int, tr *goquery.Selection) {
		href, _ := tr.Find("th a").Attr("href")
		ids = append(ids, strings.TrimPrefix(href, "/businesses/"))
		var row []string
		tr.Find("td").Each(func(_ int, td *goquery.Selection) { row = append(row, strings.Join(strings.Fields(td.Text()), " ")) })
		cells = append(cells, row)
	})
	return ids, cells
}

// leading is the number a cell starts with, or ok false.
func leading(cell string) (float64, bool) {
	f := strings.Fields(cell)
	if len(f) == 0 {
		return 0, false
	}
	v, err := strconv.ParseFloat(f[0], 64)
	return v, err == nil
}

// TestFolderTriage: a folder page lists its businesses with Risk, Pay, DBT
// and Z″ in plain words, worst first by default, and sorts by a column
// from the URL; Risk and DBT are those last seen on a report. After the
// home page, the scores cost no request.
func TestFolderTriage(t *testing.T) {
	app := apptest.Start(t, apptest.Options{})
	u := app.SignIn(t, "demo")
	u.Get("/")
	u.Get("/businesses/1004") // Risk 1: seen on its report
	app.Sim.Reset()
	p := u.Get("/portfolio/folders/104")
	mustStatus(t, "/portfolio/folders/104", p, http.StatusOK)
	for path := range app.Sim.Requests()["demo"] {
		if strings.Contains(path, "ScoreHistory") {
			t.Errorf("the folder page asked for %s again", path)
		}
	}
	ids, cells := triageRows(p)
	if len(ids) == 0 {
		t.Fatal("no triage rows")
	}
	if ids[0] != "1004" {
		t.Errorf("worst first: first row %s, want 1004 (Risk 1, a report seen)", ids[0])
	}
	if risk := cells[0][0]; !strings.HasPrefix(risk, "1 · severe risk") {
		t.Errorf("1004's Risk cell = %q, want \"1 · severe risk\"", risk)
	}
	if !strings.Contains(cells[0][2], "days ·") {
		t.Errorf("1004's DBT cell = %q, want days in plain words", cells[0][2])
	}
	if got := p.Text("table.triage caption"); !strings.Contains(got, "worst first") {
		t.Errorf("caption = %q", got)
	}

	byPay := u.Get("/portfolio/folders/104?sort=pay")
	_, payCells := triageRows(byPay)
	prev := -1.0
	for i, row := range payCells {
		v, ok := leading(row[1])
		if !ok {
			// Businesses without a Pay score come last.
			for _, later := range payCells[i:] {
				if _, ok := leading(later[1]); ok {
					t.Errorf("a Pay score after one without: %q", later[1])
				}
			}
			break
		}
		if v < prev {
			t.Errorf("sort=pay: %v after %v, want lowest (worst) first", v, prev)
		}
		prev = v
	}
	if th := byPay.Doc.Find(`table.triage th[aria-sort="other"]`).Text(); th != "Pay" {
		t.Errorf("sorted column = %q, want Pay", th)
	}
	byDBT := u.Get("/portfolio/folders/104?sort=dbt")
	_, dbtCells := triageRows(byDBT)
	if v, ok := leading(dbtCells[0][2]); !ok || v < 16 {
		t.Errorf("sort=dbt: first DBT %q, want 1004's late payments first", dbtCells[0][2])
	}
	if u.Get("/portfolio/folders/104?sort=nonsense").Status != http.StatusOK {
		t.Error("an unknown sort is not the default order")
	}
}

// TestWatchlistShowsRiskAndDBT: the watch list has Risk and DBT beside
// Pay and Z″, in plain words.
func TestWatchlistShowsRiskAndDBT(t *testing.T) {
	app := apptest.Start(t, apptest.Options{})
	u := signInWS(t, app, "demo")
	u.Get("/businesses/1002")
	mustRedirect(t, "watch", u.post("/businesses/1002/watch"))
	p := u.Get("/watchlist")
	var heads []string
	p.Doc.Find("table.watchlist thead th").Each(func(_ int, th *goquery.Selection) { heads = append(heads, th.Text()) })
	if got := strings.Join(heads[1:6], "|"); got != "Business|Risk score|Pay score|DBT|Z″-Score" {
		t.Errorf("watch list columns = %q", got)
	}
	row := strings.Join(strings.Fields(p.Text("table.watchlist tbody tr")), " ")
	if !strings.Contains(row, "9 · low risk") || !strings.Contains(row, "days ·") {
		t.Errorf("1002's row = %q, want its Risk 9 as \"9 · low risk\" and its DBT", row)
	}
}

// TestKeptFolderPageFollowsTheMarks: a folder page reads its members'
// last-seen marks only when it builds, so a mark written since must move
// the page on rather than let the kept one show the old value. Written
// straight to the store, as another replica would, it shows once the
// replica's glance at the workspace is no longer believed (2 s).
func TestKeptFolderPageFollowsTheMarks(t *testing.T) {
	app := apptest.Start(t, apptest.Options{})
	u := signInWS(t, app, "demo")
	u.Get("/")
	u.Get("/businesses/1004") // Risk 1: seen on its report
	riskOf1004 := func(p *apptest.Page) string {
		ids, cells := triageRows(p)
		for i, id := range ids {
			if id == "1004" {
				return cells[i][0]
			}
		}
		t.Fatalf("no row of 1004 among %v", ids)
		return ""
	}
	u.Get("/portfolio/folders/104")
	if got := riskOf1004(u.Get("/portfolio/folders/104")); !strings.HasPrefix(got, "1 ·") {
		t.Fatalf("1004's Risk cell = %q, want the 1 seen on its report", got)
	}
	a := store.Analyst{Service: apptest.WorkspaceService, User: "demo"}
	if err := app.Store.MarkSeen(context.Background(), a, []store.Reading{{BusinessID: 1004, Score: store.ScoreRisk, Value: 6}}); err != nil {
		t.Fatal(err)
	}
	// Polled for 10 s, well past the glance's 2 s: under the race detector
	// one page may take longer than what is left of them.
	for start := time.Now(); ; time.Sleep(20 * time.Millisecond) {
		got := riskOf1004(u.Get("/portfolio/folders/104"))
		if strings.HasPrefix(got, "6 ·") {
			break
		}
		if time.Since(start) > 10*time.Second {
			t.Fatalf("after a new mark 1004's Risk cell = %q, want 6", got)
		}
	}
}
