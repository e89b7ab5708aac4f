package views

import (
	"strings"
	"testing"
	"time"
)

// LookupsWhen names the way the code looks queued names up in each case:
// search not offered, limit unknown, none left (from when it renews),
// enough, or some now and the rest from the renewal.
func TestLookupsWhen(t *testing.T) {
	renews := time.Date(2026, 11, 29, 7, 14, 0, 0, time.UTC)
	for _, c := range []struct {
		q       LookupsQuota
		waiting int
		want    []string
	}{
		{LookupsQuota{}, 3, []string{"does not offer", "link the accounts by hand"}},
		{LookupsQuota{Offered: true}, 3, []string{"not known yet", "Look up the next 3"}},
		{LookupsQuota{Offered: true, Known: true, RenewsAt: renews}, 14, []string{"no requests left", "Nov 29, 2026 07:14", "Look up the next 10"}},
		{LookupsQuota{Offered: true, Known: true, Remaining: 50, RenewsAt: renews}, 14, []string{"50 requests left", "all 14 can be looked up now"}},
		{LookupsQuota{Offered: true, Known: true, Remaining: 4, RenewsAt: renews}, 14, []string{"up to 4 can be looked up now", "the rest from Nov 29, 2026 07:14"}},
	} {
		got := LookupsWhen(c.q, c.waiting)
		for _, w := range c.want {
			if !strings.Contains(got, w) {
				t.Errorf("LookupsWhen(%+v, %d) = %q, want it to say %q", c.q, c.waiting, got, w)
			}
		}
	}
}

// LookupsFlash says what a press did, and nothing for figures a hand-made
// query could hold that no press gives.
func TestLookupsFlash(t *testing.T) {
	if got := LookupsFlash(8, 3, 10); !strings.Contains(got, "8 names looked up: 3 linked") || !strings.Contains(got, "2 stay queued") {
		t.Errorf("LookupsFlash(8, 3, 10) = %q", got)
	}
	if got := LookupsFlash(1, 1, 1); strings.Contains(got, "stay queued") {
		t.Errorf("LookupsFlash(1, 1, 1) = %q, says some stay queued", got)
	}
	for _, c := range [][3]int{{3, 4, 10}, {11, 0, 11}, {5, 0, 4}, {1, -1, 1}} {
		if got := LookupsFlash(c[0], c[1], c[2]); got != "" {
			t.Errorf("LookupsFlash%v = %q, want nothing", c, got)
		}
	}
}
