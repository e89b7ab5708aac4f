// Command importbench measures what each hostile file of issue 47 costs
// the import preview: it makes the file, starts bin/simulator once and, for
// each file, a bin/web of its own (so no file inherits another's heap),
// signs in through the real form, posts the file to /accounts/import as a
// browser does and prints the answer's status and message, the wall time
// and the dashboard's resident memory: its peak while the file was read
// (VmHWM, reset just before the post) above its resident size before, and
// the whole process's peak from the kernel's rusage after it exited.
// Targets (100 MB and 10 s for any file) are informational: it exits 0
// unless something could not be measured.
package main

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"syscall"
	"text/tabwriter"
	"time"

	"creditdash/internal/figures"
)

// The target of issue 47.1 for any file the importer accepts or refuses.
const (
	memTarget  = 100 << 20
	timeTarget = 10 * time.Second
)

func main() {
	web := flag.String("web", filepath.Join("bin", "web"), "the dashboard binary")
	sim := flag.String("simulator", filepath.Join("bin", "simulator"), "the stand-in service binary")
	only := flag.String("only", "", "measure only the shapes whose name contains this")
	flag.Parse()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	started := time.Now()
	rows, err := run(ctx, *web, *sim, *only)
	fmt.Printf("CreditDash import bench (issue 47.1) · %s · %s/%s, %d CPUs, %s · took %s\n\n",
		started.UTC().Format("2006-01-02 15:04 UTC"), runtime.GOOS, runtime.GOARCH, runtime.NumCPU(),
		runtime.Version(), time.Since(started).Round(time.Second))
	print(rows)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

// run measures every shape against a dashboard of its own.
func run(ctx context.Context, web, sim, only string) ([]result, error) {
	for _, bin := range []string{web, sim} {
		if _, err := os.Stat(bin); err != nil {
			return nil, fmt.Errorf("importbench: %w (run make build first)", err)
		}
	}
	tmp, err := os.MkdirTemp("", "creditdash-importbench-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	standIn, err := figures.StartStandIn(ctx, sim, filepath.Join(tmp, "simulator.log"), nil, 30*time.Second)
	if err != nil {
		return nil, err
	}
	defer standIn.Stop()
	var out []result
	for i, s := range shapes {
		if only != "" && !bytes.Contains([]byte(s.name), []byte(only)) {
			continue
		}
		var file bytes.Buffer
		if err := s.make(&file); err != nil {
			return out, fmt.Errorf("importbench: making %s: %w", s.file, err)
		}
		r, err := measure(ctx, web, standIn.URL, filepath.Join(tmp, fmt.Sprintf("web-%d.log", i)), s, file.Bytes())
		if err != nil {
			return out, fmt.Errorf("importbench: %s: %w", s.name, err)
		}
		out = append(out, r)
	}
	return out, nil
}

// print writes the table and, under it, each answer's message.
func print(rows []result) {
	tw := tabwriter.NewWriter(os.Stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "#\tFile\tSize\tStatus\tWall\tRSS before\tRSS peak (growth)\tProcess peak\tTarget\tResult")
	for i, r := range rows {
		ok := r.growth <= memTarget && r.wall <= timeTarget
		res := "pass"
		if !ok {
			res = "FAIL"
		}
		fmt.Fprintf(tw, "%d\t%s\t%s\t%d\t%.2f s\t%s\t%s (+%s)\t%s\t<= %s, <= %v\t%s\n", i+1, r.shape.name, size(r.size), r.status,
			r.wall.Seconds(), mib(r.before), mib(r.peak), mib(r.growth), mib(r.maxRSS), mib(memTarget), timeTarget, res)
	}
	tw.Flush()
	fmt.Println()
	for i, r := range rows {
		before := ""
		if r.shape.before != "" {
			before = " (the hostile run, before the bounds: " + r.shape.before + ")"
		}
		fmt.Printf("%d. %s%s: %q\n", i+1, r.shape.file, before, r.message)
	}
	fmt.Println("\nGrowth is the dashboard's VmHWM during the post (reset through clear_refs just before it) less its VmRSS before;")
	fmt.Println("process peak is its rusage maxrss over its whole life (start, sign-in and the post). Wall: from sending the")
	fmt.Println("request to the answer's last byte. Each file is read by a dashboard of its own; the target is the growth.")
}

// mib formats a byte count in MiB.
func mib(n int64) string { return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20)) }

// size formats a file's size.
func size(n int) string {
	if n < 1<<20 {
		return fmt.Sprintf("%.0f KB", float64(n)/1024)
	}
	return fmt.Sprintf("%.1f MB", float64(n)/(1<<20))
}
