package store

import (
	"context"
	"sync"
	"testing"
	"time"

	"creditdash/internal/store/storetest"
)

// engines are the engines every store test runs on.
var engines = []Engine{SQLite, Postgres}

// eachEngine runs fn as a parallel subtest per engine, each on a fresh,
// empty database of its own.
func eachEngine(t *testing.T, fn func(t *testing.T, s *Store)) {
	t.Helper()
	for _, e := range engines {
		t.Run(string(e), func(t *testing.T) {
			t.Parallel()
			fn(t, openTest(t, e, Config{}))
		})
	}
}

// openTest opens a store on a new database of engine e, closed at the end
// of the test. cfg's DataDir or DatabaseURL, when set, are kept, so a test
// can reopen the same database.
func openTest(t testing.TB, e Engine, cfg Config) *Store {
	t.Helper()
	if cfg.Now == nil {
		cfg.Now = newClock().Now
	}
	switch {
	case e == SQLite && cfg.DataDir == "":
		cfg.DataDir = t.TempDir()
	case e == Postgres && cfg.DatabaseURL == "":
		cfg.DatabaseURL = storetest.Database(t)
	}
	s, err := Open(context.Background(), cfg)
	if err != nil {
		t.Fatalf("Open(%s): %v", e, err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// clock is a test clock that moves one second on every reading, so every
// stored time differs and "newest first" is well defined.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

// newClock starts a clock at a fixed date.
func newClock() *clock { return &clock{t: time.Date(2025, 3, 1, 9, 0, 0, 0, time.UTC)} }

// Now advances the clock and reads it.
func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(time.Second)
	return c.t
}
