package handlers

import (
	"cmp"
	"fmt"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"creditdash/internal/credit"
	"creditdash/internal/views"
)

// TestReviewListsPickPages: each list of /reviews, paged out of the kept
// schedule without copying it, shows the same accounts, in the same order
// and totals, as filtering the whole schedule a list at a time, on every
// page and past the last (the overdue, week and upcoming runs meeting at
// today's and next week's midnight, limits unchanged for a year or not,
// or without a limit).
func TestReviewListsPickPages(t *testing.T) {
	now := time.Date(2026, 11, 27, 15, 30, 0, 0, time.UTC)
	today := time.Date(2026, 11, 27, 0, 0, 0, 0, time.UTC)
	figs := make([]credit.Figures, 260)
	all := make([]scheduled, len(figs))
	for i := range figs {
		figs[i].Account.Account = fmt.Sprintf("A-%03d", (i*37)%len(figs))
		if i%5 != 0 {
			limit := 1000.0
			figs[i].Account.Limit = &limit
		}
		s := scheduled{f: &figs[i], next: today.AddDate(0, 0, i%23-8)}
		if i%11 == 0 {
			s.next = today // on the line between overdue and this week
		}
		switch i % 4 {
		case 1:
			s.changed = now.AddDate(-1, 0, -1-i%30)
		case 2:
			s.changed = now.AddDate(0, -3, 0)
		case 3:
			s.changed = now.AddDate(-1, 0, 0) // a year to the minute: not before it
		}
		all[i] = s
	}
	slices.SortFunc(all, func(a, b scheduled) int {
		return cmp.Or(a.next.Compare(b.next), strings.Compare(a.f.Account.Account, b.f.Account.Account))
	})
	week, yearAgo := today.AddDate(0, 0, 7), now.AddDate(-1, 0, 0)
	want := map[string][]string{}
	for _, s := range all {
		switch {
		case s.next.Before(today):
			want["overdue"] = append(want["overdue"], s.f.Account.Account)
		case s.next.Before(week):
			want["week"] = append(want["week"], s.f.Account.Account)
		default:
			want["upcoming"] = append(want["upcoming"], s.f.Account.Account)
		}
		if !s.changed.IsZero() && s.changed.Before(yearAgo) && s.f.Account.Limit != nil {
			want["unchanged"] = append(want["unchanged"], s.f.Account.Account)
		}
	}
	for _, name := range reviewSections {
		if len(want[name]) <= reviewsPageSize {
			t.Fatalf("list %s has %d accounts: the test needs more than a page", name, len(want[name]))
		}
		last := (len(want[name]) + reviewsPageSize - 1) / reviewsPageSize
		for p := 1; p <= last+1; p++ {
			page := reviewLists(url.Values{name: {strconv.Itoa(p)}}, all, now)
			sec := map[string]views.ReviewSection{"overdue": page.Overdue, "week": page.Week,
				"upcoming": page.Upcoming, "unchanged": page.Unchanged}[name]
			var got []string
			for _, r := range sec.Rows {
				got = append(got, r.Account)
			}
			w := want[name][min((p-1)*reviewsPageSize, len(want[name])):min(p*reviewsPageSize, len(want[name]))]
			if !slices.Equal(got, w) || sec.Pager.Total != len(want[name]) {
				t.Errorf("%s page %d: %v of %d, want %v of %d", name, p, got, sec.Pager.Total, w, len(want[name]))
			}
		}
	}
}
