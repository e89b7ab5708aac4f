// Command bench measures the dashboard the way the speed issue states its
// targets: it starts bin/simulator and bin/web as their own processes on
// loopback ports, signs in through the real form, and prints a table of
// figures next to their targets. Targets are informational: it exits 0
// unless something could not be measured.
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
	"syscall"
	"time"

	"creditdash/internal/figures"
)

// options are the bench's flags.
type options struct {
	web, simulator string // the built binaries
	static         string // the static/ folder to copy for the static twin
	rows           int    // bulk businesses for the export (0 skips it)
	samples        int    // cold samples per latency
	requests       int    // warm requests per measure
	clients        int    // concurrent warm clients
	exportRuns     int    // downloads of each kind, alternating
	recipes        string // the file whose how-to lists figure 6 counts
}

func main() {
	var o options
	flag.StringVar(&o.web, "web", filepath.Join("bin", "web"), "the dashboard binary")
	flag.StringVar(&o.simulator, "simulator", filepath.Join("bin", "simulator"), "the stand-in service binary")
	flag.StringVar(&o.static, "static", "static", "the static files folder, copied for the warm figure's static twin")
	flag.IntVar(&o.rows, "rows", 1_000_000, "businesses in the bulk portfolio the export downloads; 0 skips the export")
	flag.IntVar(&o.samples, "samples", 5, "cold samples per stand-in latency")
	flag.IntVar(&o.requests, "requests", 2000, "requests per warm measure")
	flag.IntVar(&o.clients, "clients", 8, "concurrent clients of the warm measures")
	flag.IntVar(&o.exportRuns, "export-runs", 3, "downloads of each kind (direct, through the dashboard), alternating")
	flag.StringVar(&o.recipes, "recipes", filepath.Join("docs", "architecture.md"), "the file whose how-to lists (\"How to add a report tab\", \"How to add a service operation\") figure 6 counts")
	flag.Parse()
	if o.samples < 1 || o.requests < 1 || o.clients < 1 || o.exportRuns < 1 || o.rows < 0 {
		fmt.Fprintln(os.Stderr, "bench: -samples, -requests, -clients and -export-runs must be at least 1, -rows at least 0")
		os.Exit(2)
	}

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	started := time.Now()
	rep := &report{}
	err := run(ctx, o, rep)
	heading := fmt.Sprintf("CreditDash bench · %s · %s/%s, %d CPUs, %s · took %s",
		started.UTC().Format("2006-01-02 15:04 UTC"), runtime.GOOS, runtime.GOARCH, runtime.NumCPU(),
		runtime.Version(), time.Since(started).Round(time.Second))
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

// run starts the stand-in once and measures every figure, each against
// dashboards of its own; children and the temporary folder are gone when
// it returns.
func run(ctx context.Context, o options, rep *report) error {
	for _, bin := range []string{o.web, o.simulator} {
		if _, err := os.Stat(bin); err != nil {
			return fmt.Errorf("bench: %w (run make build first)", err)
		}
	}
	tmp, err := os.MkdirTemp("", "creditdash-bench-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	staticDir, err := copyStatic(o.static, tmp)
	if err != nil {
		return err
	}
	// The warm figure's distinct users are analysts load1..loadN.
	args := []string{"-analysts", fmt.Sprint(warmUsers)}
	if o.rows > 0 {
		args = append(args, "-bulk", fmt.Sprint(o.rows))
	}
	// Its log has a line per request: kept for a failure report only.
	sim, err := figures.StartStandIn(ctx, o.simulator, filepath.Join(tmp, "simulator.log"), args, 30*time.Second)
	if err != nil {
		return err
	}
	defer sim.Stop()

	l := &lab{opts: o, sim: sim, dir: tmp, staticDir: staticDir, rep: rep}
	var html []byte
	measures := []func(){
		func() { html = l.coldReport(ctx) },
		func() { l.warmReport(ctx, html) },
		func() { l.serviceCalls(ctx) },
		func() { l.pageWeight(ctx) },
		// The longest, so last: tens of seconds at a million rows.
		func() { l.export(ctx) },
		l.structure,
	}
	for _, measure := range measures {
		measure()
		if ctx.Err() != nil {
			return errStopped
		}
		if err := sim.Failed(); err != nil {
			return err
		}
	}
	return nil
}

// lab is one bench run: the stand-in, the temporary folder (children's
// logs, the static twin), the table.
type lab struct {
	opts       options
	sim        *figures.StandIn
	dir        string
	staticDir  string
	rep        *report
	dashboards int // started so far, naming their logs
}

// withDashboard runs fn against a dashboard of its own (so with an empty
// cache), stopped when fn returns.
func (l *lab) withDashboard(ctx context.Context, staticDir string, fn func(web *figures.Child) error) error {
	if ctx.Err() != nil {
		return errStopped
	}
	l.dashboards++
	logPath := filepath.Join(l.dir, fmt.Sprintf("web-%d.log", l.dashboards))
	web, err := startDashboard(ctx, l.opts.web, l.sim.URL, staticDir, logPath)
	if err != nil {
		return err
	}
	defer web.Stop()
	err = fn(web)
	if ctx.Err() != nil {
		return errStopped
	}
	if exitErr := web.Failed(); exitErr != nil {
		return errors.Join(err, exitErr)
	}
	return err
}

// errStopped is returned when Ctrl+C ended the run.
var errStopped = errors.New("bench: stopped")
