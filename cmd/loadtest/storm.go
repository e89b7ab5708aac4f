package main

import (
	"context"
	"fmt"
	"net/http"
	"time"
)

// loginPath is the service's sign-in, which the stand-in counts as a call.
const loginPath = "/v1/Users/Login"

// Figure 3's targets: the Ordinary user's hourly quota, and no raw 429.
const ordinaryQuota = 10

// ordinaryStorm measures figure 3: the Ordinary user signed in
// opts.sessions times at once, every session hammering reports, scores and
// exports for opts.storm, against a new dashboard and a stand-in whose
// quota windows were just reset.
func (l *lab) ordinaryStorm(ctx context.Context) {
	const fig, what = 3, "Ordinary storm"
	o := l.opts
	err := l.withDashboard(ctx, "web-storm", func(web *dashboard) error {
		if err := l.sim.Reset(ctx); err != nil {
			return err
		}
		users := make([]string, o.sessions)
		for i := range users {
			users[i] = "ordinary"
		}
		// A few at a time: the sign-in throttle holds a code's place for
		// each sign-in of a name in flight, five at most.
		browsers, failed, firstErr := signInAll(ctx, web.URL, users, 4)
		if len(browsers) == 0 {
			return fmt.Errorf("loadtest: no Ordinary session signed in: %w", firstErr)
		}
		t, wall := closedLoop(ctx, browsers, stormMix, o.storm)
		for _, b := range browsers {
			b.close()
		}
		counts, err := l.sim.Requests(ctx)
		if err != nil {
			return err
		}
		calls, byPath := callsOf(counts, func(u string) bool { return u == "ordinary" })
		// Signing in spends no quota: the sign-ins are shown, not counted.
		logins := byPath[loginPath]
		calls -= logins
		delete(byPath, loginPath)
		l.rep.Check(fig, "Ordinary storm: service calls", fmt.Sprint(calls), fmt.Sprintf("<= %d (the quota)", ordinaryQuota), calls <= ordinaryQuota)
		raw := t.failures()[http.StatusTooManyRequests]
		l.rep.Check(fig, "Ordinary storm: raw 429 pages", fmt.Sprint(raw), "0", raw == 0)
		l.rep.Note(fig, "%d sign-ins at once (%d failed, %d service sign-ins), then %d requests in %v (%s); answers %s (%s); calls counted by the stand-in, refused ones included, sign-ins left out: %s",
			o.sessions, failed, logins, t.count(), wall.Round(time.Millisecond), mixText(t), statuses(t.byStatus), t.redirectText(), describe(byPath))
		if failed > 0 {
			l.rep.Note(fig, "first failed sign-in: %v", firstErr)
		}
		return nil
	})
	if err != nil {
		l.rep.Broken(fig, what, err)
	}
}
