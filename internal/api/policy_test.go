package api_test

import (
	"net/http"
	"strconv"
	"strings"
	"testing"

	"creditdash/internal/api"
	"creditdash/internal/apptest"
	"creditdash/internal/policy"
	"creditdash/internal/store"
)

// TestPolicyThroughTheAPI: the team's credit policy holds for a request
// through the API as on the pages. With every class's limit 50 % of the
// trade cap and no calculator inputs saved for A-1, no policy limit is
// worked out, so 8,000 within the holder's authority waits for a second
// person, the policy's words kept with it; once inputs give a limit of
// 10,000, 8,000 is approved at once.
func TestPolicyThroughTheAPI(t *testing.T) {
	engines(t, func(t *testing.T, app *apptest.App, clk *clock) {
		dev := signIn(t, app, "developer")
		token := dev.makeToken("erp", "write", 10, clk.Now())
		pushCSV(t, app, token)
		ctx := t.Context()
		demo, other := store.Analyst{Service: apptest.WorkspaceService, User: "demo"}, store.Analyst{Service: apptest.WorkspaceService, User: "ordinary"}
		p := policy.Starting()
		for i := range p.Limits {
			p.Limits[i].Cap, p.Limits[i].Share, p.Limits[i].Max, p.Limits[i].AtOnce = policy.CapTrade, 0.5, 0, 100_000
		}
		body, err := p.Marshal()
		if err != nil {
			t.Fatal(err)
		}
		v, err := app.Store.SavePolicy(ctx, demo, body, "half the trade cap")
		if err != nil {
			t.Fatal(err)
		}
		if _, err := app.Store.ActivatePolicy(ctx, other, v.ID); err != nil {
			t.Fatal(err)
		}

		var d api.Decision
		postJSON(t, app, token, "/api/v1/limit-requests", map[string]any{"account": "A-1", "amount": "8,000", "reason": "Orders doubled"}).
			into(t, http.StatusCreated, &d)
		if d.Status != "pending" {
			t.Fatalf("no policy limit worked out, yet: %+v", d)
		}
		id, _ := strconv.ParseInt(d.ID, 10, 64)
		r, err := app.Store.Request(ctx, demo, id)
		if err != nil || !strings.Contains(r.Policy, "works out no limit for class") {
			t.Fatalf("the request's policy words: %q, %v", r.Policy, err)
		}
		if err := app.Store.SaveLimitInputs(ctx, demo, "A-1", store.LimitInputs{MonthlySales: 10_000, MonthsAllowed: 2}); err != nil {
			t.Fatal(err)
		}
		postJSON(t, app, token, "/api/v1/limit-requests", map[string]any{"account": "A-1", "amount": "8,000", "reason": "Orders doubled"}).
			into(t, http.StatusCreated, &d)
		if d.Status != "approved" {
			t.Errorf("8,000 within a policy limit of 10,000: %+v", d)
		}
	})
}
