package store

import (
	"context"
	"database/sql"
	"fmt"
	"net/url"
	"os"
	"sync"
	"testing"
	"time"

	_ "github.com/jackc/pgx/v5/stdlib" // the admin connection that creates each test's database
)

// Environment of the PostgreSQL tests, as scripts/test-postgres.sh sets it.
const (
	envPostgresURL = "CREDITDASH_TEST_POSTGRES"
	envRequire     = "POSTGRES_TESTS"
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
		cfg.DatabaseURL = testDatabase(t)
	}
	s, err := Open(context.Background(), cfg)
	if err != nil {
		t.Fatalf("Open(%s): %v", e, err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// testDatabase creates a database of its own for the test on the server
// CREDITDASH_TEST_POSTGRES names and drops it afterwards, so tests run in
// parallel and again without seeing each other's rows. Without the
// variable the test skips, or fails under POSTGRES_TESTS=require.
func testDatabase(t testing.TB) string {
	t.Helper()
	base := os.Getenv(envPostgresURL)
	if base == "" {
		if os.Getenv(envRequire) == "require" {
			t.Fatalf("PostgreSQL tests are required (%s=require) but %s is not set; run them with scripts/test-postgres.sh (needs Debian's postgresql package)", envRequire, envPostgresURL)
		}
		t.Skipf("skipping PostgreSQL test: %s is not set (scripts/test-postgres.sh sets it; %s=require fails instead)", envPostgresURL, envRequire)
	}
	u, err := url.Parse(base)
	if err != nil {
		t.Fatalf("%s is not a URL", envPostgresURL)
	}
	admin, err := sql.Open("pgx", base)
	if err != nil {
		t.Fatal(err)
	}
	defer admin.Close()
	name := fmt.Sprintf("creditdash_test_%d", newID())
	ctx := context.Background()
	if _, err := admin.ExecContext(ctx, "CREATE DATABASE "+name); err != nil {
		t.Fatalf("create database: %v", err)
	}
	t.Cleanup(func() {
		admin, err := sql.Open("pgx", base)
		if err != nil {
			t.Error(err)
			return
		}
		defer admin.Close()
		// FORCE ends connections a failed test may have left open.
		if _, err := admin.ExecContext(ctx, "DROP DATABASE "+name+" WITH (FORCE)"); err != nil {
			t.Errorf("drop database: %v", err)
		}
	})
	u.Path = "/" + name
	return u.String()
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
