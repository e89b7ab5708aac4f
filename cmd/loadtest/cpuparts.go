package main

import (
	"cmp"
	"context"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/google/pprof/profile"
)

// Where the dashboard's CPU per page view goes: a CPU profile of bin/web
// (PPROF=true, on its operators' listener) taken while the analysts load
// it, each sample given to one part of the page's work. A sample belongs
// to the collector when any of its frames is the collector's; otherwise to
// the part of its innermost frame that names one, so an allocation or a
// copy counts for the code that asked for it, not for the runtime.

// cpuPart is one part's share of the profile's samples.
type cpuPart struct {
	name  string
	share float64
}

// gcFrames mark a sample as the collector's work, in the background or as
// an allocation's assist.
var gcFrames = []string{"runtime.gcBgMarkWorker", "runtime.gcAssistAlloc", "runtime.bgsweep", "runtime.bgscavenge",
	"runtime.gcStart", "runtime.gcMarkTermination", "runtime.GC", "runtime.sweepone", "runtime.(*sweepLocked).sweep"}

// partPrefixes name the parts by the function names' prefixes, first
// match wins; frames of no part (the runtime, the standard library's
// helpers) are passed over to their caller.
var partPrefixes = []struct{ part, prefix string }{
	{"gzip", "github.com/klauspost/compress"},
	{"gzip", "compress/"},
	{"json", "encoding/json"},
	{"templ", "github.com/a-h/templ"},
	{"templ", "creditdash/templates"},
	{"store", "database/sql"},
	{"store", "modernc.org/"},
	{"store", "creditdash/internal/store"},
	{"store", "github.com/jackc/"},
	{"session", "github.com/gorilla/"},
	{"session", "creditdash/internal/session"},
	{"logging", "log/slog"},
	{"logging", "creditdash/internal/middleware.clipHandler"},
	{"metrics", "github.com/prometheus/"},
	{"metrics", "creditdash/internal/metrics"},
	{"network I/O", "syscall."},
	{"network I/O", "internal/poll."},
	{"network I/O", "net.("},
	{"net/http and echo", "net/http"},
	{"net/http and echo", "net/textproto"},
	{"net/http and echo", "github.com/labstack/echo"},
	{"service client and cache", "creditdash/internal/upstream"},
	{"service client and cache", "creditdash/internal/cache"},
	{"service client and cache", "github.com/maypok86/otter"},
	{"views", "creditdash/internal/views"},
	{"handlers", "creditdash/internal/handlers"},
	{"handlers", "creditdash/internal/middleware"},
	{"other dashboard code", "creditdash/"},
}

// otherPart is what no frame of a sample names: the scheduler, timers,
// the runtime's own upkeep.
const otherPart = "runtime (scheduler, other)"

// partOf is the part a sample's stack (innermost frame first) belongs to.
func partOf(frames []string) string {
	for _, f := range frames {
		for _, g := range gcFrames {
			if f == g {
				return "GC"
			}
		}
	}
	for _, f := range frames {
		for _, p := range partPrefixes {
			if strings.HasPrefix(f, p.prefix) {
				return p.part
			}
		}
	}
	return otherPart
}

// cpuParts are the profile's CPU samples by part, largest first.
func cpuParts(p *profile.Profile) []cpuPart {
	parts, _ := partsBy(p, "cpu")
	return parts
}

// partsBy are the profile's values of sample type typ by part, largest
// first (cpu: CPU time; inuse_space: bytes live on the heap), and their
// total.
func partsBy(p *profile.Profile, typ string) ([]cpuPart, int64) {
	idx := -1
	for i, st := range p.SampleType {
		if st.Type == typ {
			idx = i
		}
	}
	if idx < 0 {
		return nil, 0
	}
	byPart := map[string]int64{}
	var total int64
	var frames []string
	for _, s := range p.Sample {
		frames = frames[:0]
		for _, loc := range s.Location {
			for _, ln := range loc.Line {
				if ln.Function != nil {
					frames = append(frames, ln.Function.Name)
				}
			}
		}
		v := s.Value[idx]
		byPart[partOf(frames)] += v
		total += v
	}
	if total == 0 {
		return nil, 0
	}
	parts := make([]cpuPart, 0, len(byPart))
	for name, v := range byPart {
		parts = append(parts, cpuPart{name: name, share: float64(v) / float64(total)})
	}
	slices.SortFunc(parts, func(a, b cpuPart) int {
		return cmp.Or(cmp.Compare(b.share, a.share), strings.Compare(a.name, b.name))
	})
	return parts, total
}

// partsText writes parts as each one's CPU per page view out of perPage.
func partsText(parts []cpuPart, perPage time.Duration) string {
	out := make([]string, len(parts))
	for i, p := range parts {
		out[i] = fmt.Sprintf("%s %.2f ms (%.0f%%)", p.name, ms64(perPage)*p.share, 100*p.share)
	}
	return strings.Join(out, ", ")
}

// heapText writes parts as each one's live heap out of total bytes.
func heapText(parts []cpuPart, total float64) string {
	out := make([]string, len(parts))
	for i, p := range parts {
		out[i] = fmt.Sprintf("%s %.1f MiB", p.name, total*p.share/(1<<20))
	}
	return strings.Join(out, ", ")
}

// heapProfile takes the dashboard's heap profile (what is live as of its
// last collection), from its operators' listener.
func (d *dashboard) heapProfile(ctx context.Context) (*profile.Profile, error) {
	return d.profileAt(ctx, d.ops+"/debug/pprof/heap", 30*time.Second)
}

// cpuProfile takes a CPU profile of the dashboard over d, from its
// operators' listener.
func (d *dashboard) cpuProfile(ctx context.Context, dur time.Duration) (*profile.Profile, error) {
	return d.profileAt(ctx, fmt.Sprintf("%s/debug/pprof/profile?seconds=%d", d.ops, max(int(dur.Seconds()), 1)), dur+30*time.Second)
}

// profileAt reads one profile from url.
func (d *dashboard) profileAt(ctx context.Context, url string, timeout time.Duration) (*profile.Profile, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return nil, err
	}
	resp, err := (&http.Client{Timeout: timeout}).Do(req)
	if err != nil {
		return nil, fmt.Errorf("loadtest: the dashboard's profile: %w", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("loadtest: the dashboard's profile: status %d", resp.StatusCode)
	}
	return profile.Parse(resp.Body)
}

// profileRun is how long the analysts' mix runs again under a CPU profile.
const profileRun = 12 * time.Second

// profiledRun runs the analysts' mix again for profileRun under a CPU
// profile of the dashboard (spanning all but its last second, so it holds
// only what the load made) and returns the profile's parts.
func (l *lab) profiledRun(ctx context.Context, web *dashboard, browsers []*browser) ([]cpuPart, error) {
	type outcome struct {
		p   *profile.Profile
		err error
	}
	done := make(chan outcome, 1)
	go func() {
		p, err := web.cpuProfile(ctx, profileRun-time.Second)
		done <- outcome{p, err}
	}()
	closedLoop(ctx, browsers, analystMix, profileRun)
	o := <-done
	if o.err != nil {
		return nil, o.err
	}
	if err := l.keepProfile(o.p, "cpu.pprof"); err != nil {
		return nil, err
	}
	return cpuParts(o.p), nil
}

// keepProfile writes p as name into the -profiles folder, if one was given.
func (l *lab) keepProfile(p *profile.Profile, name string) error {
	if l.opts.profiles == "" {
		return nil
	}
	f, err := os.Create(filepath.Join(l.opts.profiles, name))
	if err != nil {
		return err
	}
	if err := p.Write(f); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
