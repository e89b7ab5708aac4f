package handlers_test

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"creditdash/internal/apptest"
	"creditdash/internal/roles"
	"creditdash/internal/store"
)

// TestPolicyDefaultShareValidated: a manager's default share is refused
// out of 1–100 % (422, the typed share kept), saved with a version and
// shown on /policy; validating that version counts defaults by its share:
// B-2, 30 % past 90 days, defaults at the starting 25 % but not at 35 %.
func TestPolicyDefaultShareValidated(t *testing.T) {
	table, err := roles.Parse("test", "demo=manager:250000,ordinary=manager:1000000", 0)
	if err != nil {
		t.Fatal(err)
	}
	app := apptest.Start(t, apptest.Options{Now: demoClock, Roles: table})
	u := signInAccounts(t, app, "demo") // manager
	for i := range 14 {
		at := time.Date(2025, time.Month(10+i), 1, 0, 0, 0, 0, time.UTC).AddDate(0, 0, -1)
		over := 0.0
		if i >= 6 {
			over = 3000
		}
		lines := []store.LedgerLine{{Account: "B-1", Name: "Alder Supply", Balance: 5000, Current: 5000},
			{Account: "B-2", Name: "Birch Freight", Balance: 10000, Current: 10000 - over, DaysOver90: over}}
		if _, err := app.Store.ImportLedger(t.Context(), team, store.ImportSpec{AsOf: at, File: "aging.csv", Lines: lines}); err != nil {
			t.Fatal(err)
		}
	}
	defaults := func(path string) string {
		t.Helper()
		sum := readCSV(t, u.Get(path))
		if len(sum) < 2 || sum[1][0] != "scorecard" {
			t.Fatalf("%s: %v", path, sum)
		}
		return sum[1][5]
	}
	if d := defaults("/policy/validation.csv"); d != "1" {
		t.Errorf("the starting policy (25 %%): %s defaults, want 1", d)
	}
	page := u.Get("/policy")
	if v, _ := page.Doc.Find("#default_over90").Attr("value"); v != "25" {
		t.Errorf("the form's default share starts at %q, want 25", v)
	}
	bad := postPolicy(t, u, page, "default_over90", "150", "note", "Stricter default")
	if bad.Status != http.StatusUnprocessableEntity || !strings.Contains(bad.Text("#default-error"), "from 1 to 100") {
		t.Fatalf("a share of 150: %d, %q", bad.Status, bad.Text("#default-error"))
	}
	if v, _ := bad.Doc.Find("#default_over90").Attr("value"); v != "150" {
		t.Errorf("the typed share came back as %q", v)
	}
	mustRedirect(t, "save", postPolicy(t, u, u.Get("/policy"), "default_over90", "35 %", "note", "Default above 35 %"))
	boss := signInAccounts(t, app, "ordinary") // another manager
	action, _, ok := boss.Get("/policy").Form("#version-1 form.activate-policy")
	if !ok {
		t.Fatal("version 1 cannot be put in force")
	}
	mustRedirect(t, "activate", boss.post(action))
	if got := u.Get("/policy").Text("#active-default"); !strings.Contains(got, "over 90 days above 35 % at a month-end within 12 months, or a filing") {
		t.Errorf("/policy's default: %q", got)
	}
	if d := defaults("/policy/validation.csv?version=1"); d != "0" {
		t.Errorf("version 1 (35 %%): %s defaults, want 0", d)
	}
	if got := u.Get("/policy/validation?version=1").Text("#validation-definition"); !strings.Contains(got, "default: over 90 days above 35 % at a month-end within 12 months, or a filing") {
		t.Errorf("the validation page's definition: %q", got)
	}
}
