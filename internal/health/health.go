// Package health keeps a replica's state for /readyz and the operators:
// each dependency is checked in the background on its own schedule, so a
// probe is answered at once from the last results, however many ask and
// however slow a dependency is. It also holds the draining flag a shutdown
// raises first, so balancers stop sending before the listener closes.
package health

import (
	"context"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"
)

// Check is one dependency checked in the background.
type Check struct {
	// Name names it in logs and metrics: "service", "workspace".
	Name string
	// Label names it in /readyz and on the operator page: "the
	// credit-risk service".
	Label string
	// Every is how often it is checked; Timeout bounds one check.
	Every, Timeout time.Duration
	Run            func(ctx context.Context) error
	// Unready tells whether a failure takes the replica out of the
	// balancer's rotation. Nil: never; the replica then serves degraded
	// (a dependency every replica shares being down is no reason to stop
	// answering the pages that do not need it).
	Unready func(error) bool
}

// State is a check's last result.
type State struct {
	Name, Label string
	Err         error
	At          time.Time
	Took        time.Duration
	// Since is when the check last changed between failing and passing.
	Since time.Time
}

// Options tune a Monitor.
type Options struct {
	// Observe is told every check's result (the metrics); nil tells no one.
	Observe func(name string, err error, took time.Duration)
	// Logger receives a line when a check starts or stops failing.
	Logger *slog.Logger
}

// Monitor runs the checks and keeps their last results.
type Monitor struct {
	checks   []Check
	opts     Options
	mu       sync.Mutex
	states   map[string]State
	draining atomic.Bool
}

// New builds a monitor of the checks; Start runs them.
func New(opts Options, checks ...Check) *Monitor {
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	return &Monitor{checks: checks, opts: opts, states: map[string]State{}}
}

// Start runs every check once before it returns, so the first probe is
// answered from a real result, then each on its schedule until ctx ends.
func (m *Monitor) Start(ctx context.Context) {
	var wg sync.WaitGroup
	for _, c := range m.checks {
		wg.Go(func() { m.run(ctx, c) })
	}
	wg.Wait()
	for _, c := range m.checks {
		go func() {
			t := time.NewTicker(c.Every)
			defer t.Stop()
			for {
				select {
				case <-ctx.Done():
					return
				case <-t.C:
					m.run(ctx, c)
				}
			}
		}()
	}
}

// run makes one check and keeps its result.
func (m *Monitor) run(ctx context.Context, c Check) {
	cctx, cancel := context.WithTimeout(ctx, c.Timeout)
	start := time.Now()
	err := c.Run(cctx)
	cancel()
	took := time.Since(start)
	if ctx.Err() != nil {
		return // shutting down: not a failure of the dependency
	}
	if m.opts.Observe != nil {
		m.opts.Observe(c.Name, err, took)
	}
	m.mu.Lock()
	prev, seen := m.states[c.Name]
	s := State{Name: c.Name, Label: c.Label, Err: err, At: time.Now(), Took: took, Since: prev.Since}
	changed := !seen || (prev.Err == nil) != (err == nil)
	if changed {
		s.Since = s.At
	}
	m.states[c.Name] = s
	m.mu.Unlock()
	switch {
	case changed && err != nil:
		m.opts.Logger.Warn("health: "+c.Label+" is failing", "check", c.Name, "err", err)
	case changed && seen:
		m.opts.Logger.Info("health: "+c.Label+" answers again", "check", c.Name, "took", took.String())
	}
}

// States are the checks' last results, in the order they were given.
func (m *Monitor) States() []State {
	m.mu.Lock()
	defer m.mu.Unlock()
	out := make([]State, 0, len(m.checks))
	for _, c := range m.checks {
		if s, ok := m.states[c.Name]; ok {
			out = append(out, s)
		} else {
			out = append(out, State{Name: c.Name, Label: c.Label})
		}
	}
	return out
}

// Drain marks the replica as going away: /readyz answers 503 from now on.
func (m *Monitor) Drain() { m.draining.Store(true) }

// Draining tells whether Drain was called.
func (m *Monitor) Draining() bool { return m.draining.Load() }

// Readiness answers /readyz: whether the replica should get pages, and
// the one-line reason. Public, so it names no error, only what fails.
func (m *Monitor) Readiness() (ready bool, detail string) {
	if m.Draining() {
		return false, "not ready: shutting down"
	}
	var degraded []string
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, c := range m.checks {
		s, ok := m.states[c.Name]
		if !ok || s.Err == nil {
			continue
		}
		if c.Unready != nil && c.Unready(s.Err) {
			return false, "not ready: " + c.Label + " is failing (see the log)"
		}
		degraded = append(degraded, c.Label+" is not answering")
	}
	if len(degraded) == 0 {
		return true, "ready"
	}
	detail = "ready (degraded: "
	for i, d := range degraded {
		if i > 0 {
			detail += "; "
		}
		detail += d
	}
	return true, detail + ")"
}
