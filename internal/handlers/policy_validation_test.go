package handlers_test

import (
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

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
		scores := u.Get("/policy/validation/scores.csv")
		if scores.Status != http.StatusOK || !strings.HasPrefix(scores.Body, "model,account,month,score,defaulted\n") {
			t.Fatalf("scores.csv: %d %.200s", scores.Status, scores.Body)
		}
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
