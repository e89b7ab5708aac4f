package main

import (
	"cmp"
	"context"
	"fmt"
	"os"
	"runtime"
	"strings"
	"sync"
	"time"

	"creditdash/internal/figures"
)

// Figure 1's targets: no failed page, and resident memory within 128 MiB
// at the peak and after the entries expired: the heap's budget (CACHE_MB,
// 84 MiB by default, the caches and the collector's room) plus 44 MiB of
// code, stacks and SQLite's page caches. Until 2026-11-27 the budget was 64
// MiB of caches alone, the collector's 20 MiB on top, and the same 128.
const memTarget = (84 + 44) << 20

// perWorker bounds every closed loop in count as its duration bounds it in
// time: far above what a worker can do in a minute at 50 ms a call.
const perWorker = 100_000

// requestTimeout is the longest one page may take before it counts as no
// answer.
const requestTimeout = 30 * time.Second

// cpuPerCallTarget bounds the dashboard's CPU per page view as a multiple
// of the stand-in's per service call: a page should cost about what
// answering one of its calls does (issue 25).
const cpuPerCallTarget = 2

// analystsRun is what figure 2 needs from figure 1.
type analystsRun struct {
	pages int
	wall  time.Duration
	plan  [numKinds]map[string]int // service calls of each page kind, cold
	// The CPU the other two processes spent: the load tool per page view,
	// the stand-in per service call.
	toolPerPage, standInPerCall time.Duration
}

func (r *analystsRun) rate() float64 { return float64(r.pages) / r.wall.Seconds() }

// analystsLoad measures figure 1: opts.analysts distinct users in a closed
// loop on the analyst mix for opts.duration, against a new dashboard.
func (l *lab) analystsLoad(ctx context.Context) *analystsRun {
	const fig, what = 1, "analysts"
	o := l.opts
	var out *analystsRun
	err := l.withDashboard(ctx, "web-analysts", func(web *dashboard) error {
		plan, err := l.calibrate(ctx, web)
		if err != nil {
			return err
		}
		users := make([]string, o.analysts)
		for i := range users {
			users[i] = analyst(i + 1)
		}
		browsers, failed, err := signInAll(ctx, web.URL, users, 16)
		if failed > 0 {
			return fmt.Errorf("loadtest: %d of %d analysts could not sign in: %w", failed, len(users), err)
		}
		before, err := figures.ProcStatus(web.PID(), "VmRSS")
		if err != nil {
			return err
		}
		if err := figures.ResetPeak(web.PID()); err != nil {
			return err
		}
		if err := l.sim.Reset(ctx); err != nil {
			return err
		}
		spentBefore, err := web.spent(ctx)
		if err != nil {
			return err
		}
		othersBefore, err := l.othersCPU()
		if err != nil {
			return err
		}
		t, wall := closedLoop(ctx, browsers, analystMix, o.duration)
		spentAfter, err := web.spent(ctx)
		if err != nil {
			return err
		}
		othersAfter, err := l.othersCPU()
		if err != nil {
			return err
		}
		used := spentAfter.minus(spentBefore)
		peak, err := figures.ProcStatus(web.PID(), "VmHWM")
		if err != nil {
			return err
		}
		// What is live on the heap as the load ends, by part: what the
		// collector has to work around under the soft memory limit. Read
		// after the peak, which its making would raise.
		heap, heapErr := web.heapProfile(ctx)
		if heapErr == nil {
			heapErr = l.keepProfile(heap, "heap.pprof")
		}
		counts, err := l.sim.Requests(ctx)
		if err != nil {
			return err
		}
		calls, byPath := callsOf(counts, func(u string) bool { return isLoadUser(u, o.analysts) })
		pages := max(t.count(), 1)
		out = &analystsRun{pages: t.count(), wall: wall, plan: plan,
			toolPerPage:    (othersAfter.tool - othersBefore.tool) / time.Duration(pages),
			standInPerCall: (othersAfter.standIn - othersBefore.standIn) / time.Duration(max(calls, 1))}

		sorted := t.sorted()
		l.rep.Info(fig, "analysts: requests", fmt.Sprintf("%d (%.0f/s)", t.count(), out.rate()))
		fails := t.failures()
		nFail := 0
		for _, n := range fails {
			nFail += n
		}
		l.rep.Check(fig, "analysts: errors by status", fmt.Sprintf("%d: %s", nFail, statuses(fails)), "0", nFail == 0)
		l.rep.Info(fig, "analysts: p50 / p95 / p99", fmt.Sprintf("%s / %s / %s",
			ms(figures.Percentile(sorted, 0.50)), ms(figures.Percentile(sorted, 0.95)), ms(figures.Percentile(sorted, 0.99))))
		l.rep.Info(fig, "analysts: service calls per page view", fmt.Sprintf("%.2f (%d calls)", float64(calls)/float64(max(t.count(), 1)), calls))
		l.rep.Info(fig, "analysts: dashboard CPU per page view", fmt.Sprintf("%.2f ms (%.1f of %d cores busy)",
			float64(used.cpu.Microseconds())/1000/float64(max(t.count(), 1)), used.cpu.Seconds()/wall.Seconds(), runtime.NumCPU()))
		l.rep.Info(fig, "analysts: load tool / stand-in CPU per page view", fmt.Sprintf("%.2f ms / %.2f ms",
			ms64(out.toolPerPage), ms64(out.standInPerCall)*float64(calls)/float64(pages)))
		cpuPerPage := used.cpu / time.Duration(pages)
		perCall := float64(cpuPerPage) / float64(max(out.standInPerCall, 1))
		l.rep.Check(fig, "analysts: dashboard CPU per page view / stand-in CPU per call", fmt.Sprintf("%.1f (%.2f ms / %.2f ms)",
			perCall, ms64(cpuPerPage), ms64(out.standInPerCall)), fmt.Sprintf("<= %d", cpuPerCallTarget), perCall <= cpuPerCallTarget)
		if heapErr != nil {
			l.rep.Broken(fig, "analysts: dashboard heap live at the end, by part", heapErr)
		} else {
			parts, live := partsBy(heap, "inuse_space")
			l.rep.Info(fig, "analysts: dashboard heap live at the end, by part", heapText(parts, float64(live)))
		}
		l.rep.Info(fig, "analysts: dashboard heap allocated per page view", fmt.Sprintf("%.0f kB (%.1f collections/s)",
			used.allocated/1e3/float64(max(t.count(), 1)), used.gcCycles/wall.Seconds()))
		l.rep.Check(fig, "analysts: peak resident memory", mib(peak), "<= "+mib(memTarget), peak <= memTarget)

		for _, b := range browsers {
			b.close()
		}
		sleep(ctx, o.idle)
		idle, err := figures.ProcStatus(web.PID(), "VmRSS")
		if err != nil {
			return err
		}
		l.rep.Check(fig, "analysts: resident memory after idle", mib(idle), "<= "+mib(memTarget), idle <= memTarget)
		// The parts come from a CPU profile of a shorter run of the same
		// mix after the memory figures, whose peak the profiling would
		// raise by some MiB.
		parts, err := l.profiledRun(ctx, web, browsers)
		if err != nil {
			l.rep.Broken(fig, "analysts: dashboard CPU per page view by part", err)
		} else {
			l.rep.Info(fig, "analysts: dashboard CPU per page view by part", partsText(parts, cpuPerPage))
		}
		l.cpuFloor(ctx, web, browsers, cpuPerPage, out.standInPerCall, float64(calls)/float64(pages), parts)

		l.rep.Note(fig, "%d users load1..load%d signed in through the form, then a closed loop each for %v (one keep-alive connection per analyst, %v per page at most), pages %s",
			o.analysts, o.analysts, o.duration, requestTimeout, mixText(t))
		l.rep.Note(fig, "service calls counted by the stand-in for those users after sign-in, per page answered (exports included): %s", describe(byPath))
		l.rep.Note(fig, "memory of the dashboard from /proc: VmRSS %s before the load, VmHWM (peak, reset through clear_refs before the load) %s; after-idle is VmRSS %v after the load stopped (CACHE_TTL=NEWS_TTL=CACHE_KEEP_STALE=%v), connections closed",
			mib(before), mib(peak), o.idle, o.ttl)
		if nFail > 0 {
			l.rep.Note(fig, "failed pages: %s (%s)", statuses(fails), t.redirectText())
		}
		if len(t.errs) > 0 {
			l.rep.Note(fig, "requests without an answer, first ones: %v", t.errs)
		}
		return nil
	})
	if err != nil {
		l.rep.Broken(fig, what, err)
		return nil
	}
	return out
}

// besideCPU is the CPU time spent so far by the two processes beside the
// dashboard: this load tool and the stand-in.
type besideCPU struct{ tool, standIn time.Duration }

// othersCPU reads besideCPU now.
func (l *lab) othersCPU() (besideCPU, error) {
	tool, err := figures.ProcCPU(os.Getpid())
	if err != nil {
		return besideCPU{}, err
	}
	standIn, err := figures.ProcCPU(l.sim.PID())
	return besideCPU{tool: tool, standIn: standIn}, err
}

// ms64 is a duration in milliseconds, with fractions.
func ms64(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// isLoadUser is true for load1..loadN, the analysts of the run; the users
// after them only calibrate.
func isLoadUser(user string, n int) bool {
	for i := 1; i <= n; i++ {
		if user == analyst(i) {
			return true
		}
	}
	return false
}

// mixText is how many pages of each kind a tally holds.
func mixText(t *tally) string {
	var parts []string
	for k := range numKinds {
		if t.byKind[k] > 0 {
			parts = append(parts, fmt.Sprintf("%s %d", k, t.byKind[k]))
		}
	}
	return strings.Join(parts, ", ")
}

// calibrate opens each kind of page once, cold, as a user of its own (the
// ones after the analysts) and returns the service calls each cost: the
// plan of the direct run of figure 2.
func (l *lab) calibrate(ctx context.Context, web *dashboard) ([numKinds]map[string]int, error) {
	var plan [numKinds]map[string]int
	for k := range numKinds {
		user := analyst(l.opts.analysts + 1 + int(k))
		b := newBrowser(web.URL, requestTimeout)
		if err := b.signIn(ctx, user); err != nil {
			return plan, err
		}
		before, err := l.sim.Requests(ctx)
		if err != nil {
			return plan, err
		}
		if o := b.get(ctx, pathOf(k, firstBusiness)); o.err != nil || o.status != 200 {
			return plan, fmt.Errorf("loadtest: calibrating %s: status %d (%v)", pathOf(k, firstBusiness), o.status, o.err)
		}
		after, err := l.sim.Requests(ctx)
		if err != nil {
			return plan, err
		}
		plan[k] = map[string]int{}
		for p, n := range after[user] {
			if d := n - before[user][p]; d > 0 {
				plan[k][p] = d
			}
		}
		b.close()
	}
	return plan, nil
}

// signInAll signs each user in through the form, parallel at a time (all
// at once when parallel >= len(users)), and returns the browsers signed in,
// how many failed and the first failure.
func signInAll(ctx context.Context, base string, users []string, parallel int) ([]*browser, int, error) {
	browsers := make([]*browser, len(users))
	errs := make([]error, len(users))
	sem := make(chan struct{}, parallel)
	var wg sync.WaitGroup
	for i, u := range users {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			b := newBrowser(base, requestTimeout)
			errs[i] = b.signIn(ctx, u)
			browsers[i] = b
		}()
	}
	wg.Wait()
	var ok []*browser
	var first error
	for i, err := range errs {
		if err != nil {
			first = cmp.Or(first, err)
			continue
		}
		ok = append(ok, browsers[i])
	}
	return ok, len(users) - len(ok), first
}

// closedLoop runs one worker per browser, each drawing pages from mix
// (seeded by its position, so a replay draws the same ones) and asking for
// the next as soon as the last answered, until d has passed or perWorker
// pages were asked. It returns the outcomes and the wall time until the
// last worker stopped.
func closedLoop(ctx context.Context, browsers []*browser, mix [numKinds]int, d time.Duration) (*tally, time.Duration) {
	t := newTally()
	start := time.Now()
	ctx, cancel := context.WithTimeout(ctx, d+requestTimeout)
	defer cancel()
	deadline := start.Add(d)
	var wg sync.WaitGroup
	for i, b := range browsers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			m := newMixer(mix, uint64(i+1))
			for n := 0; n < perWorker && time.Now().Before(deadline) && ctx.Err() == nil; n++ {
				p := m.next()
				t.add(p.kind, b.get(ctx, p.path))
			}
		}()
	}
	wg.Wait()
	return t, time.Since(start)
}
