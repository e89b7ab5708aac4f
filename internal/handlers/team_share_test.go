package handlers_test

import (
	"fmt"
	"net/http"
	"runtime"
	"testing"
	"time"

	"creditdash/internal/apptest"
	"creditdash/internal/store"
	"creditdash/internal/upstream/cache"
)

// heapNow is the heap's live bytes after a full collection.
func heapNow() uint64 {
	var m runtime.MemStats
	runtime.GC()
	runtime.GC()
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}

// TestTeamFiguresKeptAtTheirWeight (issue 47.2): the team's figures are
// kept in a share of their own, weighed at about what they hold on the
// heap, and stay kept however full the caches of the service's answers
// run: the next page sorts them instead of working them out again.
func TestTeamFiguresKeptAtTheirWeight(t *testing.T) {
	// The answers' cache far too small for what the pages below read, so
	// it is full and evicting all along.
	app := apptest.Start(t, apptest.Options{Cache: cache.Options{MaxBytes: 64 << 10}})
	u := app.SignIn(t, "demo")
	const path = "/accounts?sort=risk" // a sort by score reads the kept figures
	if p := u.Get(path); p.Status != http.StatusOK {
		t.Fatalf("GET %s: %d", path, p.Status) // all but the figures warmed up
	}
	const n = 20_000
	lines := make([]store.LedgerLine, n)
	for i := range lines {
		bal := float64(i*7919%2_000_000 + 5000)
		limit := bal * 1.2
		// Linked to no business, so the reports below learn nothing
		// of the team's accounts and leave its version as it is.
		lines[i] = store.LedgerLine{Account: fmt.Sprintf("C%06d", i), Name: fmt.Sprintf("Customer %d Inc", i),
			Balance: bal, Current: bal, ERPLimit: &limit}
	}
	asOf, _ := time.Parse(store.DateLayout, "2026-09-30")
	if _, err := app.Store.ImportLedger(t.Context(), team, store.ImportSpec{AsOf: asOf, Lines: lines}); err != nil {
		t.Fatal(err)
	}
	before, worked := heapNow(), app.Stats().TeamFiguresWorkedOut
	if p := u.Get(path); p.Status != http.StatusOK {
		t.Fatalf("GET %s: %d", path, p.Status)
	}
	grown, weight := float64(heapNow())-float64(before), float64(app.Stats().TeamCacheBytes)
	t.Logf("%d accounts: kept figures weighed at %.1f MB, the heap grew %.1f MB", n, weight/1e6, grown/1e6)
	if weight < 0.7*grown || weight > 1.5*grown {
		t.Errorf("the team's kept results weigh %.0f bytes, the heap grew %.0f: not counted at their real size", weight, grown)
	}
	if got := app.Stats().TeamFiguresWorkedOut; got != worked+1 {
		t.Fatalf("figures worked out %d times for one page", got-worked)
	}
	// Reports of 30 businesses fill the answers' cache many times over.
	version, err := app.Store.TeamVersion(t.Context(), team)
	if err != nil {
		t.Fatal(err)
	}
	for id := 1001; id < 1031; id++ {
		u.Get(fmt.Sprintf("/businesses/%d", id))
	}
	if v, _ := app.Store.TeamVersion(t.Context(), team); v != version {
		t.Fatalf("the reports moved the team's version %d to %d", version, v)
	}
	if p := u.Get(path); p.Status != http.StatusOK || app.Stats().TeamFiguresWorkedOut != worked+1 {
		t.Errorf("after the reports: %d, figures worked out %d times (want once)", p.Status, app.Stats().TeamFiguresWorkedOut-worked)
	}
}
