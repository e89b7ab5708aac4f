package store

import (
	"fmt"
	"testing"
)

// TestAccountsPageWalksEveryAccountOnce: following the cursor reads each
// account once, in number order; filters keep what they say.
func TestAccountsPageWalksEveryAccountOnce(t *testing.T) {
	eachEngine(t, func(t *testing.T, s *Store) {
		ctx := t.Context()
		var lines []LedgerLine
		for i := range 25 {
			l := line(fmt.Sprintf("C-%03d", i), int32(1000+i%3), float64(100*(i+1)))
			if i%3 == 0 {
				l.BusinessID = 0
			}
			if i%5 == 0 {
				l.Current, l.DaysOver90 = l.Balance-50, 50
			}
			if i == 7 {
				l.Name, l.Owner = "Percent 100% Widgets_Co", "bob"
			}
			lines = append(lines, l)
		}
		_, err := s.ImportLedger(ctx, alice, ImportSpec{AsOf: date("2026-10-31"), File: "a.csv", Lines: lines})
		must(t, err)
		_, err = s.RequestLimit(ctx, alice, RequestSpec{Account: "C-004", Amount: 100, Reason: "below its balance", Authority: 1e6})
		must(t, err)

		var seen []string
		after, pages := "", 0
		for {
			page, more, err := s.AccountsPage(ctx, bob, AccountFilter{}, after, 10)
			must(t, err)
			pages++
			for _, a := range page {
				seen = append(seen, a.Account)
			}
			if !more {
				break
			}
			after = page[len(page)-1].Account
		}
		if pages != 3 || len(seen) != 25 || seen[0] != "C-000" || seen[24] != "C-024" {
			t.Fatalf("%d pages, accounts %v", pages, seen)
		}
		for i := 1; i < len(seen); i++ {
			if seen[i] <= seen[i-1] {
				t.Fatalf("out of order at %d: %v", i, seen)
			}
		}
		count := func(f AccountFilter) []string {
			page, _, err := s.AccountsPage(ctx, alice, f, "", MaxPage)
			must(t, err)
			var out []string
			for _, a := range page {
				out = append(out, a.Account)
			}
			return out
		}
		for _, c := range []struct {
			name string
			f    AccountFilter
			want int
		}{
			{"not linked", AccountFilter{Linked: "false"}, 9},
			{"linked", AccountFilter{Linked: "true"}, 16},
			{"business", AccountFilter{Business: 1001}, 8},
			{"past due", AccountFilter{PastDue: true}, 5},
			{"over limit", AccountFilter{OverLimit: true}, 1},
			{"owner", AccountFilter{Owner: "bob"}, 1},
			{"query name", AccountFilter{Query: "100% widgets_"}, 1},
			{"query wildcard taken literally", AccountFilter{Query: "_"}, 1},
			{"query number", AccountFilter{Query: "c-01"}, 10},
		} {
			if got := count(c.f); len(got) != c.want {
				t.Errorf("%s: %v, want %d accounts", c.name, got, c.want)
			}
		}
		if _, err := s.Account(ctx, alice, "C-404"); err != ErrNotFound {
			t.Errorf("no such account: %v", err)
		}
		one, err := s.Account(ctx, bob, "C-004")
		must(t, err)
		if one.Limit == nil || *one.Limit != 100 || one.Balance != 500 || one.AsOf != "2026-10-31" {
			t.Errorf("account C-004 = %+v", one)
		}
		if _, err := s.Account(ctx, aliceElse, "C-004"); err != ErrNotFound {
			t.Errorf("another team's account: %v", err)
		}
	})
}

// TestRequestsPageWalksNewestFirst: the cursor pages through a team's
// requests newest first, each once; filters keep what they say.
func TestRequestsPageWalksNewestFirst(t *testing.T) {
	eachEngine(t, func(t *testing.T, s *Store) {
		ctx := t.Context()
		withAccounts(t, s)
		for i := range 4 {
			_, err := s.RequestLimit(ctx, alice, RequestSpec{Account: "A-2", Amount: float64(1000 * (i + 1)), Reason: "more", Authority: 2500})
			must(t, err)
		}
		var seen []LimitRequest
		var cur RequestCursor
		for {
			page, more, err := s.RequestsPage(ctx, bob, RequestFilter{}, cur, 2)
			must(t, err)
			seen = append(seen, page...)
			if !more {
				break
			}
			last := page[len(page)-1]
			cur = RequestCursor{At: last.RequestedAt.UnixMicro(), ID: last.ID}
		}
		if len(seen) != 5 || seen[0].Amount != 4000 || seen[4].Account != "A-1" {
			t.Fatalf("requests %+v", seen)
		}
		pending, _, err := s.RequestsPage(ctx, alice, RequestFilter{Account: "A-2", Status: StatusPending}, RequestCursor{}, MaxPage)
		must(t, err)
		if len(pending) != 2 {
			t.Errorf("%d pending requests of A-2, want 2", len(pending))
		}
		other, _, err := s.RequestsPage(ctx, aliceElse, RequestFilter{}, RequestCursor{}, MaxPage)
		must(t, err)
		if len(other) != 0 {
			t.Errorf("another team sees %d requests", len(other))
		}
	})
}
