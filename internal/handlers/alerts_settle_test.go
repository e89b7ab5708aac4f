package handlers_test

import (
	"net/http"
	"testing"
	"time"

	"creditdash/internal/apptest"
	"creditdash/internal/store"
	"creditdash/internal/upstream/simulator"
)

// Twenty broad portfolio rules on the stand-in's 1,000-business portfolio
// fire past the bound of alerts held; the home page then settles: a visit
// after the first finds nothing new and leaves the workspace unchanged,
// instead of raising the pruned alerts again on every visit.
func TestBroadRulesSettleOnTheHomePage(t *testing.T) {
	// The first visit reads a 1,000-business history and writes ten
	// thousand alerts: more than a page's workspace deadline, a store call's
	// bound and the service's call limit allow under the race detector on two busy cores,
	// and this test is about settling, not about time.
	app := apptest.Start(t, apptest.Options{Sim: simulator.Options{Bulk: 1000}, WorkspaceDeadline: time.Minute, StoreTimeout: time.Minute, Timeout: time.Minute})
	u := app.SignIn(t, "bulk")
	a := store.Analyst{Service: apptest.WorkspaceService, User: "bulk"}
	for i := range 20 {
		// Z″ above nearly its lowest value: each fires for every business.
		spec := store.RuleSpec{Scope: store.ScopePortfolio, Score: store.ScoreZ, Condition: store.Above, Threshold: -3.99 + float64(i)/100}
		if _, err := app.Store.AddRule(t.Context(), a, spec); err != nil {
			t.Fatal(err)
		}
	}
	// The 1,000-business history may still be on its way when the first
	// visit is answered (the page then says so and evaluates nothing);
	// a later visit reads it from the cache.
	var alerts []store.Alert
	var err error
	for range 20 {
		if p := u.Get("/"); p.Status != http.StatusOK {
			t.Fatalf("home: status %d", p.Status)
		}
		if alerts, err = app.Store.Alerts(t.Context(), a, 0); err != nil || len(alerts) > 0 {
			break
		}
		time.Sleep(500 * time.Millisecond)
	}
	if err != nil || len(alerts) != store.MaxAlerts {
		t.Fatalf("after the first visit: %d alerts held, %v; want the bound %d (the rules must fire past it)", len(alerts), err, store.MaxAlerts)
	}
	var changed []int64
	for i := range 3 {
		if p := u.Get("/"); p.Status != http.StatusOK {
			t.Fatalf("home again %d: status %d", i+1, p.Status)
		}
		g, err := app.Store.Glance(t.Context(), a)
		if err != nil {
			t.Fatal(err)
		}
		changed = append(changed, g.Changed)
	}
	if changed[0] != changed[1] || changed[1] != changed[2] {
		t.Errorf("the workspace changed on every visit (%v): pruned alerts were raised again", changed)
	}
}
