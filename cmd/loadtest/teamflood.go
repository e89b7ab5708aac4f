package main

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"

	"creditdash/internal/figures"
)

// teamFigure is the figure of one analyst flooding the team's heavy
// pages at 50,000 accounts while another user works (issue 47.2).
const teamFigure = 7

// teamTarget: during a flood the other user's median page stays within
// this many times their median alone, and none of their pages is a 5xx.
const teamTarget = 1.5

// The flooder and the other user: two analysts of one team.
const (
	flooderUser = 1
	otherUser   = 2
)

// otherPage is one page of the other user's round: a path and whether
// the browser accepts gzip.
type otherPage struct {
	path string
	gzip bool
}

// otherRound is the other user's pages, each with and without gzip: a
// business's report, the team's accounts, the exposure and the worklist.
// Every measurement takes whole rounds, so alone and during a flood the
// median is over the same mix.
var otherRound = func() []otherPage {
	var out []otherPage
	for _, gz := range []bool{true, false} {
		for _, p := range []string{"/businesses/" + strconv.Itoa(firstBusiness), "/accounts", "/portfolio/exposure", "/worklist"} {
			out = append(out, otherPage{p, gz})
		}
	}
	return out
}()

// teamFlood is one analyst's flood: parallel requests at once, sent again
// as a wave as soon as the last of them is answered (a script that asks
// again at once, minding no Retry-After).
type teamFlood struct {
	name     string
	parallel int
	do       func(ctx context.Context, b *browser, i int) outcome
}

// getFlood floods the path that path(i) gives the i-th request.
func getFlood(name string, parallel int, path func(i int) string) teamFlood {
	return teamFlood{name, parallel, func(ctx context.Context, b *browser, i int) outcome { return b.get(ctx, path(i)) }}
}

// teamFloods are the heavy pages of issue 47.2, each flooded in turn.
func teamFloods(upload []byte, contentType string) []teamFlood {
	others := []string{"/accounts.csv", "/portfolio/exposure.csv"}
	sorts := []string{"account", "balance", "risk", "el", "utilization"}
	return []teamFlood{
		getFlood("/accounts.xlsx", 20, func(int) string { return "/accounts.xlsx" }),
		getFlood("/accounts.csv and /portfolio/exposure.csv", 20, func(i int) string { return others[i%2] }),
		getFlood("/audit/verify (Check again)", 50, func(i int) string { return "/audit/verify?again=1" }),
		getFlood("/reviews, paged", 20, func(i int) string { return "/reviews?overdue=" + strconv.Itoa(1+i%20) }),
		getFlood("/accounts, paged and sorted", 20, func(i int) string {
			return "/accounts?sort=" + sorts[i%len(sorts)] + "&page=" + strconv.Itoa(1+i%200)
		}),
		{"import previews of the ledger", 6, func(ctx context.Context, b *browser, _ int) outcome {
			req, err := http.NewRequestWithContext(ctx, http.MethodPost, b.base+"/accounts/import", bytes.NewReader(upload))
			if err != nil {
				return outcome{err: err}
			}
			req.Header.Set("Content-Type", contentType)
			return send(b.http, req)
		}},
	}
}

// teamFloodsFigure measures figure 7 against a dashboard of its own: the
// flooder imports a ledger of opts.teamAccounts accounts through the
// import page; the other user's round is timed alone for opts.teamAlone,
// then during each flood for opts.teamFlood.
func (l *lab) teamFloodsFigure(ctx context.Context) {
	const fig, what = teamFigure, "team floods"
	o := l.opts
	// Answers kept for the whole run: a report's calls to the stand-in
	// would otherwise come back at random inside the timed rounds.
	o.ttl = 10 * time.Minute
	err := func() error {
		web, err := startDashboard(ctx, o, l.sim.URL, l.dir, "web-team")
		if err != nil {
			return err
		}
		defer web.Stop()
		flooder, other := newBrowser(web.URL, requestTimeout), newBrowser(web.URL, requestTimeout)
		flooder.http.Transport.(*http.Transport).MaxIdleConnsPerHost = 64
		defer flooder.close()
		defer other.close()
		if err := flooder.signIn(ctx, analyst(flooderUser)); err != nil {
			return err
		}
		if err := other.signIn(ctx, analyst(otherUser)); err != nil {
			return err
		}
		data := teamLedger(o.teamAccounts)
		start := time.Now()
		if err := flooder.importLedger(ctx, data); err != nil {
			return err
		}
		imported := time.Since(start)
		csrf, err := flooder.formToken(ctx, "/accounts/import", "/accounts/import")
		if err != nil {
			return err
		}
		upload, ct := ledgerUpload(csrf, data)
		// One round first: the team's figures are worked out after the
		// import, the report's answers fetched.
		if t := otherRounds(ctx, other, 0); t.ok() != t.count() {
			return fmt.Errorf("loadtest: the other user's first round: %s", statuses(t.byStatus))
		}
		var alone *tally
		aloneCPU, err := cores(ctx, web, func() { alone = otherRounds(ctx, other, o.teamAlone) })
		if err != nil {
			return err
		}
		aloneP50 := figures.Median(alone.times)
		sorted := alone.sorted()
		l.rep.Info(fig, "other user alone: p50 / p95", fmt.Sprintf("%s / %s", ms64text(aloneP50), ms64text(figures.Percentile(sorted, 0.95))))
		l.rep.Note(fig, "team of %d accounts imported through the import page by %s in %v; %s's round: %s, each with and without gzip, one page at a time; alone: %d pages, answers %s, %s, load average %s",
			o.teamAccounts, analyst(flooderUser), imported.Round(time.Millisecond), analyst(otherUser), roundText(), alone.count(), statuses(alone.byStatus), aloneCPU, loadAverage())
		for _, f := range teamFloods(upload, ct) {
			if ctx.Err() != nil {
				return errStopped
			}
			var during *tally
			var flood *floodTally
			var cut int
			used, err := cores(ctx, web, func() {
				during, flood, cut = floodWhile(ctx, f, flooder, func() *tally { return otherRounds(ctx, other, o.teamFlood) })
			})
			if err != nil {
				return err
			}
			p50 := figures.Median(during.times)
			ratio := float64(p50) / float64(max(aloneP50, time.Microsecond))
			errs5xx := fiveXX(during.byStatus)
			l.rep.Check(fig, fmt.Sprintf("other user during %s ×%d: p50 / alone, 5xx", f.name, f.parallel),
				fmt.Sprintf("%.2f× (%s), %d", ratio, ms64text(p50), errs5xx),
				fmt.Sprintf("<= %.1f×, 0", teamTarget), ratio <= teamTarget && errs5xx == 0)
			l.rep.Note(fig, "during %s ×%d: %s's p50 %s, p95 %s over %d pages (answers %s); the flooder's %d requests: %s, %d of the waits without Retry-After, %d cut at the end; %s, load average %s",
				f.name, f.parallel, analyst(otherUser), ms64text(p50), ms64text(figures.Percentile(during.sorted(), 0.95)),
				during.count(), statuses(during.byStatus), flood.count(), floodText(flood.byStatus), flood.waitsWithoutRetry, cut,
				used, loadAverage())
			// What the flood left running on the server ends before the next.
			sleep(ctx, time.Second)
		}
		return web.Failed()
	}()
	if ctx.Err() != nil {
		return
	}
	if err != nil {
		l.rep.Broken(fig, what, err)
	}
}

// otherRounds times whole rounds of the other user's pages, one page at
// a time, until d has passed (one round for d = 0).
func otherRounds(ctx context.Context, b *browser, d time.Duration) *tally {
	t := newTally()
	deadline := time.Now().Add(d)
	for n := 0; n < perWorker && ctx.Err() == nil; n += len(otherRound) {
		for _, p := range otherRound {
			enc := "identity"
			if p.gzip {
				enc = "gzip"
			}
			t.add(kindHome, fetch(ctx, b.http, b.base+p.path, "Accept-Encoding", enc))
		}
		if !time.Now().Before(deadline) {
			break
		}
	}
	return t
}

// floodTally is the flooder's answers.
type floodTally struct {
	*tally
	mu                sync.Mutex
	waitsWithoutRetry int
}

// floodWhile runs f's waves from flooder while measure runs, then stops
// them; requests still running then are cut, and counted apart.
func floodWhile(ctx context.Context, f teamFlood, flooder *browser, measure func() *tally) (measured *tally, flood *floodTally, cut int) {
	fctx, stop := context.WithCancel(ctx)
	flood = &floodTally{tally: newTally()}
	var cutN sync.Mutex
	var done sync.WaitGroup
	started := make(chan struct{})
	done.Go(func() {
		for wave := 0; wave < perWorker && fctx.Err() == nil; wave++ {
			var wg sync.WaitGroup
			for i := range f.parallel {
				wg.Go(func() {
					o := f.do(fctx, flooder, wave*f.parallel+i)
					if fctx.Err() != nil && o.err != nil {
						cutN.Lock()
						cut++
						cutN.Unlock()
						return
					}
					flood.add(kindHome, o)
					if wait(o.status) && !o.retry {
						flood.mu.Lock()
						flood.waitsWithoutRetry++
						flood.mu.Unlock()
					}
				})
			}
			if wave == 0 {
				close(started)
			}
			wg.Wait()
		}
	})
	<-started
	measured = measure()
	stop()
	done.Wait()
	return measured, flood, cut
}

// wait reports whether status tells the client to come back later.
func wait(status int) bool {
	return status == http.StatusTooManyRequests || status == http.StatusServiceUnavailable
}

// fiveXX counts the answers 500 and above, and those with none.
func fiveXX(byStatus map[int]int) int {
	n := byStatus[0]
	for s, k := range byStatus {
		if s >= 500 {
			n += k
		}
	}
	return n
}

// floodText is the flooder's answers: served, told to wait, the rest.
func floodText(byStatus map[int]int) string {
	served, waits, rest := 0, map[int]int{}, map[int]int{}
	for s, n := range byStatus {
		switch {
		case s == http.StatusOK:
			served += n
		case wait(s):
			waits[s] = n
		default:
			rest[s] = n
		}
	}
	out := fmt.Sprintf("%d served, told to wait %s", served, statuses(waits))
	if len(rest) > 0 {
		out += ", other " + statuses(rest)
	}
	return out
}

// roundText lists the other user's round.
func roundText() string {
	s := ""
	for i, p := range otherRound[:len(otherRound)/2] {
		if i > 0 {
			s += ", "
		}
		s += p.path
	}
	return s
}

// cores runs fn and says what the dashboard spent meanwhile: the cores
// it used (CPU time over wall time), and what it allocated and collected.
func cores(ctx context.Context, web *dashboard, fn func()) (spentText string, err error) {
	before, err := web.spent(ctx)
	if err != nil {
		return "", err
	}
	start := time.Now()
	fn()
	wall := time.Since(start)
	after, err := web.spent(ctx)
	if err != nil {
		return "", err
	}
	d := after.minus(before)
	return fmt.Sprintf("the dashboard using %.2f cores, allocating %s in %.0f collections",
		float64(d.cpu)/float64(max(wall, time.Millisecond)), mib(int64(d.allocated)), d.gcCycles), nil
}

// loadAverage is the machine's load over the last minute, as uptime
// prints it ("?" where /proc has none): the figures are only as steady as
// the machine is quiet.
func loadAverage() string {
	data, err := os.ReadFile("/proc/loadavg")
	if f := strings.Fields(string(data)); err == nil && len(f) > 0 {
		return f[0]
	}
	return "?"
}
