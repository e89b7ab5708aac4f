package handlers_test

import (
	"math"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"

	"creditdash/internal/apptest"
	"creditdash/internal/handlers"
	"creditdash/internal/policy"
	"creditdash/internal/store"
)

// demoClock is a day of the month after the test data's latest, so the
// history's last month-end is the stand-in's latest month.
func demoClock() time.Time { return time.Date(2026, 11, 15, 10, 0, 0, 0, time.UTC) }

// TestDemoHistoryValidates: the import page's button brings 36 month-end
// ledgers; once the refresh plan has fetched the linked businesses'
// Risk histories, the Risk score alone validates above an AUC of 0.6
// with at least five defaults, on the page and in validation.csv, which
// scores.csv recomputes exactly.
func TestDemoHistoryValidates(t *testing.T) {
	workspaceEngines(t, func(t *testing.T, opts apptest.Options) {
		opts.Now = demoClock
		app := apptest.Start(t, opts)
		u := signInAccounts(t, app, "demo")
		p := u.Get("/policy/validation")
		if p.Status != http.StatusOK || !strings.Contains(p.Text("#validation-empty"), "no ledger") {
			t.Fatalf("before any ledger: status %d, %q", p.Status, p.Text("#validation-empty"))
		}
		imp := u.Get("/accounts/import")
		if got := imp.Text("#demo-history"); got != handlers.DemoHistoryLabel || !strings.Contains(handlers.DemoHistoryLabel, "36 months") {
			t.Fatalf("import page's history button = %q", got)
		}
		if to := mustRedirect(t, "demo history", u.post("/accounts/import/history")); to != "/policy/validation" {
			t.Fatalf("the history import went to %q", to)
		}
		dates, err := app.Store.LedgerDates(t.Context(), team)
		if err != nil || len(dates) != 36 || dates[0] != "2026-10-31" || dates[35] != "2023-11-30" {
			t.Fatalf("ledger dates %d (%v … %v), %v; want 36 month-ends 2023-11-30 to 2026-10-31", len(dates), first(dates), last(dates), err)
		}
		// Nothing known of Risk yet: the scorecard ranks with its
		// missing-data points, Risk alone has nothing to rank.
		p = u.Get("/policy/validation")
		if !strings.Contains(p.Text("#model-risk"), "No account had this score") || p.Text("#model-scorecard td.num") == "" {
			t.Errorf("before Risk is known: risk %q, scorecard %q", p.Text("#model-risk"), p.Text("#model-scorecard"))
		}
		// The refresh plan fetches 50 businesses a click.
		for range 2 {
			mustRedirect(t, "refresh plan", u.post("/refresh-plan"))
		}
		p = u.Get("/policy/validation")
		if p.Status != http.StatusOK || !strings.Contains(p.Text("#validation-ledgers"), "Nov 2023 to Oct 2026 (36 month-ends)") ||
			!strings.Contains(p.Text("#validation-ledgers"), "Nov 2023 to Oct 2025 (24 month-ends)") {
			t.Fatalf("validation page: status %d, ledgers %q", p.Status, p.Text("#validation-ledgers"))
		}
		// The score histories bring Pay by month too: Pay alone ranks.
		if strings.Contains(p.Text("#model-pay"), "No account had this score") || p.Doc.Find("#model-pay td.num").Length() == 0 {
			t.Errorf("Pay alone after the refresh plan: %q", p.Text("#model-pay"))
		}
		sum := readCSV(t, u.Get("/policy/validation.csv"))
		if strings.Join(sum[0], ",") != "model,gini,auc,ks,accounts,defaults,months" || len(sum) != 4 {
			t.Fatalf("validation.csv: %v", sum)
		}
		risk := sum[2]
		auc, _ := strconv.ParseFloat(risk[2], 64)
		defaults, _ := strconv.Atoi(risk[5])
		// The service's score history reaches back two years, so Risk is
		// known at the later month-ends scored only.
		months, _ := strconv.Atoi(risk[6])
		if risk[0] != "risk" || auc <= 0.6 || defaults < 5 || months < 12 {
			t.Errorf("Risk alone: %v; want an AUC above 0.6, at least 5 defaults, 12 months or more", risk)
		}
		t.Logf("validation.csv: %v", sum)
		if cell := p.Doc.Find("#model-risk td.num").First().Text(); !strings.HasPrefix(cell, strconv.FormatFloat(auc, 'f', 3, 64)+" (") {
			t.Errorf("the page's Risk AUC %q, the file's %s", cell, risk[2])
		}
		// Each class's bad rate carries its bootstrap range.
		if c := p.Text("section[aria-labelledby='class-risk'] table.validation-classes tbody"); !strings.Contains(c, "% to ") {
			t.Errorf("Risk's bad rates per class have no range: %q", c)
		}
		scores := u.Get("/policy/validation/scores.csv")
		if scores.Status != http.StatusOK || !strings.HasPrefix(scores.Body, "model,account,month,score,defaulted\n") {
			t.Fatalf("scores.csv: %d %.200s", scores.Status, scores.Body)
		}
		// A row per model, account and month-end: written as made.
		wantStreamed(t, "/policy/validation/scores.csv", download(t, app, u.User, "/policy/validation/scores.csv"), 64<<10)
		rows, err := policy.Recompute(strings.NewReader(scores.Body), []string{"scorecard", "risk", "pay"})
		if err != nil {
			t.Fatal(err)
		}
		for i, r := range rows {
			if strings.Join(r, ",") != strings.Join(sum[i+1], ",") {
				t.Errorf("recomputed %v, validation.csv has %v", r, sum[i+1])
			}
		}
	})
}

// TestDemoHistoryOnlyInDemo: without the demo data there is no button and
// the address is not found; a GET leads to the import page.
func TestDemoHistoryOnlyInDemo(t *testing.T) {
	app := apptest.Start(t, apptest.Options{Data: apptest.DemoData(), Now: demoClock})
	u := signInAccounts(t, app, "demo")
	if u.Get("/accounts/import").Doc.Find("#demo-history").Length() != 0 {
		t.Error("the history button is offered outside demo mode")
	}
	if p := u.post("/accounts/import/history"); p.Status != http.StatusNotFound {
		t.Errorf("POST outside demo mode: status %d, want 404", p.Status)
	}
	if p := u.PostForm("/accounts/import/history", nil); p.Status != http.StatusForbidden {
		t.Errorf("POST without the CSRF token: status %d, want 403", p.Status)
	}
	if dates, _ := app.Store.LedgerDates(t.Context(), team); len(dates) != 0 {
		t.Errorf("ledgers %v after refused imports", dates)
	}
}

func first(s []string) string {
	if len(s) == 0 {
		return ""
	}
	return s[0]
}

func last(s []string) string {
	if len(s) == 0 {
		return ""
	}
	return s[len(s)-1]
}

// TestValidationKeptPerTeamVersion: the page and both downloads work the
// validation out once for the team's version; a team write makes the next
// one work it out again. A version the team never saved is 404, a version
// that is not a number 400.
func TestValidationKeptPerTeamVersion(t *testing.T) {
	app := apptest.Start(t, apptest.Options{Now: demoClock})
	u := signInAccounts(t, app, "demo")
	importOne := func(day string) {
		t.Helper()
		at, _ := time.Parse("2006-01-02", day)
		if _, err := app.Store.ImportLedger(t.Context(), team, store.ImportSpec{AsOf: at, File: "aging.csv",
			Lines: []store.LedgerLine{{Account: "A-1", Name: "Alder Supply", Balance: 500, Current: 500}}}); err != nil {
			t.Fatal(err)
		}
	}
	importOne("2026-09-30")
	for _, path := range []string{"/policy/validation", "/policy/validation.csv", "/policy/validation/scores.csv", "/policy/validation"} {
		if p := u.Get(path); p.Status != http.StatusOK {
			t.Fatalf("GET %s: status %d", path, p.Status)
		}
	}
	if n := app.Stats().Validations; n != 1 {
		t.Errorf("four reads at one team version validated %d times, want once", n)
	}
	if p := u.Get("/policy/validation"); !strings.Contains(p.Text("#validation-ledgers"), "Sep 2026 to Sep 2026 (1 month-end)") ||
		!strings.Contains(p.Text("#validation-empty"), "at least 13 month-end ledgers") {
		t.Errorf("one ledger: %q / %q", p.Text("#validation-ledgers"), p.Text("#validation-empty"))
	}
	importOne("2026-10-31")
	if p := u.Get("/policy/validation"); !strings.Contains(p.Text("#validation-ledgers"), "Sep 2026 to Oct 2026 (2 month-ends)") {
		t.Errorf("after a second ledger: %q", p.Text("#validation-ledgers"))
	}
	if n := app.Stats().Validations; n != 2 {
		t.Errorf("after a team write: %d validations, want 2", n)
	}
	if p := u.Get("/policy/validation?version=3"); p.Status != http.StatusNotFound {
		t.Errorf("a version never saved: status %d, want 404", p.Status)
	}
	if p := u.Get("/policy/validation.csv?version=x"); p.Status != http.StatusBadRequest {
		t.Errorf("a version that is no number: status %d, want 400", p.Status)
	}
}

// TestReplayOnThePage: with a policy in force whose riskier class gives
// no credit, a limit approved at once for an account in that class is
// listed as one the policy would have changed (to 0, and to a second
// person), its expected loss the difference × the class's bad rate (100 %:
// the account went on to default) × the loss given default (100 %).
func TestReplayOnThePage(t *testing.T) {
	app := apptest.Start(t, apptest.Options{Now: demoClock})
	u := signInAccounts(t, app, "demo")
	ctx := t.Context()
	// 14 month-ends to October 2026: B-2 owes 20 % past 90 days, then 40 %
	// (in default) from its seventh month-end on.
	for i := range 14 {
		at := time.Date(2025, time.Month(10+i), 1, 0, 0, 0, 0, time.UTC).AddDate(0, 0, -1)
		over := 2000.0
		if i >= 6 {
			over = 4000
		}
		lines := []store.LedgerLine{{Account: "B-1", Name: "Alder Supply", Balance: 5000, Current: 5000},
			{Account: "B-2", Name: "Birch Freight", Balance: 10000, Current: 10000 - over, DaysOver90: over}}
		if _, err := app.Store.ImportLedger(ctx, team, store.ImportSpec{AsOf: at, File: "aging.csv", Lines: lines}); err != nil {
			t.Fatal(err)
		}
	}
	p := policy.Policy{
		Scorecard: policy.Scorecard{Factors: []policy.Factor{{Kind: policy.FactorOver90, Edges: []float64{0.10}, Points: []int{10, 0}}},
			Classes: []policy.Class{{Name: "good", Min: 5}, {Name: "watch", Min: math.MinInt32}}},
		Limits: []policy.LimitRule{{Class: "good", Cap: policy.CapRecommended, Share: 1, AtOnce: 50000}, {Class: "watch", Cap: policy.CapRecommended}},
	}
	body, err := p.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	v, err := app.Store.SavePolicy(ctx, store.Analyst{Service: team.Service, User: "mia"}, body, "no credit on watch")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := app.Store.ActivatePolicy(ctx, store.Analyst{Service: team.Service, User: "noor"}, v.ID); err != nil {
		t.Fatal(err)
	}
	page := u.Get("/policy/validation")
	if !strings.Contains(page.Text("#replay-empty"), "approved no limit") {
		t.Errorf("before any decision: %q", page.Text("#replay"))
	}
	r, err := app.Store.RequestLimit(ctx, team, store.RequestSpec{Account: "B-2", Amount: 30000, Reason: "seasonal", Authority: 1e6})
	if err != nil || r.Status != store.StatusApproved {
		t.Fatalf("request: %+v, %v", r, err)
	}
	page = u.Get("/policy/validation")
	if page.Status != http.StatusOK || !strings.Contains(page.Text("#validation-scorecard"), "version 1, in force") {
		t.Fatalf("status %d, scorecard %q", page.Status, page.Text("#validation-scorecard"))
	}
	sum := page.Text("#replay-summary")
	if !strings.Contains(sum, "would have changed 1: 1 to a lower limit and 1 to a second person") || !strings.Contains(sum, "Expected loss of the difference: $30,000") {
		t.Errorf("replay summary %q", sum)
	}
	if f := page.Text("#replay-figures"); !strings.Contains(f, "0 judged on the calculator's figures of their day") || !strings.Contains(f, "1 with figures not kept") {
		t.Errorf("figures kept: %q", f)
	}
	row := page.Doc.Find("#replay-rows tbody tr").First()
	cells := row.Find("td").Map(func(_ int, s *goquery.Selection) string { return strings.TrimSpace(s.Text()) })
	want := []string{"B-2", "Oct 2026", "$30,000", "watch (0)", "not kept", "$0", "$30,000", "needed", "100.0%", "$30,000", "no default"}
	if strings.Join(cells, "|") != strings.Join(want, "|") {
		t.Errorf("replayed row %q, want %q", cells, want)
	}
	if href, _ := row.Find("a").Attr("href"); href != "/decisions/"+strconv.FormatInt(r.ID, 10) {
		t.Errorf("the row links to %q", href)
	}
}
