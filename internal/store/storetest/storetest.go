// Package storetest gives tests a real PostgreSQL: an empty database of the
// test's own on the server scripts/test-postgres.sh started
// (CREDITDASH_TEST_POSTGRES), dropped when the test ends. Without a server
// the tests skip, unless POSTGRES_TESTS=require (make test), where they fail.
package storetest

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/binary"
	"fmt"
	"net/url"
	"os"
	"strings"
	"testing"
	"time"

	_ "github.com/jackc/pgx/v5/stdlib" // the admin connection that creates each test's database
)

// Environment of the PostgreSQL tests, as scripts/test-postgres.sh sets it.
const (
	envPostgresURL = "CREDITDASH_TEST_POSTGRES"
	envRequire     = "POSTGRES_TESTS"
)

// Database creates a database of the test's own and returns its URL, so
// tests run in parallel and again without seeing each other's rows.
func Database(t testing.TB) string {
	t.Helper()
	return DatabaseFrom(t, "")
}

// DatabaseFrom is Database made as a copy of the database template
// (CREATE DATABASE ... TEMPLATE, which nothing may be connected to), or
// empty when template is "".
func DatabaseFrom(t testing.TB, template string) string {
	t.Helper()
	base := Server(t)
	u, err := url.Parse(base)
	if err != nil {
		t.Fatalf("%s is not a URL", envPostgresURL)
	}
	ctx := context.Background()
	name, err := create(ctx, base, template)
	if err != nil {
		t.Fatal(err)
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

// Server is the test server's URL; without one the test skips, or fails
// under POSTGRES_TESTS=require.
func Server(t testing.TB) string {
	t.Helper()
	base := os.Getenv(envPostgresURL)
	if base == "" {
		if os.Getenv(envRequire) == "require" {
			t.Fatalf("PostgreSQL tests are required (%s=require) but %s is not set; run them with scripts/test-postgres.sh (needs Debian's postgresql package)", envRequire, envPostgresURL)
		}
		t.Skipf("skipping PostgreSQL test: %s is not set (scripts/test-postgres.sh sets it; %s=require fails instead)", envPostgresURL, envRequire)
	}
	return base
}

// Lasting creates an empty database that no test's end drops, on the
// throwaway server at base (Server's URL): a template made once per test
// binary for DatabaseFrom. It returns the database's URL and name.
func Lasting(ctx context.Context, base string) (dbURL, name string, err error) {
	u, err := url.Parse(base)
	if err != nil {
		return "", "", fmt.Errorf("%s is not a URL", envPostgresURL)
	}
	if name, err = create(ctx, base, ""); err != nil {
		return "", "", err
	}
	u.Path = "/" + name
	return u.String(), name, nil
}

// create makes a database of a random name, a copy of template when set.
// A template is briefly busy after its last connection closes (the server
// ends that session asynchronously), so a busy template is tried again.
func create(ctx context.Context, base, template string) (string, error) {
	var b [8]byte
	_, _ = rand.Read(b[:])
	name := fmt.Sprintf("creditdash_test_%d", binary.LittleEndian.Uint64(b[:])>>1)
	admin, err := sql.Open("pgx", base)
	if err != nil {
		return "", err
	}
	defer admin.Close()
	stmt := "CREATE DATABASE " + name
	if template != "" {
		stmt += " TEMPLATE " + template
	}
	for try := 1; ; try++ {
		_, err = admin.ExecContext(ctx, stmt)
		if err == nil || template == "" || try == 50 || !strings.Contains(err.Error(), "is being accessed by other users") {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	if err != nil {
		return "", fmt.Errorf("create database: %w", err)
	}
	return name, nil
}
