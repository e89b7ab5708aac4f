package handlers_test

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"creditdash/internal/apptest"
)

// importSample previews and imports one of the demo's sample ledgers.
func importSample(t *testing.T, u *wsUser, name string) {
	t.Helper()
	p := u.PostForm("/accounts/import", url.Values{"_csrf": {u.token}, "sample": {name}})
	mustRedirect(t, "import "+name, u.Submit(p, "form.import-confirm"))
}

// TestExposureAndBridge: with both sample ledgers and the team's scores,
// the exposure page shows its breakdowns and concentration, the bridge's
// parts add up to its change, and the CSV has its exact header.
func TestExposureAndBridge(t *testing.T) {
	workspaceEngines(t, func(t *testing.T, opts apptest.Options) {
		app := apptest.Start(t, opts)
		u := signInAccounts(t, app, "demo")
		if p := u.Get("/portfolio/exposure"); p.Status != http.StatusOK || !strings.Contains(p.Text("main"), "no ledger yet") {
			t.Fatalf("empty exposure: %d %q", p.Status, p.Text("main"))
		}
		importSample(t, u, "demo-ledger-3-months-earlier.csv")
		importSample(t, u, "demo-ledger-current.csv")
		mustRedirect(t, "link", u.post("/accounts/link"))
		for range 2 { // 90 businesses, 50 a click
			mustRedirect(t, "fetch", u.post("/accounts/scores"))
		}
		p := u.Get("/portfolio/exposure")
		if p.Status != http.StatusOK {
			t.Fatalf("exposure: status %d; %.300s", p.Status, p.Text("main"))
		}
		for _, sel := range []string{"table.exposure-risk_band", "table.exposure-z_zone", "table.exposure-industry", "table.exposure-folder", "#chart-exposure-band"} {
			if p.Doc.Find(sel).Length() == 0 {
				t.Errorf("exposure page lacks %s", sel)
			}
		}
		if !strings.Contains(p.Text("main"), "Herfindahl index 0.") || !strings.Contains(p.Text("main"), "midpoint") {
			t.Errorf("no concentration or PD note: %q", p.Text("main"))
		}
		if strings.Contains(p.Text("table.exposure-industry"), "not known") {
			t.Error("fetched businesses have no industry")
		}
		bridge := p.Text("table.bridge")
		change := p.Text("table.bridge tr:last-child td")
		if bridge == "" || !strings.Contains(bridge, "(the four parts: "+change+")") {
			t.Errorf("bridge = %q; the parts must add up to the change %q", bridge, change)
		}
		if p.Doc.Find("ol.movers li").Length() != 5 {
			t.Errorf("movers = %q", p.Text("ol.movers"))
		}
		if !strings.Contains(p.Text("ol.movers"), "closed account") && !strings.Contains(p.Text("ol.movers"), "new account") && !strings.Contains(p.Text("ol.movers"), "band") {
			t.Errorf("movers name no cause: %q", p.Text("ol.movers"))
		}
		if bad := u.Get("/portfolio/exposure?from=2999-01-01"); bad.Status != http.StatusBadRequest || bad.Text("#bridge .form-error") == "" {
			t.Errorf("a date the team has not: status %d", bad.Status)
		}
		csv := u.Get("/portfolio/exposure.csv")
		lines := strings.Split(strings.TrimSpace(csv.Body), "\n")
		if strings.TrimSpace(lines[0]) != "dimension,group,accounts,exposure,expected_loss,share" || len(lines) < 10 {
			t.Errorf("exposure.csv = %q", csv.Body)
		}
		if !strings.HasPrefix(lines[1], "risk_band,Risk 1,") && !strings.HasPrefix(lines[1], "risk_band,Risk 2,") {
			t.Errorf("first row %q, want the worst band first", lines[1])
		}
	})
}

// TestLimitDrift: an account whose limit exceeds the implied limit of its
// saved inputs is listed as limit at risk.
func TestLimitDrift(t *testing.T) {
	app := apptest.Start(t, apptest.Options{})
	u := signInAccounts(t, app, "demo")
	importLedger(t, u, "aging.csv", []byte(ledgerCSV), "2026-09-30")
	grantLimit(t, app, "A-1", 90000)
	p := u.Get("/businesses/1001/limit?monthly_sales=60500&loss_budget=2000")
	mustRedirect(t, "save", u.Submit(p, `form[method="post"][action="/businesses/1001/limit"]`))
	drift := u.Get("/portfolio/exposure").Text("table.drift")
	if !strings.Contains(drift, "A-1") || !strings.Contains(drift, "$90,000") || !strings.Contains(drift, "$28,000") || !strings.Contains(drift, "$62,000") {
		t.Errorf("drift = %q; want A-1's $90,000 limit above its $28,000 implied limit by $62,000", drift)
	}
}

// TestFiguresBroughtForward: once the team's figures are kept, a limit
// decided and a calculator's inputs saved for one account show on the
// next exposure page from figures brought forward (that account worked
// out again), not worked out whole; an import then works them out whole.
func TestFiguresBroughtForward(t *testing.T) {
	app := apptest.Start(t, apptest.Options{})
	u := signInAccounts(t, app, "demo")
	importLedger(t, u, "aging.csv", []byte(ledgerCSV), "2026-09-30")
	if p := u.Get("/portfolio/exposure"); p.Status != http.StatusOK || strings.Contains(p.Text("table.drift"), "A-1") {
		t.Fatalf("exposure before: %d, drift %q", p.Status, p.Text("table.drift"))
	}
	worked, updated := app.Stats().TeamFiguresWorkedOut, app.Stats().TeamFiguresUpdated
	grantLimit(t, app, "A-1", 90000)
	p := u.Get("/businesses/1001/limit?monthly_sales=60500&loss_budget=2000")
	mustRedirect(t, "save", u.Submit(p, `form[method="post"][action="/businesses/1001/limit"]`))
	drift := u.Get("/portfolio/exposure").Text("table.drift")
	if !strings.Contains(drift, "A-1") || !strings.Contains(drift, "$90,000") || !strings.Contains(drift, "$28,000") {
		t.Errorf("drift = %q; want A-1's $90,000 limit above its $28,000 implied limit", drift)
	}
	if s := app.Stats(); s.TeamFiguresWorkedOut != worked || s.TeamFiguresUpdated == updated {
		t.Errorf("after one account's writes: worked out whole %d times, brought forward %d times; want 0 and at least 1",
			s.TeamFiguresWorkedOut-worked, s.TeamFiguresUpdated-updated)
	}
	importLedger(t, u, "aging.csv", []byte(ledgerCSV), "2026-10-31")
	if p := u.Get("/portfolio/exposure"); p.Status != http.StatusOK || app.Stats().TeamFiguresWorkedOut != worked+1 {
		t.Errorf("after an import: %d, worked out whole %d times (want once)", p.Status, app.Stats().TeamFiguresWorkedOut-worked)
	}
}
