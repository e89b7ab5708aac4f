package store

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"
)

// carol is a third member of alice's team.
var carol = Analyst{Service: alice.Service, User: "carol"}

// limitOf is the account's limit in force.
func limitOf(t *testing.T, s *Store, account string) float64 {
	t.Helper()
	list, err := s.Accounts(t.Context(), alice, "")
	must(t, err)
	for _, a := range list {
		if a.Account == account && a.Limit != nil {
			return *a.Limit
		}
	}
	t.Fatalf("account %s has no limit", account)
	return 0
}

// withAccounts imports for alice's team (3 entries: the
// import and the two accounts) and gives A-1 a limit of 2,000 approved
// within alice's authority (3 more: request, approval, limit).
func withAccounts(t *testing.T, s *Store) {
	t.Helper()
	_, err := s.ImportLedger(t.Context(), alice, ImportSpec{AsOf: date("2026-10-31"), File: "oct.csv",
		Lines: []LedgerLine{line("A-1", 1001, 1000), line("A-2", 0, 500)}})
	must(t, err)
	_, err = s.RequestLimit(t.Context(), opener, RequestSpec{Account: "A-1", Amount: 2000, Reason: "opening limit", Authority: 1e6})
	must(t, err)
}

// opener is the member of alice's team who set A-1's first limit.
var opener = Analyst{Service: alice.Service, User: "opener"}

// setUpEntries is how many entries withAccounts logs.
const setUpEntries = 6

// TestRequestWithinAuthorityIsApprovedAtOnce: the limit is set, the
// request, approval and limit are logged, the evidence kept.
func TestRequestWithinAuthorityIsApprovedAtOnce(t *testing.T) {
	eachEngine(t, func(t *testing.T, s *Store) {
		withAccounts(t, s)
		r, err := s.RequestLimit(t.Context(), bob, RequestSpec{Account: "A-1", Amount: 5000, Reason: " more trade ", Authority: 10000,
			Calculator: "Trade cap: 121,000", Evidence: []Evidence{{Tab: "overview", Fetched: time.Unix(1700000000, 0), Data: []byte(`{"a":1}`)}}})
		must(t, err)
		if r.Status != StatusApproved || r.DecidedBy != "bob" || *r.OldLimit != 2000 || r.Reason != "more trade" || r.BusinessID != 1001 {
			t.Fatalf("request = %+v", r)
		}
		if got := limitOf(t, s, "A-1"); got != 5000 {
			t.Errorf("limit = %v, want 5000", got)
		}
		back, err := s.Request(t.Context(), carol, r.ID)
		must(t, err)
		if back.Status != StatusApproved || len(back.Evidence) != 1 || back.Evidence[0].Tab != "overview" || back.Calculator != "Trade cap: 121,000" {
			t.Errorf("read back = %+v", back)
		}
		e, err := s.RequestEvidence(t.Context(), carol, r.ID, "overview")
		must(t, err)
		if string(e.Data) != `{"a":1}` || !e.Fetched.Equal(time.Unix(1700000000, 0)) {
			t.Errorf("evidence = %+v", e)
		}
		_, err = s.RequestEvidence(t.Context(), aliceElse, r.ID, "overview")
		wantErr(t, "another team's evidence", err, ErrNotFound)
		_, err = s.Request(t.Context(), aliceElse, r.ID)
		wantErr(t, "another team's request", err, ErrNotFound)
		var actions []string
		for _, e := range auditOf(t, s, alice.Service, "")[setUpEntries:] {
			actions = append(actions, e.Action+":"+e.OldValue+">"+e.NewValue)
		}
		if strings.Join(actions, " ") != "limit-request:2000>5000 approve:>5000 limit:2000>5000" {
			t.Errorf("logged %v", actions)
		}
	})
}

// TestRequestRefusals: no such account (another team's included), a
// missing or long reason, a bad amount, and the bound on pending requests.
func TestRequestRefusals(t *testing.T) {
	eachEngine(t, func(t *testing.T, s *Store) {
		withAccounts(t, s)
		ctx := t.Context()
		_, err := s.RequestLimit(ctx, aliceElse, RequestSpec{Account: "A-1", Amount: 1, Reason: "x"})
		wantErr(t, "another team's account", err, ErrNotFound)
		_, err = s.RequestLimit(ctx, alice, RequestSpec{Account: "A-1", Amount: 1, Reason: "  "})
		wantInvalid(t, "no reason", err, "reason")
		_, err = s.RequestLimit(ctx, alice, RequestSpec{Account: "A-1", Amount: 1, Reason: strings.Repeat("é", MaxRequestReasonLen+1)})
		wantInvalid(t, "a long reason", err, "reason")
		_, err = s.RequestLimit(ctx, alice, RequestSpec{Account: "A-1", Amount: -1, Reason: "x"})
		wantInvalid(t, "a negative amount", err, "amount")
		for range MaxPendingRequests {
			_, err := s.w.ExecContext(ctx, `INSERT INTO limit_requests (id, service, account, business_id, amount, reason, calculator,
				requested_by, requested_at, authority, status, decided_by, decided_at, decision_note)
				VALUES ($1, $2, 'A-1', 0, 1, 'r', '', 'bob', 1, 0, 'pending', '', 0, '')`, newID(), alice.Service)
			must(t, err)
		}
		_, err = s.RequestLimit(ctx, alice, RequestSpec{Account: "A-1", Amount: 1, Reason: "x"})
		wantErr(t, "past the bound", err, ErrRequestsFull)
		if v, _ := s.VerifyAudit(ctx, alice.Service); v.Entries != setUpEntries {
			t.Errorf("refusals logged %d entries beyond the set-up's", v.Entries-setUpEntries)
		}
	})
}

// TestDecideFourEyes: above authority a request waits; its requester can
// neither approve nor decline it but may withdraw it; a decline needs a
// note; another approves and the limit is set with old and new logged.
func TestDecideFourEyes(t *testing.T) {
	eachEngine(t, func(t *testing.T, s *Store) {
		withAccounts(t, s)
		ctx := t.Context()
		r, err := s.RequestLimit(ctx, bob, RequestSpec{Account: "A-1", Amount: 50000, Reason: "growth", Authority: 10000})
		must(t, err)
		if r.Status != StatusPending || limitOf(t, s, "A-1") != 2000 {
			t.Fatalf("above authority: %+v", r)
		}
		_, err = s.Decide(ctx, bob, r.ID, Approve, "")
		wantInvalid(t, "approving one's own", err, "decider")
		_, err = s.Decide(ctx, alice, r.ID, Withdraw, "")
		wantInvalid(t, "withdrawing another's", err, "decider")
		_, err = s.Decide(ctx, alice, r.ID, Decline, "")
		wantInvalid(t, "a decline without a note", err, "note")
		_, err = s.Decide(ctx, aliceElse, r.ID, Approve, "")
		wantErr(t, "another team's", err, ErrNotFound)
		got, err := s.Decide(ctx, alice, r.ID, Approve, "")
		must(t, err)
		if got.Status != StatusApproved || got.DecidedBy != "alice" || limitOf(t, s, "A-1") != 50000 {
			t.Fatalf("approved: %+v", got)
		}
		es := auditOf(t, s, alice.Service, AuditActionLimit)
		if last := es[len(es)-1]; last.OldValue != "2000" || last.NewValue != "50000" || last.Actor != "alice" {
			t.Errorf("limit logged as %+v", last)
		}
		_, err = s.Decide(ctx, carol, r.ID, Decline, "too late")
		var decided *ErrDecided
		if !errors.As(err, &decided) || decided.Request.DecidedBy != "alice" || decided.Request.Status != StatusApproved {
			t.Errorf("deciding again: %v", err)
		}

		w, err := s.RequestLimit(ctx, bob, RequestSpec{Account: "A-2", Amount: 90000, Reason: "x", Authority: 0})
		must(t, err)
		w, err = s.Decide(ctx, bob, w.ID, Withdraw, "")
		must(t, err)
		if w.Status != StatusWithdrawn {
			t.Errorf("withdrawn: %+v", w)
		}
		if v, _ := s.VerifyAudit(ctx, alice.Service); !v.Intact {
			t.Errorf("chain broken: %+v", v)
		}
	})
}

// TestDecideRace: two managers on two stores (two pools on PostgreSQL)
// approve and decline the same request at once, many times over: exactly
// one wins each time, the other reads who did, and the chain holds.
func TestDecideRace(t *testing.T) {
	for _, e := range engines {
		t.Run(string(e), func(t *testing.T) {
			stores := replicas(t, e)
			withAccounts(t, stores[0])
			for round := range 10 {
				r, err := stores[0].RequestLimit(t.Context(), bob, RequestSpec{Account: "A-1", Amount: float64(20000 + round), Reason: "race", Authority: 0})
				must(t, err)
				var wg sync.WaitGroup
				errs := make([]error, 2)
				for i, who := range []Analyst{alice, carol} {
					wg.Go(func() {
						o, note := Approve, ""
						if i == 1 {
							o, note = Decline, "no"
						}
						_, errs[i] = stores[i%len(stores)].Decide(context.Background(), who, r.ID, o, note)
					})
				}
				wg.Wait()
				var decided *ErrDecided
				wins := 0
				for _, err := range errs {
					switch {
					case err == nil:
						wins++
					case errors.As(err, &decided):
						if decided.Request.Status == StatusPending {
							t.Errorf("the loser read a pending request")
						}
					default:
						t.Fatalf("round %d: %v", round, err)
					}
				}
				if wins != 1 {
					t.Fatalf("round %d: %d winners (%v)", round, wins, errs)
				}
			}
			v, err := stores[0].VerifyAudit(t.Context(), alice.Service)
			must(t, err)
			if !v.Intact {
				t.Errorf("chain: %+v", v)
			}
		})
	}
}

// TestRequestLists: waiting for a decider is others' pending requests
// within their authority; mine are one's own; recent the decided ones.
func TestRequestLists(t *testing.T) {
	eachEngine(t, func(t *testing.T, s *Store) {
		withAccounts(t, s)
		ctx := t.Context()
		small, err := s.RequestLimit(ctx, bob, RequestSpec{Account: "A-1", Amount: 5000, Reason: "a", Authority: 0})
		must(t, err)
		_, err = s.RequestLimit(ctx, bob, RequestSpec{Account: "A-2", Amount: 500000, Reason: "b", Authority: 0})
		must(t, err)
		_, err = s.RequestLimit(ctx, alice, RequestSpec{Account: "A-2", Amount: 10, Reason: "c", Authority: 0})
		must(t, err)
		n, err := s.CountWaiting(ctx, alice, 10000)
		must(t, err)
		if n != 1 {
			t.Errorf("waiting for alice: %d, want bob's 5,000 only", n)
		}
		_, err = s.Decide(ctx, alice, small.ID, Approve, "")
		must(t, err)
		l, err := s.Requests(ctx, alice, 1e6)
		must(t, err)
		if len(l.Waiting) != 1 || l.Waiting[0].Amount != 500000 || len(l.Mine) != 1 || l.Mine[0].Reason != "c" ||
			len(l.Recent) != 2 || l.Recent[0].ID != small.ID || l.Recent[1].RequestedBy != "opener" {
			t.Errorf("lists = %+v", l)
		}
		if l, _ := s.Requests(ctx, aliceElse, 1e6); len(l.Waiting)+len(l.Mine)+len(l.Recent) != 0 {
			t.Errorf("another team sees %+v", l)
		}
	})
}
