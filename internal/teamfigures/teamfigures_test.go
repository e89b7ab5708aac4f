package teamfigures

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"reflect"
	"sync"
	"testing"
	"time"

	"creditdash/internal/store"
	"creditdash/internal/store/storetest"
)

// team is the analysts' team; boss decides what ana asks.
var (
	team = store.Analyst{Service: "http://127.0.0.1:8081", User: "ana"}
	boss = store.Analyst{Service: team.Service, User: "bo"}
)

// clock moves a second a reading, so every write is dated apart.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(time.Second)
	return c.t
}

// eachEngine runs fn on a fresh database of each engine, opened by two
// stores as two replicas would.
func eachEngine(t *testing.T, fn func(t *testing.T, st, other *store.Store)) {
	for _, e := range []store.Engine{store.SQLite, store.Postgres} {
		t.Run(string(e), func(t *testing.T) {
			t.Parallel()
			c := &clock{t: time.Date(2026, 10, 1, 9, 0, 0, 0, time.UTC)}
			cfg := store.Config{Now: c.Now}
			if e == store.SQLite {
				cfg.DataDir = t.TempDir()
			} else {
				cfg.DatabaseURL = storetest.Database(t)
			}
			var sts [2]*store.Store
			for i := range sts {
				st, err := store.Open(context.Background(), cfg)
				if err != nil {
					t.Fatalf("Open(%s): %v", e, err)
				}
				t.Cleanup(func() { st.Close() })
				sts[i] = st
			}
			fn(t, sts[0], sts[1])
		})
	}
}

// accounts of the small team: A-00..A-11, the odd ones unlinked at first.
const accounts = 12

// ledger is a ledger of the team's accounts dated day, balances by seed;
// the even accounts are linked to businesses 1001..1006 (two each).
func ledger(seed int, day string) store.ImportSpec {
	lines := make([]store.LedgerLine, accounts)
	for i := range lines {
		bal := float64((i*7919+seed*104729)%200_000 + 500)
		erp := bal * 1.1
		lines[i] = store.LedgerLine{Account: fmt.Sprintf("A-%02d", i), Name: fmt.Sprintf("Customer %d", i), Balance: bal, Current: bal * 0.7,
			Days1to30: bal * 0.2, DaysOver90: bal * 0.1, ERPLimit: &erp}
		if i%2 == 0 {
			lines[i].BusinessID = int32(1001 + i/4)
		}
	}
	asOf, _ := time.Parse(store.DateLayout, day)
	return store.ImportSpec{AsOf: asOf, Lines: lines}
}

// TestUpdatedAgreesWithWhole makes random sequences of the team's writes
// and, after each, checks that the figures brought forward from the set
// before it (only the touched accounts worked out again) are those worked
// out whole; it also checks that the single-account writes were brought
// forward, not worked out whole, so the test fails if the log says nothing,
// or says nothing of another replica's writes.
func TestUpdatedAgreesWithWhole(t *testing.T) {
	eachEngine(t, func(t *testing.T, st, other *store.Store) {
		ctx := t.Context()
		// Each write is made on either store (replica); st keeps the
		// figures, so half the writes are another replica's.
		on := st
		if _, err := on.ImportLedger(ctx, team, ledger(1, "2026-09-30")); err != nil {
			t.Fatal(err)
		}
		rng := rand.New(rand.NewPCG(47, 2))
		acct := func() string { return fmt.Sprintf("A-%02d", rng.IntN(accounts)) }
		business := func() int32 { return int32(1001 + rng.IntN(8)) } // 1007, 1008: linked by hand only
		var defaults, pending []int64
		writes := []struct {
			name string
			// whole is a write that touches every account.
			whole bool
			do    func() error
		}{
			{"owner", false, func() error {
				_, err := on.AssignOwner(ctx, team, []string{acct(), acct()}, []string{"ana", "bo", "cy"}[rng.IntN(3)], "rotation")
				return err
			}},
			{"inputs", false, func() error {
				in := store.LimitInputs{MonthlySales: float64(rng.IntN(90_000) + 1000), MonthsAllowed: 1 + float64(rng.IntN(3)), LossBudget: 5000}
				if rng.IntN(2) == 0 {
					cap := float64(rng.IntN(50_000))
					in.SheetCap = &cap
				}
				return on.SaveLimitInputs(ctx, team, acct(), in)
			}},
			{"limit at once", false, func() error {
				_, err := on.RequestLimit(ctx, team, store.RequestSpec{Account: acct(), Amount: float64(rng.IntN(100_000) + 1), Reason: "trade grew", Authority: 1e6})
				return err
			}},
			{"limit asked", false, func() error {
				r, err := on.RequestLimit(ctx, team, store.RequestSpec{Account: acct(), Amount: float64(rng.IntN(100_000) + 1), Reason: "asked", Authority: 0})
				pending = append(pending, r.ID)
				return err
			}},
			{"limit decided", false, func() error {
				if len(pending) == 0 {
					return nil
				}
				id := pending[0]
				pending = pending[1:]
				_, err := on.Decide(ctx, boss, id, []store.Outcome{store.Approve, store.Decline}[rng.IntN(2)], "seen")
				return err
			}},
			{"review", false, func() error {
				_, err := on.RecordReview(ctx, team, store.Review{Account: acct(), Outcome: store.ReviewOutcomes[rng.IntN(4)], Note: "looked"})
				return err
			}},
			{"link", false, func() error {
				err := on.LinkAccountByHand(ctx, team, fmt.Sprintf("A-%02d", 1+2*rng.IntN(accounts/2)), business(), "Found Ltd")
				if errors.Is(err, store.ErrAlreadyLinked) {
					return nil
				}
				return err
			}},
			{"scores", false, func() error {
				risk := float64(1 + rng.IntN(10))
				now := time.Now()
				_, err := on.RecordScores(ctx, team, store.Observation{BusinessID: business(), Fetched: now,
					Risk:   []store.ScoreMonth{{Month: 202609, Value: risk}},
					Latest: map[store.Score]store.KnownScore{store.ScoreRisk: {Value: risk, Month: 202609 + rng.IntN(3), Fetched: now}, store.ScoreZ: {Value: float64(rng.IntN(6)) - 1, Month: 202609, Fetched: now}}})
				return err
			}},
			{"default", false, func() error {
				b := business()
				_, err := on.RecordDefaults(ctx, team, []store.Default{{BusinessID: b, Kind: "Chapter 11 filing", Title: "Files", URL: "https://news.example/x",
					Published: time.Now().Add(time.Duration(rng.IntN(1000)) * time.Hour), Source: "Folder news", SourceURL: "/portfolio"}})
				if err != nil {
					return err
				}
				ds, err := on.Defaults(ctx, team)
				for _, d := range ds {
					if d.Cleared == nil {
						defaults = append(defaults, d.ID)
					}
				}
				return err
			}},
			{"default cleared", false, func() error {
				if len(defaults) == 0 {
					return nil
				}
				i := rng.IntN(len(defaults))
				id := defaults[i]
				defaults = append(defaults[:i], defaults[i+1:]...)
				_, err := on.ClearDefault(ctx, boss, id, "dismissed")
				if errors.Is(err, store.ErrNotFound) {
					return nil // cleared before, or seen twice
				}
				return err
			}},
			{"no account", false, func() error { return on.SetSupplierCategory(ctx, team, []string{"36", "5045"}[rng.IntN(2)]) }},
			{"import", true, func() error {
				_, err := on.ImportLedger(ctx, team, ledger(rng.IntN(50), "2026-10-31"))
				return err
			}},
			{"lgd", true, func() error { return on.SetLGD(ctx, team, float64(rng.IntN(100)+1)/100) }},
		}
		known := func() Known {
			k, err := st.KnownScores(ctx, team)
			if err != nil {
				t.Fatal(err)
			}
			return k
		}
		// The team's version now: each store knows its own writes at once
		// and hears of the other's a moment later, so the larger of the
		// two is that of the last write.
		version := func() int64 {
			var v int64
			for _, s := range []*store.Store{st, other} {
				sv, err := s.TeamVersion(ctx, team)
				if err != nil {
					t.Fatal(err)
				}
				v = max(v, sv)
			}
			return v
		}
		kept, err := Whole(ctx, st, team, "", version(), known())
		if err != nil {
			t.Fatal(err)
		}
		updates := 0
		seen := map[int64]*Set{kept.Version: kept}
		for step := range 120 {
			// Mostly one write between pages, sometimes several.
			var names []string
			whole := false
			for range 1 + rng.IntN(3)*rng.IntN(2) {
				w := writes[rng.IntN(len(writes))]
				on = []*store.Store{st, other}[rng.IntN(2)]
				if w.whole && rng.IntN(4) != 0 {
					w = writes[0] // keep whole writes rare
				}
				if err := w.do(); err != nil {
					t.Fatalf("step %d, %s: %v", step, w.name, err)
				}
				names = append(names, w.name)
				whole = whole || w.whole
			}
			v := version()
			next, updated, err := Next(ctx, st, team, kept, v, known())
			if err != nil {
				t.Fatal(err)
			}
			want, err := Whole(ctx, st, team, "", v, known())
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(next.Figs, want.Figs) {
				for i := range min(len(next.Figs), len(want.Figs)) {
					if !reflect.DeepEqual(next.Figs[i], want.Figs[i]) {
						t.Fatalf("step %d after %v: account %s brought forward\n%+v\nworked out whole\n%+v", step, names, want.Figs[i].Account.Account, next.Figs[i], want.Figs[i])
					}
				}
				t.Fatalf("step %d after %v: %d accounts brought forward, %d worked out whole", step, names, len(next.Figs), len(want.Figs))
			}
			if next.Bytes != want.Bytes {
				t.Errorf("step %d after %v: brought forward weighs %d, worked out whole %d", step, names, next.Bytes, want.Bytes)
			}
			if updated == whole {
				t.Errorf("step %d after %v: brought forward %t, want %t", step, names, updated, !whole)
			}
			if updated {
				updates++
			}
			// What the bridge reads has not moved since Lines.
			seen[v] = want
			if then, ok := seen[next.Lines]; !ok || !reflect.DeepEqual(lines(then), lines(next)) {
				t.Errorf("step %d after %v: the bridge's lines said unchanged since %d, but they moved (known then: %t)", step, names, next.Lines, ok)
			}
			kept = next
		}
		if updates < 60 {
			t.Errorf("only %d of 120 steps brought forward", updates)
		}
	})
}

// lines are what the exposure's bridge reads of a set.
func lines(s *Set) []string {
	out := make([]string, len(s.Figs))
	for i, f := range s.Figs {
		out[i] = fmt.Sprintf("%s|%s|%d|%v", f.Account.Account, f.Name, f.BusinessID, f.Balance)
	}
	return out
}
