package handlers_test

import (
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"

	"creditdash/internal/apptest"
	"creditdash/internal/shared/redistest"
	"creditdash/internal/store"
)

// seedLedger imports a ledger of the team's straight into the store.
func seedLedger(t *testing.T, app *apptest.App, lines ...store.LedgerLine) {
	t.Helper()
	if _, err := app.Store.ImportLedger(t.Context(), team, store.ImportSpec{AsOf: time.Date(2026, 10, 31, 0, 0, 0, 0, time.UTC),
		File: "aging.csv", Lines: lines}); err != nil {
		t.Fatal(err)
	}
}

// owing is a ledger line of business b owing balance, all current.
func owing(account string, b int32, balance float64) store.LedgerLine {
	return store.LedgerLine{Account: account, Name: "Customer " + account, BusinessID: b, Balance: balance, Current: balance}
}

// knownRisk records a Risk for business b as fetched at the given time,
// with earlier months of Risk.
func knownRisk(t *testing.T, app *apptest.App, b int32, risk float64, fetched time.Time, months ...store.ScoreMonth) {
	t.Helper()
	o := store.Observation{BusinessID: b, Fetched: fetched, Risk: months,
		Latest: map[store.Score]store.KnownScore{store.ScoreRisk: {Value: risk, Month: 202610, Fetched: fetched}}}
	if kept, err := app.Store.RecordScores(t.Context(), team, o); !kept || err != nil {
		t.Fatalf("record %d: kept %v, %v", b, kept, err)
	}
}

// planOrder is the businesses the plan lists, in its order.
func planOrder(p *apptest.Page) []string {
	var out []string
	p.Doc.Find("table.refresh-plan tbody tr th a").Each(func(_ int, s *goquery.Selection) {
		href, _ := s.Attr("href")
		out = append(out, strings.TrimPrefix(href, "/businesses/"))
	})
	return out
}

// TestRefreshPlanRanksAndCovers: never fetched first, then expected loss ×
// staleness × movement; the coverage is the exposure fetched in the last
// seven days, on the plan and on the exposure page.
func TestRefreshPlanRanksAndCovers(t *testing.T) {
	app := apptest.Start(t, apptest.Options{})
	now := time.Now()
	day := 24 * time.Hour
	seedLedger(t, app, owing("P-1", 1001, 10_000), owing("P-2", 1002, 10_000), owing("P-3", 1003, 50_000), owing("P-4", 0, 30_000))
	knownRisk(t, app, 1001, 5, now.Add(-8*day))
	// 1002 moved four points since three months ago (1 then, 5 now).
	then := now.UTC().AddDate(0, -5, 0)
	knownRisk(t, app, 1002, 5, now.Add(-2*day), store.ScoreMonth{Month: then.Year()*100 + int(then.Month()), Value: 1}, store.ScoreMonth{Month: 202610, Value: 5})
	u := signInWS(t, app, "demo")
	p := u.Get("/refresh-plan")
	if p.Status != http.StatusOK {
		t.Fatalf("GET /refresh-plan: status = %d", p.Status)
	}
	if got := strings.Join(planOrder(p), ","); got != "1003,1002,1001" {
		t.Errorf("plan order = %s, want 1003 (never fetched), 1002 (EL × 2 days × 5), 1001 (EL × 8 days × 1)", got)
	}
	if got := p.Text("#coverage-share"); !strings.Contains(got, "10.0%") || !strings.Contains(got, "$10,000 of $100,000") {
		t.Errorf("coverage = %q, want 10.0%% ($10,000 of $100,000)", got)
	}
	if !strings.Contains(p.Text("#refresh-unlinked"), "1 account") {
		t.Error("the plan does not say an account is not linked")
	}
	if p.Doc.Find(`form[action="/refresh-plan"] button`).Length() != 1 {
		t.Error("no refresh button")
	}
	e := u.Get("/portfolio/exposure")
	if e.Status != http.StatusOK || !strings.Contains(e.Text("#coverage-share"), "10.0%") {
		t.Errorf("exposure page: status %d, coverage %q", e.Status, e.Text("#coverage-share"))
	}
}

// TestRefreshPlanEmpty: no ledger, and a ledger with nothing linked, each
// say so; a POST with nothing to fetch returns to the plan.
func TestRefreshPlanEmpty(t *testing.T) {
	app := apptest.Start(t, apptest.Options{})
	u := signInWS(t, app, "demo")
	p := u.Get("/refresh-plan")
	if p.Status != http.StatusOK || !strings.Contains(p.Text("p.empty"), "no ledger yet") || p.Doc.Find("#coverage").Length() != 0 {
		t.Errorf("no ledger: status %d, %q", p.Status, p.Text("p.empty"))
	}
	to := mustRedirect(t, "refresh without a ledger", u.post("/refresh-plan"))
	if p := u.Get(to); !strings.Contains(p.Text("#refresh-outcome"), "No score was fetched") {
		t.Errorf("after a refresh with nothing to fetch: %q", p.Text("#refresh-outcome"))
	}
	seedLedger(t, app, owing("U-1", 0, 500))
	p = u.Get("/refresh-plan")
	if !strings.Contains(p.Text("#refresh-empty"), "nothing to refresh") || !strings.Contains(p.Text("#coverage-share"), "0.0%") {
		t.Errorf("nothing linked: %q, coverage %q", p.Text("#refresh-empty"), p.Text("#coverage-share"))
	}
	if got := u.Get("/refresh-plan?fetched=" + strings.Repeat("1,", 5000) + "&missed=-3"); got.Status != http.StatusOK {
		t.Errorf("a hand-made outcome address: status %d", got.Status)
	}
}

// TestRefreshPlanPost: the POST fetches the top of the list, records the
// scores as the team's, and returns (303) to the plan naming them; without
// the token, or as an auditor, it is refused.
func TestRefreshPlanPost(t *testing.T) {
	app := apptest.Start(t, apptest.Options{})
	seedLedger(t, app, owing("P-1", 1001, 10_000), owing("P-2", 1002, 20_000))
	u := signInWS(t, app, "demo")
	if p := u.PostForm("/refresh-plan", url.Values{}); p.Status != http.StatusForbidden {
		t.Errorf("POST without a token: status %d, want 403", p.Status)
	}
	auditor := signInWS(t, app, "trade")
	if p := auditor.post("/refresh-plan"); p.Status != http.StatusForbidden {
		t.Errorf("an auditor's refresh: status %d, want 403", p.Status)
	}
	if known, _ := app.Store.KnownScores(t.Context(), team); len(known) != 0 {
		t.Fatalf("refused posts recorded scores: %v", known)
	}
	to := mustRedirect(t, "refresh", u.post("/refresh-plan"))
	if !strings.HasPrefix(to, "/refresh-plan?fetched=1002,1001") {
		t.Errorf("the refresh returned to %q, want the plan naming 1002 then 1001", to)
	}
	known, err := app.Store.KnownScores(t.Context(), team)
	if err != nil || len(known) != 2 || known[1001][store.ScoreRisk].Fetched.IsZero() {
		t.Fatalf("known scores after the refresh: %v (%v)", known, err)
	}
	p := u.Get(to)
	if got := p.Text("#refresh-outcome"); !strings.Contains(got, "2 businesses") {
		t.Errorf("outcome = %q", got)
	}
	if got := p.Text("#coverage-share"); !strings.Contains(got, "100.0%") {
		t.Errorf("coverage after the refresh = %q, want 100%%", got)
	}
}

// serviceRequests is how many requests user made to the stand-in, sign-ins
// aside.
func serviceRequests(app *apptest.App, user string) int {
	n := 0
	for path, c := range app.Sim.Requests()[user] {
		if path != "/v1/Users/Login" {
			n += c
		}
	}
	return n
}

// manyLinked is a ledger of n accounts, each linked to its own business.
func manyLinked(n int) []store.LedgerLine {
	lines := make([]store.LedgerLine, n)
	for i := range lines {
		lines[i] = owing("M-"+string(rune('A'+i/26))+string(rune('a'+i%26)), int32(1001+i), float64(1000*(i+1)))
	}
	return lines
}

// refreshStorm posts the plan 50 times at once, spread over the apps, as
// one Ordinary analyst in many tabs.
func refreshStorm(t *testing.T, u *wsUser, apps ...*apptest.App) {
	t.Helper()
	var wg sync.WaitGroup
	statuses := make([]int, 50)
	for i := range statuses {
		on := u.On(apps[i%len(apps)])
		wg.Go(func() {
			statuses[i] = on.PostForm("/refresh-plan", url.Values{"_csrf": {u.token}}).Status
		})
	}
	wg.Wait()
	for i, s := range statuses {
		if s != http.StatusSeeOther && s != http.StatusServiceUnavailable {
			t.Errorf("post %d: status %d, want 303 (or 503 when the dashboard is busy)", i, s)
		}
	}
}

// TestRefreshPlanNeverOvershoots: 50 posts at once by an Ordinary account
// (10 requests an hour) reach the stand-in at most 10 times.
func TestRefreshPlanNeverOvershoots(t *testing.T) {
	app := apptest.Start(t, apptest.Options{})
	seedLedger(t, app, manyLinked(30)...)
	u := signInWS(t, app, "ordinary")
	refreshStorm(t, u, app)
	n := serviceRequests(app, "ordinary")
	t.Logf("the stand-in saw %d requests of the Ordinary account", n)
	if n > 10 || n == 0 {
		t.Errorf("the stand-in saw %d requests of the Ordinary account, want 1 to 10 (%v)", n, app.Sim.Requests()["ordinary"])
	}
	known, _ := app.Store.KnownScores(t.Context(), team)
	if len(known) == 0 || len(known) > 10 {
		t.Errorf("%d businesses recorded, want 1 to 10", len(known))
	}
}

// TestRefreshPlanNeverOvershootsOnTwoReplicas: the same storm spread over
// two replicas sharing Redis stays within the one budget.
func TestRefreshPlanNeverOvershootsOnTwoReplicas(t *testing.T) {
	redisURL := redistest.URL(t)
	prefix := redistest.Prefix(t)
	a := apptest.Start(t, apptest.Options{RedisURL: redisURL, RedisPrefix: prefix})
	b := apptest.Start(t, apptest.Options{RedisURL: redisURL, RedisPrefix: prefix, SameService: a})
	seedLedger(t, a, manyLinked(30)...)
	seedLedger(t, b, manyLinked(30)...)
	u := signInWS(t, a, "ordinary")
	refreshStorm(t, u, a, b)
	n := serviceRequests(a, "ordinary")
	t.Logf("the stand-in saw %d requests of the Ordinary account from two replicas", n)
	if n > 10 || n == 0 {
		t.Errorf("the stand-in saw %d requests of the Ordinary account from two replicas, want 1 to 10 (%v)", n, a.Sim.Requests()["ordinary"])
	}
}
