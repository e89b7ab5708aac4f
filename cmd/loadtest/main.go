// Command loadtest measures the dashboard as a team and a hostile user use
// it: it starts bin/simulator and bin/web as their own processes on
// loopback ports, runs each scenario of the load issue (200 analysts, the
// same service calls made directly, the Ordinary storm, unread exports,
// the log flood, the home page with broad alert rules, one analyst flooding
// the team's heavy pages at 50,000 accounts beside another user) and prints one table of figures next to their targets.
// Targets are informational: it exits 0 unless something could not run.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"creditdash/internal/figures"
)

// options are the load tool's flags.
type options struct {
	web, simulator string
	figures        []int
	analysts       int
	duration       time.Duration // figures 1 and 2
	ttl            time.Duration // the dashboard's CACHE_TTL and NEWS_TTL
	directCold     bool          // figure 2's direct run keeps no answers
	idle           time.Duration // wait after the load before reading memory
	latency        time.Duration
	storm          time.Duration
	sessions       int // Ordinary sign-ins of the storm
	bulk           int
	exports        int
	victim         time.Duration
	floodRequests  int
	floodPath      int
	floodTime      time.Duration
	keep           bool          // keep the children's logs
	rulesBulk      int           // figure 6's portfolio
	rulesPages     int           // figure 6's timed home pages, each way
	profiles       string        // where figure 1's profiles of the dashboard are written, if anywhere
	teamAccounts   int           // figure 7's team
	teamAlone      time.Duration // figure 7's other user timed alone
	teamFlood      time.Duration // and during each flood
}

func main() {
	var o options
	figures := flag.String("figures", "1,2,3,4,5,6,7", "which figures to measure (2 needs 1)")
	flag.StringVar(&o.web, "web", filepath.Join("bin", "web"), "the dashboard binary")
	flag.StringVar(&o.simulator, "simulator", filepath.Join("bin", "simulator"), "the stand-in service binary")
	flag.IntVar(&o.analysts, "analysts", 200, "concurrent analysts, each a user of its own (figures 1 and 2)")
	flag.DurationVar(&o.duration, "duration", 60*time.Second, "how long the analysts load runs, and the direct run after it")
	flag.DurationVar(&o.ttl, "ttl", 20*time.Second, "the dashboard's CACHE_TTL and NEWS_TTL")
	flag.BoolVar(&o.directCold, "direct-cold", false, "figure 2's direct run keeps no answers: every page makes all its calls, as with no cache at all (a gentler yardstick than the default ideal cache)")
	flag.DurationVar(&o.idle, "idle", 70*time.Second, "wait after the analysts stop before reading resident memory (longer than -ttl plus the dashboard's 30 s tidying)")
	flag.DurationVar(&o.latency, "latency", 50*time.Millisecond, "the stand-in's latency on every answer")
	flag.DurationVar(&o.storm, "storm", 60*time.Second, "how long the Ordinary sessions hammer")
	flag.IntVar(&o.sessions, "sessions", 200, "Ordinary sign-ins of the storm")
	flag.IntVar(&o.bulk, "bulk", 1_000_000, "businesses in the bulk user's portfolio, whose exports are left unread")
	flag.IntVar(&o.exports, "exports", 64, "unread exports held open")
	flag.DurationVar(&o.victim, "victim", 20*time.Second, "how long the other user loads pages beside the unread exports")
	flag.IntVar(&o.floodRequests, "flood-requests", 10_000, "unauthenticated requests of the log flood")
	flag.IntVar(&o.floodPath, "flood-path", 60_000, "bytes in each flood request's path")
	flag.DurationVar(&o.floodTime, "flood-time", 3*time.Minute, "longest the log flood may take")
	flag.IntVar(&o.rulesBulk, "rules-bulk", 1000, "businesses in the bulk user's portfolio of figure 6 (a stand-in of its own)")
	flag.IntVar(&o.rulesPages, "rules-pages", 20, "home pages timed with and without the broad rules (figure 6)")
	flag.IntVar(&o.teamAccounts, "team-accounts", 50_000, "accounts of the team whose heavy pages one analyst floods (figure 7)")
	flag.DurationVar(&o.teamAlone, "team-alone", 5*time.Second, "how long the other user's pages are timed alone (figure 7)")
	flag.DurationVar(&o.teamFlood, "team-flood", 6*time.Second, "how long the other user's pages are timed during each flood (figure 7)")
	flag.StringVar(&o.profiles, "profiles", "", "write figure 1's profiles of the dashboard (cpu.pprof, heap.pprof with what the run allocated) into this folder, for go tool pprof")
	flag.BoolVar(&o.keep, "keep", false, "keep the children's logs and print where")
	flag.Parse()
	var err error
	if o.figures, err = parseFigures(*figures); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	if o.analysts < 1 || o.sessions < 1 || o.exports < 1 || o.floodRequests < 1 || o.floodPath < 1 ||
		o.bulk < 1 || o.rulesBulk < 1 || o.teamAccounts < 1 || o.teamAlone <= 0 || o.teamFlood <= 0 || o.rulesPages < 1 || o.duration <= 0 || o.storm <= 0 || o.victim <= 0 || o.floodTime <= 0 || o.idle < 0 {
		fmt.Fprintln(os.Stderr, "loadtest: counts must be at least 1 and durations above zero")
		os.Exit(2)
	}

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	started := time.Now()
	rep := &report{}
	err = run(ctx, o, rep)
	heading := fmt.Sprintf("CreditDash loadtest · %s · %s/%s, %d CPUs, %s · stand-in latency %v · took %s",
		started.UTC().Format("2006-01-02 15:04 UTC"), runtime.GOOS, runtime.GOARCH, runtime.NumCPU(),
		runtime.Version(), o.latency, time.Since(started).Round(time.Second))
	rep.Print(os.Stdout, heading)
	switch {
	case ctx.Err() != nil:
		fmt.Fprintln(os.Stderr, errStopped)
		os.Exit(130)
	case err != nil:
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	case rep.Failed():
		os.Exit(1)
	}
}

// parseFigures reads "1,3,5".
func parseFigures(s string) ([]int, error) {
	var out []int
	for _, f := range strings.Split(s, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n < 1 || n > teamFigure {
			return nil, fmt.Errorf("loadtest: -figures takes numbers from 1 to %d, not %q", teamFigure, f)
		}
		out = append(out, n)
	}
	return out, nil
}

// run starts the stand-in once and measures the figures asked for, each
// against a dashboard of its own; children and the temporary folder are
// gone when it returns (unless -keep).
func run(ctx context.Context, o options, rep *report) error {
	for _, bin := range []string{o.web, o.simulator} {
		if _, err := os.Stat(bin); err != nil {
			return fmt.Errorf("loadtest: %w (run make build first)", err)
		}
	}
	dir, err := os.MkdirTemp("", "creditdash-loadtest-")
	if err != nil {
		return err
	}
	if o.keep {
		defer fmt.Fprintf(os.Stderr, "loadtest: the children's logs are in %s\n", dir)
	} else {
		defer os.RemoveAll(dir)
	}
	sim, err := startStandIn(ctx, o, dir)
	if err != nil {
		return err
	}
	defer sim.Stop()

	l := &lab{opts: o, sim: sim, dir: dir, rep: rep}
	var first *analystsRun
	figures := map[int]func(){
		1: func() { first = l.analystsLoad(ctx) },
		2: func() { l.direct(ctx, first) },
		3: func() { l.ordinaryStorm(ctx) },
		4: func() { l.unreadExports(ctx) },
		5: func() { l.logFlood(ctx) },
		6: func() { l.broadRulesHome(ctx) },
		7: func() { l.teamFloodsFigure(ctx) },
	}
	for fig := 1; fig <= teamFigure; fig++ {
		if !slices.Contains(o.figures, fig) {
			continue
		}
		figures[fig]()
		if ctx.Err() != nil {
			return errStopped
		}
		if err := sim.Failed(); err != nil {
			return err
		}
	}
	return nil
}

// lab is one run: the options, the stand-in, the children's folder, the table.
type lab struct {
	opts options
	sim  *figures.StandIn
	dir  string
	rep  *report
}

// withDashboard runs fn against a dashboard of its own (an empty cache and
// a log of its own), stopped when fn returns.
func (l *lab) withDashboard(ctx context.Context, name string, fn func(web *dashboard) error) error {
	web, err := startDashboard(ctx, l.opts, l.sim.URL, l.dir, name)
	if err != nil {
		return err
	}
	defer web.Stop()
	err = fn(web)
	if ctx.Err() != nil {
		return errStopped
	}
	if exitErr := web.Failed(); exitErr != nil && err == nil {
		return exitErr
	}
	return err
}

// sleep waits d or until ctx ends.
func sleep(ctx context.Context, d time.Duration) {
	select {
	case <-ctx.Done():
	case <-time.After(d):
	}
}

// analyst is the user name of the i-th generated analyst, from 1.
func analyst(i int) string { return "load" + strconv.Itoa(i) }

// errStopped is returned when Ctrl+C ended the run.
var errStopped = errors.New("loadtest: stopped")
