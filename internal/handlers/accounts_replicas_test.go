package handlers_test

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"creditdash/internal/apptest"
	"creditdash/internal/store"
)

// twoReplicas starts two apps on one workspace database, as two replicas
// behind a balancer without sticky sessions.
func twoReplicas(t *testing.T, opts apptest.Options) (a, b *apptest.App) {
	t.Helper()
	if opts.DatabaseURL == "" {
		opts.DataDir = t.TempDir()
	}
	a = apptest.Start(t, opts)
	opts.SameService = a
	return a, apptest.Start(t, opts)
}

// TestImportConfirmedOnAnotherReplica: a file previewed on one replica is
// imported on the other, because the waiting file is in the store, not in
// the first replica's memory; once imported it is gone.
func TestImportConfirmedOnAnotherReplica(t *testing.T) {
	workspaceEngines(t, func(t *testing.T, opts apptest.Options) {
		a, b := twoReplicas(t, opts)
		u := signInAccounts(t, a, "demo")
		onB := &wsUser{User: u.On(b), t: t, token: u.token, appURL: b.URL}
		p := u.upload("aging.csv", []byte(ledgerCSV), "2026-09-30")
		if p.Status != http.StatusOK {
			t.Fatalf("preview on A: status = %d; %.500s", p.Status, p.Body)
		}
		to := mustRedirect(t, "import on B", onB.Submit(p, "form.import-confirm"))
		if page := onB.Get(to); !strings.Contains(page.Text(".flash"), "2 accounts imported, 1 row skipped") {
			t.Errorf("flash on B = %q", page.Text(".flash"))
		}
		if dates, err := a.Store.LedgerDates(t.Context(), team); err != nil || len(dates) != 1 {
			t.Fatalf("ledgers after the import on B: %v (%v)", dates, err)
		}
		if r := u.Submit(p, "form.import-confirm"); r.Status != http.StatusUnprocessableEntity ||
			!strings.Contains(r.Text("#file-error"), "no longer kept") {
			t.Errorf("the same preview confirmed again on A: status = %d, want 422 asking for the file again", r.Status)
		}
	})
}

// TestAccountsFollowWritesOnAnotherReplica: a replica keeps the team's
// figures, yet shows a change written through another replica at once:
// new scores (its figures brought forward, only the touched accounts
// worked out again), then a newer ledger.
func TestAccountsFollowWritesOnAnotherReplica(t *testing.T) {
	workspaceEngines(t, func(t *testing.T, opts apptest.Options) {
		a, b := twoReplicas(t, opts)
		u := signInAccounts(t, a, "demo")
		importLedger(t, u, "aging.csv", []byte(ledgerCSV), "2026-09-30")
		onB := u.On(b)
		row := func(what string) string {
			t.Helper()
			p := onB.Get("/accounts")
			if p.Status != http.StatusOK {
				t.Fatalf("%s: /accounts on B: status %d", what, p.Status)
			}
			return p.Text("table.accounts tbody tr:first-child")
		}
		if got := row("before"); !strings.Contains(got, "no score known yet") || !strings.Contains(got, "$1,500") {
			t.Fatalf("A-1 on B before any score = %q", got)
		}
		row("kept") // served from B's kept figures
		exposure := func(what string) {
			t.Helper()
			if p := onB.Get("/portfolio/exposure"); p.Status != http.StatusOK {
				t.Fatalf("%s: /portfolio/exposure on B: status %d", what, p.Status)
			}
		}
		exposure("before") // B keeps every account's figures
		before := b.Stats()
		// A report on A receives 1001's scores.
		fetched := time.Date(2026, 10, 5, 9, 0, 0, 0, time.UTC)
		if _, err := a.Store.RecordScores(t.Context(), team, store.Observation{BusinessID: 1001, Fetched: fetched,
			Latest: map[store.Score]store.KnownScore{store.ScoreRisk: {Value: 2, Month: 202609, Fetched: fetched}}}); err != nil {
			t.Fatal(err)
		}
		if got := onReplica(t, func() string { return row("after the scores") }, func(got string) bool {
			return !strings.Contains(got, "no score known yet") && strings.Contains(got, "2")
		}); got != "" {
			t.Errorf("A-1 on B after its scores arrived on A = %q, want its band", got)
		}
		// B reads what A's write touched from the store's log, so it
		// brings its figures forward rather than working them out whole.
		exposure("after the scores")
		if after := b.Stats(); after.TeamFiguresUpdated != before.TeamFiguresUpdated+1 || after.TeamFiguresWorkedOut != before.TeamFiguresWorkedOut {
			t.Errorf("B after A's write of one business's scores: brought forward %d times, worked out whole %d, want once and none",
				after.TeamFiguresUpdated-before.TeamFiguresUpdated, after.TeamFiguresWorkedOut-before.TeamFiguresWorkedOut)
		}
		newer := strings.Replace(ledgerCSV, "A-1;Westbridge;1001;1.500,00;1.000,00;500,00", "A-1;Westbridge;1001;2.500,00;2.000,00;500,00", 1)
		importLedger(t, u, "aging.csv", []byte(newer), "2026-10-31")
		if got := onReplica(t, func() string { return row("after a newer ledger") }, func(got string) bool {
			return strings.Contains(got, "$2,500")
		}); got != "" {
			t.Errorf("A-1 on B after a newer ledger on A = %q, want $2,500", got)
		}
	})
}

// replicaDelay bounds how long a write on one replica may take to show on
// another: on PostgreSQL the other hears of it by a notification, a moment
// after the commit (on SQLite the stores of one process share their book
// and it shows at once).
const replicaDelay = 2 * time.Second

// onReplica reads a page's text with get until ok accepts it, for at most
// replicaDelay; it returns "" when accepted, else the last text read.
func onReplica(t *testing.T, get func() string, ok func(string) bool) string {
	t.Helper()
	start := time.Now()
	for tries := 1; ; tries++ {
		got := get()
		if ok(got) {
			if tries > 1 {
				t.Logf("shown on the other replica after %v", time.Since(start).Round(time.Millisecond))
			}
			return ""
		}
		if time.Since(start) > replicaDelay {
			return got
		}
		time.Sleep(5 * time.Millisecond)
	}
}
