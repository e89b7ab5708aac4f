package views

import (
	"strings"
	"testing"

	"creditdash/internal/digest"
	"creditdash/internal/store"
)

// A customer's line names each account's balance, limit and owner as the
// accounts page does; an account the newest ledger does not list has no
// balance (not $0), a credit balance says what it is, and alerts past the
// bound are counted with a link rather than filed under either kind.
func TestDigestMarksCustomers(t *testing.T) {
	limit := 40000.0
	owes := store.Account{LedgerLine: store.LedgerLine{Account: "C-1", BusinessID: 1001, Owner: "sam", Balance: 46000}, Limit: &limit, AsOf: "2026-10-31"}
	credit := store.Account{LedgerLine: store.LedgerLine{Account: "C-2", BusinessID: 1001, Balance: -350}, AsOf: "2026-10-31"}
	gone := store.Account{LedgerLine: store.LedgerLine{Account: "C-3", BusinessID: 1001}}
	for acc, want := range map[*store.Account]string{
		&owes:   ", balance $46,000, limit $40,000, owner sam",
		&credit: ", balance -$350 (a credit balance: the team owes the customer), no limit in force, no owner",
		&gone:   ", no balance in the newest ledger, no limit in force, no owner",
	} {
		if got := AccountFacts(*acc); got != want {
			t.Errorf("AccountFacts(%s) = %q, want %q", acc.Account, got, want)
		}
	}
	al := func(id int32, name string) store.Alert {
		return store.Alert{Triggered: store.Triggered{BusinessID: id, BusinessName: name, Year: 2026, Month: 10, New: 2},
			Rule: store.RuleSpec{Scope: store.ScopeBusiness, BusinessID: id, Score: store.ScoreRisk, Condition: store.Below, Threshold: 3}}
	}
	c := digest.Content{Alerts: digest.Items[store.Alert]{List: []store.Alert{al(1001, "Westbridge"), al(1002, "Eastgate")}, More: 4},
		Customers: map[int32]digest.Customer{1001: {Accounts: []store.Account{owes, credit, gone}, More: 2}}}
	secs := digestAlerts(c, func(p string) string { return p })
	if len(secs) != 2 || len(secs[0].Lines) != 1 || len(secs[1].Lines) != 2 {
		t.Fatalf("sections %+v", secs)
	}
	if got := secs[0].Lines[0].Text; !strings.Contains(got, "Westbridge (1001)") || !strings.Contains(got, "account C-1, balance $46,000") ||
		!strings.Contains(got, "account C-3, no balance") || !strings.HasSuffix(got, "and 2 more accounts") {
		t.Errorf("the customer's line: %q", got)
	}
	if got := secs[1].Lines[0].Text; !strings.Contains(got, "Eastgate (1002)") || !strings.Contains(got, "no account in the team's record") {
		t.Errorf("the other business's line: %q", got)
	}
	if got := secs[1].Lines[1]; !strings.HasPrefix(got.Text, "and 4 more alerts") || got.URL != "/alerts" {
		t.Errorf("the alerts past the bound: %+v", got)
	}
}
