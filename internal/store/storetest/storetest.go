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
	"testing"

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
	var b [8]byte
	_, _ = rand.Read(b[:])
	name := fmt.Sprintf("creditdash_test_%d", binary.LittleEndian.Uint64(b[:])>>1)
	admin, err := sql.Open("pgx", base)
	if err != nil {
		t.Fatal(err)
	}
	defer admin.Close()
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
