package handlers_test

import (
	"net/http"
	"strings"
	"testing"

	"creditdash/internal/apptest"
)

// TestWaitingRequestSaysWhy: a request above its requester's authority
// says so on its page, with the requester's role and authority and the
// managers whose authority covers it (never the requester); once decided
// it no longer waits. A refused request form links back to the report and
// the calculator.
func TestWaitingRequestSaysWhy(t *testing.T) {
	app := apptest.Start(t, apptest.Options{})
	dev := signInAccounts(t, app, "developer")
	importLedger(t, dev, "aging.csv", []byte(ledgerCSV), "2026-09-30")
	to := mustRedirect(t, "request", dev.post("/businesses/1001/limit-requests", "account", "A-1", "amount", "50000", "reason", "New contract"))
	want := "$50,000 is above the authority of its requester, developer (analyst, up to $10,000). A manager other than the requester decides it: demo (up to $250,000), secure (up to $1,000,000)."
	if got := dev.Get(to).Text("#waits"); got != want {
		t.Errorf("why it waits = %q, want %q", got, want)
	}
	big := mustRedirect(t, "request", dev.post("/businesses/1001/limit-requests", "account", "A-1", "amount", "400000", "reason", "Huge"))
	if got := dev.Get(big).Text("#waits"); !strings.Contains(got, "secure (up to $1,000,000).") || strings.Contains(got, "demo (") {
		t.Errorf("who may decide $400,000 = %q, want secure only", got)
	}
	mustRedirect(t, "withdraw", dev.post(big+"/withdraw"))
	if p := dev.Get(big); p.Doc.Find("#waits").Length() != 0 {
		t.Errorf("a withdrawn request still waits: %q", p.Text("#waits"))
	}

	bad := dev.post("/businesses/1001/limit-requests", "account", "A-1", "amount", "", "reason", "typed")
	if bad.Status != http.StatusUnprocessableEntity {
		t.Fatalf("a request without an amount: status %d", bad.Status)
	}
	var links []string
	for _, sel := range []string{`.request-back a[href="/businesses/1001"]`, `.request-back a[href="/businesses/1001/limit"]`} {
		if bad.Doc.Find(sel).Length() != 1 {
			links = append(links, sel)
		}
	}
	if len(links) > 0 {
		t.Errorf("the refused request's page lacks %v", links)
	}
}
