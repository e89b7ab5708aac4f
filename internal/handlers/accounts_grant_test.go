package handlers_test

import (
	"testing"

	"creditdash/internal/apptest"
	"creditdash/internal/store"
)

// grantLimit gives the team's account a limit in force the only way one
// is given: a request approved, here within the authority of a set-up
// member of the team (3 audit entries: request, approval, limit).
func grantLimit(t *testing.T, app *apptest.App, account string, amount float64) {
	t.Helper()
	_, err := app.Store.RequestLimit(t.Context(), store.Analyst{Service: apptest.WorkspaceService, User: "setup"},
		store.RequestSpec{Account: account, Amount: amount, Reason: "test set-up", Authority: 1e12})
	if err != nil {
		t.Fatalf("grant %s a limit of %v: %v", account, amount, err)
	}
}

// grantERPLimit gives the account its newest ledger's ERP limit as its
// limit in force, so nothing differs.
func grantERPLimit(t *testing.T, app *apptest.App, account string) {
	t.Helper()
	list, err := app.Store.Accounts(t.Context(), store.Analyst{Service: apptest.WorkspaceService, User: "setup"}, "")
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range list {
		if a.Account == account && a.ERPLimit != nil {
			grantLimit(t, app, account, *a.ERPLimit)
			return
		}
	}
	t.Fatalf("account %s has no ERP limit", account)
}
