package handlers_test

import (
	"fmt"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"creditdash/internal/apptest"
)

// TestTeamDownloadsBoundedOthersServed: an analyst who asks for twenty
// downloads of the team's accounts at once gets one at a time; the others
// are told at once to wait (429 with Retry-After, saying why), and another
// analyst's pages answer 200 throughout, never 503.
func TestTeamDownloadsBoundedOthersServed(t *testing.T) {
	app := apptest.Start(t, apptest.Options{})
	flood := signInAccounts(t, app, "demo")
	other := signInAccounts(t, app, "developer")
	var ledger strings.Builder
	ledger.WriteString("account,business_id,balance\n")
	for i := range 3000 {
		fmt.Fprintf(&ledger, "A-%d,%d,%d\n", i, 1001+i%3, 100+i)
	}
	importLedger(t, flood, "big.csv", []byte(ledger.String()), "2026-09-30")

	start := make(chan struct{})
	var wg sync.WaitGroup
	pages := make([]*apptest.Page, 20)
	for i := range pages {
		wg.Go(func() {
			<-start
			pages[i] = flood.Get("/accounts.xlsx")
		})
	}
	close(start)
	for range 5 {
		for _, path := range []string{"/accounts", "/", "/worklist"} {
			if p := other.Get(path); p.Status != http.StatusOK {
				t.Errorf("another analyst's %s during the flood: %d, want 200", path, p.Status)
			}
		}
	}
	wg.Wait()
	served, waited := 0, 0
	for _, p := range pages {
		switch p.Status {
		case http.StatusOK:
			served++
		case http.StatusTooManyRequests:
			waited++
			if p.Header.Get("Retry-After") == "" || !strings.Contains(p.Text("main"), "Wait") {
				t.Errorf("a download past the bound: Retry-After %q, %q", p.Header.Get("Retry-After"), p.Text("main"))
			}
		default:
			t.Errorf("a download during the flood: %d, want 200 or 429", p.Status)
		}
	}
	if served == 0 || waited == 0 {
		t.Errorf("twenty downloads at once: %d served, %d told to wait; want both", served, waited)
	}
	if p := flood.Get("/accounts.xlsx"); p.Status != http.StatusOK {
		t.Errorf("a download once the others are done: %d", p.Status)
	}
}

// TestAuditVerifyFloodShared: fifty verifications at once share the one
// that runs, each answering its verdict, and another analyst's pages
// answer 200 throughout; fifty more of the unchanged log answer from the
// kept verdict, so the log is read through once in all (issue 47.2); an
// entry appended makes the next one read it again.
func TestAuditVerifyFloodShared(t *testing.T) {
	app := apptest.Start(t, apptest.Options{})
	flood := signInAccounts(t, app, "demo")
	other := signInAccounts(t, app, "developer")
	appendEntries(t, app, "alice", 200)
	start := make(chan struct{})
	var wg sync.WaitGroup
	pages := make([]*apptest.Page, 50)
	for i := range pages {
		wg.Go(func() {
			<-start
			pages[i] = flood.Get("/audit/verify")
		})
	}
	close(start)
	for range 5 {
		for _, path := range []string{"/audit", "/"} {
			if p := other.Get(path); p.Status != http.StatusOK {
				t.Errorf("another analyst's %s during the flood: %d, want 200", path, p.Status)
			}
		}
	}
	wg.Wait()
	for i, p := range pages {
		if p.Status != http.StatusOK || !strings.Contains(p.Text("main"), "Intact") {
			t.Errorf("verification %d: %d %.200q", i+1, p.Status, p.Text("main"))
		}
	}
	// Fifty more, after: the log has not changed, so none reads it again.
	for range 50 {
		if p := flood.Get("/audit/verify"); p.Status != http.StatusOK || !strings.Contains(p.Text("#verdict-kept"), "nothing has been appended since") {
			t.Fatalf("a verification of the unchanged log: %d %q", p.Status, p.Text("#verdict-kept"))
		}
	}
	if walks := app.Stats().AuditWalks; walks != 1 {
		t.Errorf("a hundred verifications of an unchanged log read it through %d times, want once", walks)
	}
	// An entry appended moves the head: the next verification reads it.
	appendEntries(t, app, "alice", 1)
	if p := flood.Get("/audit/verify"); !strings.Contains(p.Text(".verdict"), "Intact") || strings.Contains(p.Text("#verdict-kept"), "appended since") {
		t.Errorf("after an append: %q %q", p.Text(".verdict"), p.Text("#verdict-kept"))
	}
	if walks := app.Stats().AuditWalks; walks != 2 {
		t.Errorf("after an append: %d walks, want 2", walks)
	}
}

// TestTeamPagesOneAtATimePerAnalyst (issue 47.2): while one of an
// analyst's team pages is being prepared, the same analyst's next one
// waits in that analyst's own queue and, past the wait, is told to come
// back (429 with Retry-After, saying why); another analyst's team pages
// are served at once all the while, and the first analyst's are again
// once theirs is done.
func TestTeamPagesOneAtATimePerAnalyst(t *testing.T) {
	var armed atomic.Bool
	held, release := make(chan struct{}), make(chan struct{})
	app := apptest.Start(t, apptest.Options{PageTurnWait: 50 * time.Millisecond, TeamPageHold: func() {
		if armed.CompareAndSwap(true, false) {
			close(held)
			<-release
		}
	}})
	flood := signInAccounts(t, app, "demo")
	other := signInAccounts(t, app, "developer")
	armed.Store(true)
	first := make(chan *apptest.Page, 1)
	go func() { first <- flood.Get("/reviews") }()
	<-held
	p := flood.Get("/accounts")
	if p.Status != http.StatusTooManyRequests || p.Header.Get("Retry-After") == "" ||
		!strings.Contains(p.Text("main"), "one at a time for each analyst") {
		t.Errorf("the same analyst's second team page: %d, Retry-After %q, %.300q; want 429 saying why",
			p.Status, p.Header.Get("Retry-After"), p.Text("main"))
	}
	for _, path := range []string{"/accounts", "/reviews", "/worklist", "/portfolio/exposure", "/audit/verify"} {
		if p := other.Get(path); p.Status != http.StatusOK {
			t.Errorf("another analyst's %s meanwhile: %d, want 200", path, p.Status)
		}
	}
	close(release)
	if p := <-first; p.Status != http.StatusOK {
		t.Errorf("the held page: %d", p.Status)
	}
	if p := flood.Get("/accounts"); p.Status != http.StatusOK {
		t.Errorf("the analyst's team page once the first is done: %d", p.Status)
	}
}
